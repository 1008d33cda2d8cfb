// What a failed response says: `{"id", "ok": false, "error": {"code", "message"}}`; and
// fs.search's matches one by one.
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

// fs.search's `files: [{path, matches: [[line, column, length, start, end, text]]}]` as one
// object a match, `{path, line, column, length, start, end, text}`, in reply order.
inline nlohmann::json search_matches(const nlohmann::json& result) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& file : result.at("files"))
        for (const auto& m : file.at("matches"))
            out.push_back({{"path", file.at("path")},
                           {"line", m.at(0)},
                           {"column", m.at(1)},
                           {"length", m.at(2)},
                           {"start", m.at(3)},
                           {"end", m.at(4)},
                           {"text", m.at(5)}});
    return out;
}

} // namespace rio::test
