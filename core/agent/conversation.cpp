#include "core/agent/conversation.hpp"

namespace rio {

nlohmann::json to_json(const Message& message) {
    nlohmann::json out{{"role", message.role == Role::user ? "user" : "assistant"},
                       {"text", message.text}};
    if (!message.calls.empty()) {
        out["calls"] = nlohmann::json::array();
        for (const ToolCall& c : message.calls)
            out["calls"].push_back({{"id", c.id}, {"name", c.name}, {"input", c.input}});
    }
    if (!message.results.empty()) {
        out["results"] = nlohmann::json::array();
        for (const ToolOutcome& r : message.results)
            out["results"].push_back(
                {{"call_id", r.call_id}, {"content", r.content}, {"is_error", r.is_error}});
    }
    return out;
}

} // namespace rio
