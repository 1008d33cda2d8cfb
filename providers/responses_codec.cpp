#include "providers/responses_codec.hpp"

#include "providers/lenient_json.hpp"
#include "providers/openai_codec.hpp"

#include <algorithm>

namespace rio {
namespace {

using Json = nlohmann::json;

std::string compact(const Json& j) {
    return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

Json function_tool(const ToolSpec& spec) {
    return {{"type", "function"},
            {"name", spec.name},
            {"description", spec.description},
            {"parameters", spec.input_schema.is_object()
                               ? spec.input_schema
                               : Json{{"type", "object"}, {"properties", Json::object()}}},
            // rio's schemas have optional fields, which strict mode refuses.
            {"strict", false}};
}

Json message_item(const char* role, const char* part, std::string text) {
    return {{"type", "message"},
            {"role", role},
            {"content", Json::array({{{"type", part}, {"text", std::move(text)}}})}};
}

// The results answer their calls by call_id; the format has no error flag, so an error says
// so in its output.
void add_user(const Message& m, const ProviderRequest& request, Json& input) {
    for (const ToolOutcome& r : m.results)
        input.push_back({{"type", "function_call_output"},
                         {"call_id", r.call_id},
                         {"output", r.is_error ? "Error: " + r.content : r.content}});
    std::string text = text_with_mode_note(m, request);
    if (!text.empty()) input.push_back(message_item("user", "input_text", std::move(text)));
}

// In the order the model wrote them: its reasoning, its text, its calls. Reasoning items go
// back as they came, encrypted, so a reasoning model keeps its thread across tool calls
// without the server storing anything.
void add_assistant(const Message& m, Json& input) {
    for (const Json& kept : m.kept)
        if (text_at(kept, "provider") == responses_kept_tag && field(kept, "block"))
            input.push_back(kept["block"]);
    if (!m.text.empty()) input.push_back(message_item("assistant", "output_text", m.text));
    for (const ToolCall& call : m.calls)
        input.push_back(
            {{"type", "function_call"},
             {"call_id", call.id},
             {"name", call.name},
             {"arguments", compact(call.input.is_object() ? call.input : Json::object())}});
}

// In Anthropic's terms, which agent.usage speaks: input_tokens are the ones not read from
// the cache (the Responses API's input_tokens include those).
Json usage_counts(const Json& usage) {
    Json counts = Json::object();
    std::int64_t cached = 0;
    if (const Json* details = field(usage, "input_tokens_details"))
        if (const Json* n = field(*details, "cached_tokens"); n && n->is_number_integer()) {
            cached = n->get<std::int64_t>();
            counts["cache_read_input_tokens"] = *n;
        }
    if (const Json* n = field(usage, "input_tokens"); n && n->is_number_integer())
        counts["input_tokens"] = std::max<std::int64_t>(0, n->get<std::int64_t>() - cached);
    if (const Json* n = field(usage, "output_tokens"); n && n->is_number_integer())
        counts["output_tokens"] = *n;
    return counts;
}

std::int64_t output_index(const Json& event) {
    const Json* at = field(event, "output_index");
    return at && at->is_number_integer() ? at->get<std::int64_t>() : -1;
}

// The text parts of an output item: a message's output_text and refusal parts, a reasoning
// item's summary.
std::string parts_text(const Json* parts) {
    std::string text;
    if (!parts || !parts->is_array()) return text;
    for (const Json& part : *parts) {
        std::string piece = text_at(part, "text");
        if (piece.empty()) piece = text_at(part, "refusal");
        if (piece.empty()) continue;
        if (!text.empty() && text_at(part, "type") == "summary_text") text += "\n\n";
        text += piece;
    }
    return text;
}

std::string incomplete_reason(const Json& response) {
    const Json* details = field(response, "incomplete_details");
    std::string reason = details ? text_at(*details, "reason") : std::string();
    if (reason == "max_output_tokens" || reason.empty()) return "max_tokens";
    if (reason == "content_filter") return "refusal";
    return reason;
}

bool starts_with(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
}

} // namespace

bool responses_reasoning(std::string_view model, std::string_view effort) {
    if (!effort.empty()) return true;
    if (auto slash = model.rfind('/'); slash != std::string_view::npos)
        model.remove_prefix(slash + 1);
    if (model.find("codex") != std::string_view::npos) return true;
    if (model.find("-chat") != std::string_view::npos) return false; // gpt-5-chat-latest
    return starts_with(model, "gpt-5") || starts_with(model, "o1") || starts_with(model, "o3") ||
           starts_with(model, "o4");
}

Json responses_request(const ProviderRequest& request, const ResponsesSettings& settings) {
    // Instructions and tools lead and never change within a session, so every request shares
    // one cached prefix; the conversation follows, growing at its end.
    Json body{{"model", settings.model},
              {"max_output_tokens", settings.max_tokens},
              {"stream", true},
              {"store", false}};
    if (!request.system.empty()) body["instructions"] = request.system;
    if (!request.tools.empty()) {
        Json tools = Json::array();
        for (const ToolSpec& spec : request.tools)
            tools.push_back(function_tool(spec));
        body["tools"] = std::move(tools);
        body["tool_choice"] = "auto";
        body["parallel_tool_calls"] = true;
    }
    if (responses_reasoning(settings.model, settings.effort)) {
        Json reasoning{{"summary", "auto"}};
        if (!settings.effort.empty()) reasoning["effort"] = settings.effort;
        body["reasoning"] = std::move(reasoning);
        // Without storage the reasoning can only come back encrypted, inside the request.
        body["include"] = Json::array({"reasoning.encrypted_content"});
    }
    if (settings.openai_itself && !request.cache_key.empty())
        body["prompt_cache_key"] = request.cache_key;
    Json input = Json::array();
    for (const auto& entry : request.conversation) {
        if (!entry) continue;
        if (entry->role == Role::user)
            add_user(*entry, request, input);
        else
            add_assistant(*entry, input);
    }
    body["input"] = std::move(input);
    return body;
}

std::vector<ProviderReport> ResponsesStream::on_event(const SseEvent& event) {
    std::vector<ProviderReport> out;
    if (reply_.finished) return out;
    decode_event(reply_, "event from the server", event.data, out, [&](Json& j) {
        if (!j.contains("type")) j["type"] = event.type; // the name stands in for a missing type
        decode(j, out);
    });
    return out;
}

void ResponsesStream::decode(const Json& j, std::vector<ProviderReport>& out) {
    const std::string type = text_at(j, "type");
    if (type == "response.output_text.delta" || type == "response.refusal.delta") {
        streamed_.insert(output_index(j));
        if (std::string text = text_at(j, "delta"); !text.empty())
            reply_.emit(out, ProviderReport::delta(std::move(text)));
    } else if (type == "response.reasoning_summary_text.delta" ||
               type == "response.reasoning_text.delta") {
        streamed_.insert(output_index(j));
        if (std::string text = text_at(j, "delta"); !text.empty())
            reply_.emit(out, ProviderReport::thinking(std::move(text)));
    } else if (type == "response.reasoning_summary_part.added") {
        const Json* part = field(j, "summary_index");
        if (part && part->is_number_integer() && part->get<std::int64_t>() > 0)
            reply_.emit(out, ProviderReport::thinking("\n\n"));
    } else if (type == "response.output_item.added") {
        start_item(j);
    } else if (type == "response.function_call_arguments.delta" ||
               type == "response.function_call_arguments.done") {
        add_arguments(j, out);
    } else if (type == "response.output_item.done") {
        end_item(j, out);
    } else if (type == "response.completed") {
        finish(j.value("response", Json::object()), "", out);
    } else if (type == "response.incomplete") {
        const Json response = j.value("response", Json::object());
        finish(response, incomplete_reason(response), out);
    } else if (type == "response.failed") {
        const Json* response = field(j, "response");
        const Json* error = response ? field(*response, "error") : nullptr;
        fail(error && error->is_object() ? error : nullptr, "the response failed", out);
    } else if (type == "error") {
        fail(&j, "the server reported an error", out);
    }
    // response.created, .in_progress, content_part.*, *.done texts, annotations, and the
    // types added after this was written: nothing to do.
}

void ResponsesStream::start_item(const Json& j) {
    const Json* item = field(j, "item");
    if (!item || text_at(*item, "type") != "function_call") return;
    PendingCall& call = calls_[output_index(j)];
    call.call_id = text_at(*item, "call_id");
    call.name = text_at(*item, "name");
    call.arguments = text_at(*item, "arguments");
}

void ResponsesStream::add_arguments(const Json& j, std::vector<ProviderReport>& out) {
    PendingCall& call = calls_[output_index(j)];
    if (text_at(j, "type") == "response.function_call_arguments.done") {
        if (const Json* whole = field(j, "arguments"); whole && whole->is_string())
            call.arguments = whole->get<std::string>();
    } else {
        call.arguments += text_at(j, "delta");
    }
    if (call.arguments.size() > max_tool_input_bytes)
        reply_.fail(out, ErrorCode::bad_response, tool_input_too_large("the server", call.name));
}

void ResponsesStream::end_item(const Json& j, std::vector<ProviderReport>& out) {
    const Json* item = field(j, "item");
    if (!item) return;
    const std::int64_t at = output_index(j);
    const std::string type = text_at(*item, "type");
    if (type == "function_call") {
        end_call(at, *item, out);
    } else if (type == "reasoning") {
        // A server that sent no summary deltas may still carry the summary here.
        if (!streamed_.count(at))
            if (std::string text = parts_text(field(*item, "summary")); !text.empty())
                reply_.emit(out, ProviderReport::thinking(std::move(text)));
        // Without its encrypted content an item cannot be sent back to a server that stores
        // nothing ("Item not found"); the next request goes without it, still valid.
        std::string encrypted = text_at(*item, "encrypted_content");
        if (encrypted.empty()) return;
        const Json* summary = field(*item, "summary");
        Json block{{"type", "reasoning"},
                   {"summary", summary && summary->is_array() ? *summary : Json::array()},
                   {"encrypted_content", std::move(encrypted)}};
        out.push_back(ProviderReport::keep(
            {{"provider", std::string(responses_kept_tag)}, {"block", std::move(block)}}));
    } else if (type == "message" && !streamed_.count(at)) {
        if (std::string text = parts_text(field(*item, "content")); !text.empty())
            reply_.emit(out, ProviderReport::delta(std::move(text)));
    }
    streamed_.insert(at); // ended: a completed response's copy of it is not shown again
}

void ResponsesStream::end_call(std::int64_t at, const Json& item,
                               std::vector<ProviderReport>& out) {
    PendingCall call = calls_.count(at) ? std::move(calls_[at]) : PendingCall{};
    calls_.erase(at);
    if (std::string id = text_at(item, "call_id"); !id.empty()) call.call_id = std::move(id);
    if (std::string name = text_at(item, "name"); !name.empty()) call.name = std::move(name);
    if (const Json* whole = field(item, "arguments"); whole && whole->is_string())
        call.arguments = whole->get<std::string>();
    if (call.name.empty()) {
        reply_.fail(out, ErrorCode::bad_response, "the server sent a tool call without a name");
        return;
    }
    auto input = tool_input(call.name, call.arguments);
    if (!input) {
        reply_.fail(out, input.error().code, input.error().message);
        return;
    }
    std::string id = call.call_id.empty() ? "call_" + std::to_string(at) : call.call_id;
    had_calls_ = true;
    reply_.emit(out,
                ProviderReport::tool_call(ToolCall{std::move(id), call.name, std::move(*input)}));
}

void ResponsesStream::finish(const Json& response, std::string stop_reason,
                             std::vector<ProviderReport>& out) {
    // A server that skipped output_item.done still lists every item in the final response.
    if (const Json* output = field(response, "output"); output && output->is_array())
        for (std::size_t i = 0; i < output->size() && !reply_.finished; ++i) {
            const auto at = static_cast<std::int64_t>(i);
            if (streamed_.count(at) || text_at((*output)[i], "status") == "incomplete") continue;
            end_item(Json{{"output_index", at}, {"item", (*output)[i]}}, out);
        }
    if (reply_.finished) return;
    // A call still open when the reply stopped short (max_output_tokens) is not half-run.
    calls_.clear();
    if (const Json* usage = field(response, "usage"); usage && usage->is_object())
        if (Json counts = usage_counts(*usage); !counts.empty())
            out.push_back(ProviderReport::usage(std::move(counts)));
    if (stop_reason.empty()) stop_reason = had_calls_ ? "tool_use" : "end_turn";
    out.push_back(ProviderReport::done(std::move(stop_reason)));
    reply_.finished = true;
}

void ResponsesStream::fail(const Json* error, std::string_view what,
                           std::vector<ProviderReport>& out) {
    std::string message = error ? text_at(*error, "message") : std::string();
    if (message.empty() && error) message = text_at(*error, "code");
    const ErrorCode code = error ? openai_error_code(*error) : ErrorCode::server;
    std::string text =
        code == ErrorCode::context_full
            ? "the server said the conversation does not fit the model's context window"
            : std::string(what);
    reply_.fail(out, code, message.empty() ? text : text + ": " + wire_excerpt(message, 500));
}

std::vector<ProviderReport> ResponsesStream::on_end_of_stream() {
    std::vector<ProviderReport> out;
    if (reply_.finished) return out;
    std::string where;
    if (!calls_.empty() && !calls_.begin()->second.name.empty())
        where = " (in the arguments of tool '" + calls_.begin()->second.name + "')";
    reply_.fail(out, ErrorCode::bad_response,
                "the stream ended before the reply was complete" + where);
    return out;
}

} // namespace rio
