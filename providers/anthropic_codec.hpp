// The Anthropic Messages API wire format, without I/O: a ProviderRequest becomes the JSON
// body of a streaming request, the server-sent events of the reply become ProviderReports,
// and a non-200 status becomes an Error.
#pragma once

#include "core/agent/provider_contract.hpp"
#include "host/http/sse.hpp"
#include "protocol/error.hpp"
#include "providers/reply_reports.hpp"

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rio {

struct AnthropicSettings {
    std::string model;
    int max_tokens = 8192;
    std::string effort; // "", "low", "medium" or "high": the extended-thinking budget
};

// The thinking budget for an effort: 0 (thinking off) for "", nullopt for a name we do not
// know — the provider's setup should refuse it; the request treats it as off.
std::optional<int> anthropic_thinking_budget(std::string_view effort);

nlohmann::json anthropic_request(const ProviderRequest& request, const AnthropicSettings& settings);

// Decodes one reply. Exactly one terminal report (done or error) comes out; after it,
// everything is ignored.
class AnthropicStream : public ReplyDecoder {
public:
    std::vector<ProviderReport> on_event(const SseEvent& event);

    // The HTTP body ended. Without message_stop the reply is incomplete: an error.
    std::vector<ProviderReport> on_end_of_stream();

private:
    struct Block {
        std::string type;           // text, thinking, tool_use; others are skipped
        std::string text;           // thinking text, or a tool's input JSON as it arrives
        std::string signature;      // thinking
        std::string id;             // tool_use
        std::string name;           // tool_use
        nlohmann::json start_input; // tool_use: the input in content_block_start, normally {}
    };

    void decode(const nlohmann::json& event, std::vector<ProviderReport>& out);
    void start_block(const nlohmann::json& event, std::vector<ProviderReport>& out);
    void block_delta(const nlohmann::json& event, std::vector<ProviderReport>& out);
    void stop_block(const nlohmann::json& event, std::vector<ProviderReport>& out);
    void add_usage(const nlohmann::json& usage);

    std::map<std::int64_t, Block> blocks_; // open content blocks by index
    nlohmann::json usage_ = nlohmann::json::object();
    std::string stop_reason_;
};

// For a response whose status is not 200; body is whatever came with it.
Error anthropic_http_error(int status, std::string_view body);

} // namespace rio
