// What a provider receives and what it reports back (DESIGN §10). A provider never sees
// modes or the gate: it gets the conversation, the tools offered in this step and the
// composed system prompt, and makes exactly one terminal report (done or error).
#pragma once

#include "core/agent/conversation.hpp"
#include "core/agent/tools.hpp"
#include "protocol/error.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace rio {

struct ProviderRequest {
    std::string system;
    std::vector<ToolSpec> tools;
    Conversation conversation;
    nlohmann::json options = nlohmann::json::object(); // provider-declared: model, effort, ...
    // The plan layer's text, sent with the user entries marked ModeNote::plan.
    std::string plan_note;
    // The session's id: OpenAI's prompt_cache_key, which keeps one conversation's requests on
    // the machines that hold its cached prefix.
    std::string cache_key;
};

// The text a user entry's mode note stands for in a request ("" for none).
std::string mode_note_text(const Message& message, const ProviderRequest& request);
// A user entry's text as a wire with one text per message sends it: its mode note, a blank
// line, then the person's words (either alone when the other is empty).
std::string text_with_mode_note(const Message& message, const ProviderRequest& request);

struct ProviderReport {
    // keep: a block the provider needs back verbatim in later requests (a signed thinking
    // block); the loop stores it on the assistant entry without reading it.
    // usage: token counts, broadcast as agent.usage.
    enum class Kind { delta, thinking, tool_call, keep, usage, done, error };
    Kind kind = Kind::delta;
    std::string text;                     // delta, thinking; error message
    ToolCall call;                        // tool_call
    std::string stop_reason;              // done: end_turn, tool_use, max_tokens, ...
    ErrorCode code = ErrorCode::internal; // error
    nlohmann::json data;                  // keep: {provider, block}; usage: counts

    static ProviderReport delta(std::string t) { return with(Kind::delta, std::move(t)); }
    static ProviderReport thinking(std::string t) { return with(Kind::thinking, std::move(t)); }
    static ProviderReport tool_call(ToolCall c) {
        ProviderReport r = with(Kind::tool_call);
        r.call = std::move(c);
        return r;
    }
    static ProviderReport keep(nlohmann::json block) {
        return with(Kind::keep, {}, std::move(block));
    }
    static ProviderReport usage(nlohmann::json counts) {
        return with(Kind::usage, {}, std::move(counts));
    }
    static ProviderReport done(std::string reason) {
        ProviderReport r = with(Kind::done);
        r.stop_reason = std::move(reason);
        return r;
    }
    static ProviderReport error(ErrorCode code, std::string message) {
        ProviderReport r = with(Kind::error, std::move(message));
        r.code = code;
        return r;
    }

private:
    static ProviderReport with(Kind kind, std::string text = {}, nlohmann::json data = nullptr) {
        ProviderReport r;
        r.kind = kind;
        r.text = std::move(text);
        r.data = std::move(data);
        return r;
    }
};

} // namespace rio
