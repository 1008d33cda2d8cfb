// The script provider's steps as tests write them (docs/protocol.md, "The script provider"):
// a tool call, a step of calls with optional text, a step of text only, a plan presented;
// and the file those steps work on.
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
inline nlohmann::json
plan_step(const std::string& title = "Add a greeting flag",
          const std::string& plan = "1. Add `--shout` to greet.py\n2. Test it\n") {
    return step({tool("present_plan", {{"title", title}, {"plan", plan}})});
}

// greet.py as the agent tests' projects hold it.
inline const std::string greet_py = "def greeting(name):\n    return f\"Hello, {name}!\"\n";

} // namespace rio::test
