// Small JSON settings files under the user's config folder: read (missing = empty object)
// and written atomically.
#pragma once

#include "protocol/error.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>

namespace rio {

// A missing file is an empty object; a file that is not a JSON object is an error naming it.
Result<nlohmann::json> load_json_file(const std::filesystem::path& path);
Status save_json_file(const std::filesystem::path& path, const nlohmann::json& value);

} // namespace rio
