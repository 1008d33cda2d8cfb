// Reading what a model server sent without throwing: a field of an odd type is treated as
// absent, so a strange reply becomes a clear error later rather than an exception here.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace rio {

// `j[key]`, or nullptr when `j` is not an object or has no such key.
const nlohmann::json* field(const nlohmann::json& j, const char* key);
// `j[key]` when it is a string, else "".
std::string text_at(const nlohmann::json& j, const char* key);

} // namespace rio
