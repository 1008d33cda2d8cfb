#include "core/agent/conversation.hpp"

namespace rio {

HistoryMessage history_entry(const Message& message) {
    HistoryMessage out;
    out.role = message.role == Role::user ? "user" : "assistant";
    out.text = message.text;
    if (!message.calls.empty()) {
        out.calls.emplace();
        for (const ToolCall& c : message.calls)
            out.calls->push_back(CallInfo{c.id, c.name, c.input});
    }
    if (!message.results.empty()) {
        out.results.emplace();
        for (const ToolOutcome& r : message.results)
            out.results->push_back(ResultInfo{r.call_id, !r.is_error, r.content, r.exit, r.output});
    }
    return out;
}

nlohmann::json to_json(const Message& message) {
    return history_entry(message);
}

} // namespace rio
