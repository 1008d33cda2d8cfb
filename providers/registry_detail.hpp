// What the registry's files share: a variable's value as the core holds it, a stored value as
// text, and a base URL as the wire joins it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace rio::registry_detail {

std::string env(const std::string& name);
std::string as_text(const nlohmann::json& value);
std::string api_base(std::string_view provider, std::string url);

} // namespace rio::registry_detail
