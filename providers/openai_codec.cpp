#include "providers/openai_codec.hpp"

#include "protocol/json_parse.hpp"
#include "providers/context_overflow.hpp"
#include "providers/http_status.hpp"
#include "providers/lenient_json.hpp"

#include <algorithm>

namespace rio {
namespace {

using Json = nlohmann::json;

Json openai_tool(const ToolSpec& spec) {
    return {{"type", "function"},
            {"function",
             {{"name", spec.name},
              {"description", spec.description},
              {"parameters", spec.input_schema.is_object()
                                 ? spec.input_schema
                                 : Json{{"type", "object"}, {"properties", Json::object()}}}}}};
}

// One `tool` message per result, then the user's text: the format has one message per
// result and no error flag, so an error says so in its content.
void add_user(const Message& m, const ProviderRequest& request, Json& messages) {
    for (const ToolOutcome& r : m.results)
        messages.push_back({{"role", "tool"},
                            {"tool_call_id", r.call_id},
                            {"content", r.is_error ? "Error: " + r.content : r.content}});
    // An entry with neither is still sent, empty: some chat templates insist that user and
    // assistant alternate.
    std::string text = text_with_mode_note(m, request);
    if (!text.empty() || m.results.empty())
        messages.push_back({{"role", "user"}, {"content", std::move(text)}});
}

// Kept blocks belong to other providers (this format has nothing to replay), so they are
// not sent.
void add_assistant(const Message& m, Json& messages) {
    Json message{{"role", "assistant"}};
    message["content"] = m.text.empty() && !m.calls.empty() ? Json(nullptr) : Json(m.text);
    if (!m.calls.empty()) {
        Json calls = Json::array();
        for (const ToolCall& call : m.calls) {
            const Json& input = call.input.is_object() ? call.input : Json::object();
            calls.push_back(
                {{"id", call.id},
                 {"type", "function"},
                 {"function",
                  {{"name", call.name},
                   {"arguments", input.dump(-1, ' ', false, Json::error_handler_t::replace)}}}});
        }
        message["tool_calls"] = std::move(calls);
    }
    messages.push_back(std::move(message));
}

// The error's message, from OpenAI's envelope {"error": {"message"}} or the looser shapes
// other servers use ({"error": "..."}, {"message": "..."}, {"detail": "..."}).
std::string envelope_message(const Json& j) {
    if (const Json* error = field(j, "error")) {
        if (error->is_string()) return error->get<std::string>();
        if (std::string m = text_at(*error, "message"); !m.empty()) return m;
    }
    if (std::string m = text_at(j, "message"); !m.empty()) return m;
    return text_at(j, "detail");
}

// In Anthropic's terms, which agent.usage speaks: input_tokens are the ones not read from
// the cache (OpenAI's prompt_tokens include those).
Json usage_counts(const Json& usage) {
    Json counts = Json::object();
    std::int64_t cached = 0;
    if (const Json* details = field(usage, "prompt_tokens_details"))
        if (const Json* n = field(*details, "cached_tokens"); n && n->is_number_integer()) {
            cached = n->get<std::int64_t>();
            counts["cache_read_input_tokens"] = *n;
        }
    if (const Json* n = field(usage, "prompt_tokens"); n && n->is_number_integer())
        counts["input_tokens"] = std::max<std::int64_t>(0, n->get<std::int64_t>() - cached);
    if (const Json* n = field(usage, "completion_tokens"); n && n->is_number_integer())
        counts["output_tokens"] = *n;
    return counts;
}

std::string stop_reason(const std::string& finish_reason, bool had_calls) {
    // Some servers say "stop" (or nothing) after tool calls; what happened is a tool use.
    if (finish_reason == "stop" || finish_reason.empty())
        return had_calls ? "tool_use" : "end_turn";
    if (finish_reason == "tool_calls" || finish_reason == "function_call") return "tool_use";
    if (finish_reason == "length") return "max_tokens";
    if (finish_reason == "content_filter") return "refusal";
    return finish_reason;
}

} // namespace

Json openai_request(const ProviderRequest& request, const OpenAiSettings& settings) {
    Json body{
        {"model", settings.model},
        {settings.completion_tokens ? "max_completion_tokens" : "max_tokens", settings.max_tokens},
        {"stream", true},
        {"stream_options", {{"include_usage", true}}}};
    if (!settings.effort.empty()) body["reasoning_effort"] = settings.effort;
    // OpenAI caches byte-identical prefixes by itself; the key only routes a conversation's
    // requests together. Other servers may refuse a field they do not know.
    if (settings.openai_itself && !request.cache_key.empty())
        body["prompt_cache_key"] = request.cache_key;
    if (!request.tools.empty()) {
        Json tools = Json::array();
        for (const ToolSpec& spec : request.tools)
            tools.push_back(openai_tool(spec));
        body["tools"] = std::move(tools);
    }
    Json messages = Json::array();
    if (!request.system.empty())
        messages.push_back({{"role", "system"}, {"content", request.system}});
    for (const auto& entry : request.conversation) {
        if (!entry) continue;
        if (entry->role == Role::user)
            add_user(*entry, request, messages);
        else
            add_assistant(*entry, messages);
    }
    body["messages"] = std::move(messages);
    return body;
}

std::vector<ProviderReport> OpenAiStream::on_event(const SseEvent& event) {
    std::vector<ProviderReport> out;
    if (reply_.finished) return out;
    std::string_view data = event.data;
    std::size_t first = data.find_first_not_of(" \t\r\n");
    data = first == std::string_view::npos
               ? std::string_view()
               : data.substr(first, data.find_last_not_of(" \t\r\n") - first + 1);
    if (data == "[DONE]") {
        finish(out);
        return out;
    }
    decode_event(reply_, "chunk from the server", data, out, [&](Json& j) { decode(j, out); });
    return out;
}

void OpenAiStream::decode(const Json& j, std::vector<ProviderReport>& out) {
    const Json* error = field(j, "error");
    if (error && !error->is_null()) {
        std::string message =
            error->is_string() ? error->get<std::string>() : text_at(*error, "message");
        reply_.fail(out, openai_error_code(*error),
                    "the server reported an error: " + (message.empty()
                                                            ? wire_excerpt(error->dump())
                                                            : wire_excerpt(message, 500)));
        return;
    }
    if (text_at(j, "object") == "error") { // vLLM's bare shape
        reply_.fail(out, openai_error_code(j),
                    "the server reported an error: " + wire_excerpt(text_at(j, "message"), 500));
        return;
    }
    const Json* choices = field(j, "choices");
    if (choices && choices->is_array() && !choices->empty()) {
        const Json& choice = choices->front(); // we never ask for more than one
        if (const Json* delta = field(choice, "delta")) {
            // DeepSeek and llama.cpp say reasoning_content, newer vLLM and Ollama reasoning;
            // a server sending both sends the same text twice.
            std::string reasoning = text_at(*delta, "reasoning_content");
            if (reasoning.empty()) reasoning = text_at(*delta, "reasoning");
            if (!reasoning.empty())
                reply_.emit(out, ProviderReport::thinking(std::move(reasoning)));
            if (std::string text = text_at(*delta, "content"); !text.empty())
                reply_.emit(out, ProviderReport::delta(std::move(text)));
            if (std::string text = text_at(*delta, "refusal"); !text.empty())
                reply_.emit(out, ProviderReport::delta(std::move(text)));
            const Json* tool_calls = field(*delta, "tool_calls");
            if (tool_calls && tool_calls->is_array() && finish_reason_.empty()) {
                add_call_pieces(*tool_calls);
                for (const auto& [index, call] : calls_)
                    if (call.arguments.size() > max_tool_input_bytes) {
                        reply_.fail(out, ErrorCode::bad_response,
                                    tool_input_too_large("the server", call.name));
                        return;
                    }
            }
        }
        // The calls are complete here, but usage and [DONE] may still follow: hold done.
        std::string reason = text_at(choice, "finish_reason");
        if (!reason.empty() && finish_reason_.empty()) {
            finish_reason_ = reason;
            flush_calls(out);
            if (reply_.finished) return;
        }
    }
    // With include_usage it comes in a last chunk with no choices; some servers put it on the
    // finishing chunk, or a running total on every chunk. The latest one wins.
    if (const Json* usage = field(j, "usage"); usage && usage->is_object())
        usage_ = usage_counts(*usage);
}

// Each call's id and name come first, its arguments in pieces after; calls may interleave,
// told apart only by `index`.
void OpenAiStream::add_call_pieces(const Json& tool_calls) {
    for (std::size_t i = 0; i < tool_calls.size(); ++i) {
        const Json& piece = tool_calls[i];
        const Json* index = field(piece, "index");
        // Without an index a server sends whole calls, so their place in the array will do.
        std::int64_t at = index && index->is_number_integer() ? index->get<std::int64_t>()
                                                              : static_cast<std::int64_t>(i);
        PendingCall& call = calls_[at];
        if (std::string id = text_at(piece, "id"); !id.empty()) call.id = std::move(id);
        const Json* function = field(piece, "function");
        if (!function) continue;
        if (std::string name = text_at(*function, "name"); !name.empty())
            call.name = std::move(name); // some servers repeat it on every piece
        if (const Json* args = field(*function, "arguments")) {
            if (args->is_string())
                call.arguments += args->get<std::string>();
            else if (args->is_object()) // a server sending the object itself, whole
                call.arguments = args->dump(-1, ' ', false, Json::error_handler_t::replace);
        }
    }
}

void OpenAiStream::flush_calls(std::vector<ProviderReport>& out) {
    for (auto& [index, call] : calls_) {
        if (call.name.empty()) {
            reply_.fail(out, ErrorCode::bad_response, "the server sent a tool call without a name");
            return;
        }
        auto input = tool_input(call.name, call.arguments);
        if (!input) {
            reply_.fail(out, input.error().code, input.error().message);
            return;
        }
        // Some local servers send no id; the result must still name its call.
        std::string id = call.id.empty() ? "call_" + std::to_string(index) : std::move(call.id);
        had_calls_ = true;
        reply_.emit(
            out, ProviderReport::tool_call(ToolCall{std::move(id), call.name, std::move(*input)}));
    }
    calls_.clear();
}

void OpenAiStream::finish(std::vector<ProviderReport>& out) {
    flush_calls(out); // for a server that ends without a finish_reason
    if (reply_.finished) return;
    if (usage_.is_object() && !usage_.empty()) out.push_back(ProviderReport::usage(usage_));
    out.push_back(ProviderReport::done(stop_reason(finish_reason_, had_calls_)));
    reply_.finished = true;
}

std::vector<ProviderReport> OpenAiStream::on_end_of_stream() {
    std::vector<ProviderReport> out;
    if (reply_.finished) return out;
    if (!finish_reason_.empty())
        finish(out);
    else
        reply_.fail(out, ErrorCode::bad_response, "the stream ended before the reply was complete");
    return out;
}

// An error inside the stream carries no HTTP status of its own; some servers put one in
// `code`, the rest name the kind in `type` or `code`.
ErrorCode openai_error_code(const Json& error) {
    if (is_context_overflow(0, error.dump(-1, ' ', false, Json::error_handler_t::replace)))
        return ErrorCode::context_full;
    if (const Json* code = field(error, "code"); code && code->is_number_integer())
        return code_for_status(code->get<std::int64_t>());
    std::string kind = text_at(error, "type") + " " + text_at(error, "code");
    auto has = [&](std::string_view word) { return kind.find(word) != std::string::npos; };
    if (has("auth") || has("api_key") || has("permission")) return ErrorCode::auth;
    if (has("rate_limit") || has("quota")) return ErrorCode::rate_limit;
    if (has("invalid_request") || has("invalid_prompt")) return ErrorCode::bad_response;
    return ErrorCode::server;
}

Error openai_http_error(int status, std::string_view body) {
    auto j = parse_json(body);
    Error e = status_error(status, "the server", j ? envelope_message(*j) : "", body);
    // OpenAI's refusal of a Responses-only model on Chat Completions ("This model is only
    // supported in v1/responses and not in v1/chat/completions."): say what fixes it.
    if (e.message.find("v1/responses") != std::string::npos)
        e.message += " — set the openai provider's wire option to responses (Settings ▸ "
                     "Providers, or /option wire responses in rio-cli)";
    return e;
}

} // namespace rio
