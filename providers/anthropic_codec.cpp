#include "providers/anthropic_codec.hpp"

#include "protocol/json_parse.hpp"
#include "providers/context_overflow.hpp"
#include "providers/http_status.hpp"
#include "providers/lenient_json.hpp"

#include <algorithm>
#include <array>

namespace rio {
namespace {

using Json = nlohmann::json;

// Tokens left for the visible answer when a thinking budget would otherwise take all of
// max_tokens: thinking counts against max_tokens, and the API wants the budget below it.
constexpr int answer_room = 4096;

constexpr std::array<std::string_view, 8> known_events = {"message_start",
                                                          "content_block_start",
                                                          "content_block_delta",
                                                          "content_block_stop",
                                                          "message_delta",
                                                          "message_stop",
                                                          "ping",
                                                          "error"};

Json anthropic_tool(const ToolSpec& spec) {
    return {{"name", spec.name},
            {"description", spec.description},
            {"input_schema", spec.input_schema.is_object()
                                 ? spec.input_schema
                                 : Json{{"type", "object"}, {"properties", Json::object()}}}};
}

// Tool results first: the API wants them at the start of the user turn that answers the
// calls. An empty text block is refused, so text only when there is some.
Json user_content(const Message& m, const ProviderRequest& request) {
    Json blocks = Json::array();
    for (const ToolOutcome& r : m.results) {
        Json block{{"type", "tool_result"}, {"tool_use_id", r.call_id}};
        if (!r.content.empty()) block["content"] = r.content;
        if (r.is_error) block["is_error"] = true;
        blocks.push_back(std::move(block));
    }
    if (std::string note = mode_note_text(m, request); !note.empty())
        blocks.push_back({{"type", "text"}, {"text", std::move(note)}});
    if (!m.text.empty()) blocks.push_back({{"type", "text"}, {"text", m.text}});
    return blocks;
}

const Json ephemeral = {{"type", "ephemeral"}};

// Cache breakpoints (decision 0053), at most four: the tool list and the system prompt (the
// same in every step and in both modes), the message that ended the previous request (so this
// one reads everything before it from the cache) and the newest message (written for the
// next step to read).
void mark_cache_breakpoints(Json& messages) {
    if (messages.empty()) return;
    auto mark = [](Json& message) {
        Json& content = message["content"];
        if (content.is_array() && !content.empty()) content.back()["cache_control"] = ephemeral;
    };
    mark(messages.back());
    std::size_t n = messages.size();
    if (n >= 3 && messages[n - 3]["role"] == "user" && messages[n - 2]["role"] == "assistant")
        mark(messages[n - 3]);
}

// Kept blocks (signed thinking) lead: with thinking on, an assistant turn that calls tools
// must start with the thinking block exactly as it was sent, or the API refuses it.
Json assistant_content(const Message& m) {
    Json blocks = Json::array();
    for (const Json& kept : m.kept)
        if (text_at(kept, "provider") == "anthropic" && field(kept, "block"))
            blocks.push_back(kept["block"]);
    if (!m.text.empty()) blocks.push_back({{"type", "text"}, {"text", m.text}});
    for (const ToolCall& call : m.calls)
        blocks.push_back({{"type", "tool_use"},
                          {"id", call.id},
                          {"name", call.name},
                          {"input", call.input.is_object() ? call.input : Json::object()}});
    return blocks;
}

} // namespace

std::optional<int> anthropic_thinking_budget(std::string_view effort) {
    if (effort.empty()) return 0;
    if (effort == "low") return 2048;
    if (effort == "medium") return 8192;
    if (effort == "high") return 24576;
    return std::nullopt;
}

Json anthropic_request(const ProviderRequest& request, const AnthropicSettings& settings) {
    Json body{{"model", settings.model}, {"max_tokens", settings.max_tokens}, {"stream", true}};
    int budget = anthropic_thinking_budget(settings.effort).value_or(0);
    if (budget > 0) {
        body["thinking"] = {{"type", "enabled"}, {"budget_tokens", budget}};
        if (settings.max_tokens <= budget) body["max_tokens"] = budget + answer_room;
    }
    if (!request.system.empty())
        body["system"] = Json::array(
            {{{"type", "text"}, {"text", request.system}, {"cache_control", ephemeral}}});
    if (!request.tools.empty()) {
        Json tools = Json::array();
        for (const ToolSpec& spec : request.tools)
            tools.push_back(anthropic_tool(spec));
        tools.back()["cache_control"] = ephemeral;
        body["tools"] = std::move(tools);
    }
    // An entry with nothing to send is left out rather than sent empty, which the API
    // refuses; it merges the same-role turns that may then meet.
    Json messages = Json::array();
    for (const auto& entry : request.conversation) {
        if (!entry) continue;
        bool user = entry->role == Role::user;
        Json content = user ? user_content(*entry, request) : assistant_content(*entry);
        if (content.empty()) continue;
        messages.push_back(
            {{"role", user ? "user" : "assistant"}, {"content", std::move(content)}});
    }
    mark_cache_breakpoints(messages);
    body["messages"] = std::move(messages);
    return body;
}

std::vector<ProviderReport> AnthropicStream::on_event(const SseEvent& event) {
    std::vector<ProviderReport> out;
    if (reply_.finished) return out;
    // A named event we do not know is skipped unread: newer ones need not carry JSON we
    // understand. Unnamed ones ("message") are recognised by their JSON type instead.
    if (event.type != "message" &&
        std::find(known_events.begin(), known_events.end(), event.type) == known_events.end())
        return out;
    decode_event(reply_, "event from Anthropic", event.data, out, [&](Json& j) {
        if (!j.contains("type")) j["type"] = event.type; // the name stands in for a missing type
        decode(j, out);
    });
    return out;
}

void AnthropicStream::decode(const Json& j, std::vector<ProviderReport>& out) {
    std::string type = text_at(j, "type");
    if (type == "message_start") {
        if (const Json* message = field(j, "message"))
            if (const Json* usage = field(*message, "usage")) add_usage(*usage);
    } else if (type == "content_block_start") {
        start_block(j, out);
    } else if (type == "content_block_delta") {
        block_delta(j, out);
    } else if (type == "content_block_stop") {
        stop_block(j, out);
    } else if (type == "message_delta") {
        if (const Json* delta = field(j, "delta"))
            if (std::string reason = text_at(*delta, "stop_reason"); !reason.empty())
                stop_reason_ = reason;
        if (const Json* usage = field(j, "usage")) add_usage(*usage);
    } else if (type == "message_stop") {
        if (!usage_.empty()) out.push_back(ProviderReport::usage(usage_));
        out.push_back(ProviderReport::done(stop_reason_.empty() ? "end_turn" : stop_reason_));
        reply_.finished = true;
    } else if (type == "error") {
        const Json* error = field(j, "error");
        std::string kind = error ? text_at(*error, "type") : std::string();
        std::string message = error ? text_at(*error, "message") : std::string();
        if (message.empty()) message = kind.empty() ? "no details" : kind;
        if (kind == "invalid_request_error" && is_context_overflow(0, message))
            reply_.fail(out, ErrorCode::context_full,
                        "Anthropic said the conversation does not fit the model's context "
                        "window: " +
                            message);
        else if (kind == "invalid_request_error")
            reply_.fail(out, ErrorCode::bad_response, "Anthropic rejected the request: " + message);
        else if (kind == "rate_limit_error")
            reply_.fail(out, ErrorCode::rate_limit,
                        "Anthropic's rate limit was reached: " + message);
        else if (kind == "authentication_error" || kind == "permission_error")
            reply_.fail(out, ErrorCode::auth, "Anthropic refused access: " + message);
        else // overloaded_error, api_error and whatever comes later
            reply_.fail(out, ErrorCode::server, "Anthropic reported an error: " + message);
    }
    // ping and types added after this was written: nothing to do.
}

void AnthropicStream::start_block(const Json& j, std::vector<ProviderReport>& out) {
    const Json* index = field(j, "index");
    const Json* content = field(j, "content_block");
    if (!index || !index->is_number_integer() || !content) return;
    Block block;
    block.type = text_at(*content, "type");
    if (block.type == "redacted_thinking") {
        // Complete on arrival and opaque: nothing to show, only to send back.
        out.push_back(ProviderReport::keep({{"provider", "anthropic"}, {"block", *content}}));
        return;
    }
    if (block.type == "text") {
        if (std::string text = text_at(*content, "text"); !text.empty())
            reply_.emit(out, ProviderReport::delta(std::move(text)));
    } else if (block.type == "thinking") {
        block.text = text_at(*content, "thinking");
        block.signature = text_at(*content, "signature");
        if (!block.text.empty()) reply_.emit(out, ProviderReport::thinking(block.text));
    } else if (block.type == "tool_use") {
        block.id = text_at(*content, "id");
        block.name = text_at(*content, "name");
        if (const Json* input = field(*content, "input")) block.start_input = *input;
    }
    blocks_[index->get<std::int64_t>()] = std::move(block);
}

void AnthropicStream::block_delta(const Json& j, std::vector<ProviderReport>& out) {
    const Json* delta = field(j, "delta");
    if (!delta) return;
    std::string type = text_at(*delta, "type");
    // Text and thinking show even if their block's start went missing; the rest need it.
    if (type == "text_delta") {
        if (std::string text = text_at(*delta, "text"); !text.empty())
            reply_.emit(out, ProviderReport::delta(std::move(text)));
        return;
    }
    const Json* index = field(j, "index");
    Block* block = nullptr;
    if (index && index->is_number_integer())
        if (auto it = blocks_.find(index->get<std::int64_t>()); it != blocks_.end())
            block = &it->second;
    if (type == "thinking_delta") {
        std::string text = text_at(*delta, "thinking");
        if (text.empty()) return;
        if (block) block->text += text;
        reply_.emit(out, ProviderReport::thinking(std::move(text)));
    } else if (type == "signature_delta" && block) {
        block->signature += text_at(*delta, "signature");
    } else if (type == "input_json_delta" && block) {
        block->text += text_at(*delta, "partial_json");
        if (block->text.size() > max_tool_input_bytes)
            reply_.fail(out, ErrorCode::bad_response,
                        tool_input_too_large("Anthropic", block->name));
    }
}

void AnthropicStream::stop_block(const Json& j, std::vector<ProviderReport>& out) {
    const Json* index = field(j, "index");
    if (!index || !index->is_number_integer()) return;
    auto it = blocks_.find(index->get<std::int64_t>());
    if (it == blocks_.end()) return;
    Block block = std::move(it->second);
    blocks_.erase(it);

    if (block.type == "thinking") {
        out.push_back(ProviderReport::keep(
            {{"provider", "anthropic"},
             {"block",
              {{"type", "thinking"}, {"thinking", block.text}, {"signature", block.signature}}}}));
    } else if (block.type == "tool_use") {
        // No input_json_delta at all, or only empty ones: a tool without arguments.
        bool blank = block.text.find_first_not_of(" \t\r\n") == std::string::npos;
        auto input =
            blank ? Result<Json>(block.start_input.is_object() ? block.start_input : Json::object())
                  : parse_json(block.text);
        if (!input || !input->is_object()) {
            std::string note = input ? std::string() : refusal_note(input.error());
            std::string problem = note.empty()
                                      ? "' that is not a JSON object (was the reply cut short?)"
                                      : "' that is refused" + note;
            reply_.fail(out, ErrorCode::bad_response,
                        "Anthropic sent input for tool '" + block.name + problem + ": " +
                            wire_excerpt(block.text));
            return;
        }
        reply_.emit(out,
                    ProviderReport::tool_call(ToolCall{block.id, block.name, std::move(*input)}));
    }
}

// message_start carries the input side, message_delta the running output total (and, on
// newer API versions, the input side again): later values replace earlier ones.
void AnthropicStream::add_usage(const Json& usage) {
    for (const char* key : {"input_tokens", "output_tokens", "cache_creation_input_tokens",
                            "cache_read_input_tokens"})
        if (const Json* n = field(usage, key); n && n->is_number_integer()) usage_[key] = *n;
}

std::vector<ProviderReport> AnthropicStream::on_end_of_stream() {
    std::vector<ProviderReport> out;
    if (!reply_.finished)
        reply_.fail(out, ErrorCode::bad_response, "the stream ended before the reply was complete");
    return out;
}

Error anthropic_http_error(int status, std::string_view body) {
    std::string message;
    if (auto j = parse_json(body))
        if (const Json* error = field(*j, "error")) message = text_at(*error, "message");
    return status_error(status, "Anthropic", message, body);
}

} // namespace rio
