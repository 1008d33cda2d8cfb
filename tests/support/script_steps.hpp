// The script provider's steps as tests write them (docs/protocol.md, "The script provider"):
// a tool call, a step of calls with optional text, a step of text only.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace rio::test {

inline nlohmann::json tool(const std::string& name, nlohmann::json input) {
    return {{"name", name}, {"input", std::move(input)}};
}
inline nlohmann::json step(std::vector<nlohmann::json> tools, std::string text = "") {
    return {{"text", std::move(text)}, {"tools", std::move(tools)}};
}
inline nlohmann::json text_step(const std::string& text) {
    return {{"text", text}};
}

} // namespace rio::test
