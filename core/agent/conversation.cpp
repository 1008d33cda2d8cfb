#include "core/agent/conversation.hpp"

#include "core/agent/provider_contract.hpp"

namespace rio {

HistoryMessage history_entry(const Message& message) {
    HistoryMessage out;
    out.role = message.role == Role::user ? "user" : "assistant";
    out.text = message.text;
    if (!message.model.empty()) out.model = message.model;
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

std::string text_with_mode_note(const Message& message, const ProviderRequest& request) {
    std::string note = mode_note_text(message, request);
    if (note.empty()) return message.text;
    return message.text.empty() ? note : note + "\n\n" + message.text;
}

std::string mode_note_text(const Message& message, const ProviderRequest& request) {
    switch (message.note) {
    case ModeNote::none:
        return {};
    case ModeNote::plan:
        return request.plan_note;
    case ModeNote::build:
        return "Plan mode is off now: the editing tools (edit_file, create_file, run_command) "
               "may be used again.";
    }
    return {};
}

nlohmann::json to_json(const Message& message) {
    return history_entry(message);
}

} // namespace rio
