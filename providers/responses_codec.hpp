// OpenAI's Responses API wire format (POST /v1/responses), without I/O: where OpenAI's Codex,
// pro and deep-research models answer (issue 49, decision 0097). A ProviderRequest becomes the
// JSON body of a stateless streaming request — the whole conversation as input items, `store:
// false` — and the typed events of the reply become ProviderReports. Reasoning items come back
// with their encrypted content and are kept on the assistant entry, to be sent back as they
// came; an HTTP error has Chat Completions' envelope (openai_http_error).
#pragma once

#include "core/agent/provider_contract.hpp"
#include "host/http/sse.hpp"
#include "providers/reply_reports.hpp"

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace rio {

struct ResponsesSettings {
    std::string model;
    int max_tokens = 8192;
    std::string effort; // reasoning.effort when non-empty
    // The server is OpenAI's own API: it takes prompt_cache_key (the session id).
    bool openai_itself = false;
};

// The `provider` a kept reasoning item is tagged with; the other wires skip it.
inline constexpr std::string_view responses_kept_tag = "openai-responses";

// Whether rio asks for reasoning (its summary shown as thinking, its encrypted content kept):
// an effort was set, or the model is one of OpenAI's reasoning families.
bool responses_reasoning(std::string_view model, std::string_view effort);

nlohmann::json responses_request(const ProviderRequest& request, const ResponsesSettings& settings);

// Decodes one reply. Exactly one terminal report (done or error) comes out; after it,
// everything is ignored. Event types it does not know are skipped: the API adds new ones.
class ResponsesStream : public ReplyDecoder {
public:
    std::vector<ProviderReport> on_event(const SseEvent& event);

    // The HTTP body ended. Without response.completed (or .incomplete) the reply is cut.
    std::vector<ProviderReport> on_end_of_stream();

private:
    struct PendingCall {
        std::string call_id;
        std::string name;
        std::string arguments; // JSON text, arriving in pieces
    };

    void decode(const nlohmann::json& event, std::vector<ProviderReport>& out);
    void start_item(const nlohmann::json& event);
    void add_arguments(const nlohmann::json& event, std::vector<ProviderReport>& out);
    void end_item(const nlohmann::json& event, std::vector<ProviderReport>& out);
    void end_call(std::int64_t at, const nlohmann::json& item, std::vector<ProviderReport>& out);
    void finish(const nlohmann::json& response, std::string stop_reason,
                std::vector<ProviderReport>& out);
    void fail(const nlohmann::json* error, std::string_view what, std::vector<ProviderReport>& out);

    std::map<std::int64_t, PendingCall> calls_; // open function calls by output_index
    std::set<std::int64_t> streamed_;           // output items whose text came as deltas
    bool had_calls_ = false;
};

} // namespace rio
