// What a provider receives and what it reports back (DESIGN §10). A provider never sees
// modes or the gate: it gets the conversation, the tools offered in this step and the
// composed system prompt, and makes exactly one terminal report (done or error).
#pragma once

#include "core/agent/conversation.hpp"
#include "core/agent/tools.hpp"
#include "core/error.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace rio {

struct ProviderRequest {
    std::string system;
    std::vector<ToolSpec> tools;
    Conversation conversation;
    nlohmann::json options = nlohmann::json::object(); // provider-declared: model, effort, ...
};

struct ProviderReport {
    enum class Kind { delta, thinking, tool_call, done, error };
    Kind kind = Kind::delta;
    std::string text;                     // delta, thinking; error message
    ToolCall call;                        // tool_call
    std::string stop_reason;              // done: end_turn, tool_use, max_tokens, ...
    ErrorCode code = ErrorCode::internal; // error

    static ProviderReport delta(std::string t) { return {Kind::delta, std::move(t), {}, {}}; }
    static ProviderReport thinking(std::string t) { return {Kind::thinking, std::move(t), {}, {}}; }
    static ProviderReport tool_call(ToolCall c) { return {Kind::tool_call, {}, std::move(c), {}}; }
    static ProviderReport done(std::string reason) {
        return {Kind::done, {}, {}, std::move(reason)};
    }
    static ProviderReport error(ErrorCode code, std::string message) {
        return {Kind::error, std::move(message), {}, {}, code};
    }
};

} // namespace rio
