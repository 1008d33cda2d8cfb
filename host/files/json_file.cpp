#include "host/files/json_file.hpp"

#include "host/files/files.hpp"
#include "protocol/json_parse.hpp"

namespace rio {

Result<nlohmann::json> load_json_file(const std::filesystem::path& path) {
    auto text = read_file(path, path.string());
    if (!text) {
        if (text.error().code == ErrorCode::not_found) return nlohmann::json::object();
        return text.error();
    }
    // Settings files are written by people, who leave comments in them.
    auto value = parse_json(*text, {.jsonc = true});
    if (!value)
        return make_error(ErrorCode::bad_request, path.string() + ": " + value.error().message);
    if (!value->is_object())
        return make_error(ErrorCode::bad_request, path.string() + " is not a JSON object");
    return value;
}

Status save_json_file(const std::filesystem::path& path, const nlohmann::json& value) {
    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
    if (ec)
        return make_error(ErrorCode::io_error,
                          "cannot create " + path.parent_path().string() + ": " + ec.message());
    return write_file_atomic(path, value.dump(2) + "\n", path.string());
}

} // namespace rio
