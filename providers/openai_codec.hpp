// The OpenAI Chat Completions wire format, without I/O — the one most servers speak
// (OpenAI, DeepSeek, vLLM, llama.cpp, Ollama): a ProviderRequest becomes the JSON body of a
// streaming request, the server-sent chunks of the reply become ProviderReports, and a
// non-200 status becomes an Error.
#pragma once

#include "core/agent/provider_contract.hpp"
#include "host/http/sse.hpp"
#include "protocol/error.hpp"
#include "providers/reply_reports.hpp"

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace rio {

struct OpenAiSettings {
    std::string model;
    int max_tokens = 8192;
    std::string effort; // sent as reasoning_effort when non-empty
    // OpenAI's own API refuses max_tokens for its reasoning models (o-series, gpt-5) and
    // wants max_completion_tokens; local servers (Ollama, llama.cpp) know only max_tokens.
    bool completion_tokens = false;
    // The server is OpenAI's own API: it takes prompt_cache_key (the session id).
    bool openai_itself = false;
};

nlohmann::json openai_request(const ProviderRequest& request, const OpenAiSettings& settings);

// Decodes one reply. Exactly one terminal report (done or error) comes out; after it,
// everything is ignored. A finish_reason alone is not the end: usage and [DONE] may follow.
class OpenAiStream : public ReplyDecoder {
public:
    std::vector<ProviderReport> on_event(const SseEvent& event);

    // The HTTP body ended. Some servers stop after finish_reason without `data: [DONE]`:
    // that is a complete reply. Without a finish_reason it is not.
    std::vector<ProviderReport> on_end_of_stream();

private:
    struct PendingCall {
        std::string id;
        std::string name;
        std::string arguments; // JSON text, arriving in pieces
    };

    void decode(const nlohmann::json& chunk, std::vector<ProviderReport>& out);
    void add_call_pieces(const nlohmann::json& tool_calls);
    void flush_calls(std::vector<ProviderReport>& out);
    void finish(std::vector<ProviderReport>& out);

    std::map<std::int64_t, PendingCall> calls_; // by the server's index, so in index order
    std::string finish_reason_;                 // as sent; empty until one arrives
    nlohmann::json usage_;                      // the latest usage seen, reported before done
    bool had_calls_ = false;
};

// For a response whose status is not 200; body is whatever came with it. The Responses wire
// answers with the same envelope.
Error openai_http_error(int status, std::string_view body);

// The code for an error object inside a stream ({message, type, code}), which carries no
// HTTP status of its own; shared with the Responses wire.
ErrorCode openai_error_code(const nlohmann::json& error);

} // namespace rio
