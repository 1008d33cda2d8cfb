// What a failed response says: `{"id", "ok": false, "error": {"code", "message"}}`.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace rio::test {

inline std::string code_of(const nlohmann::json& response) {
    return response.at("error").at("code").get<std::string>();
}
inline std::string message_of(const nlohmann::json& response) {
    return response.at("error").at("message").get<std::string>();
}

} // namespace rio::test
