#include "providers/provider_check.hpp"

#include "host/http/sse.hpp"
#include "protocol/json_parse.hpp"
#include "providers/anthropic_codec.hpp"
#include "providers/http_status.hpp"
#include "providers/openai_codec.hpp"
#include "providers/responses_codec.hpp"

#include <memory>

namespace rio {
namespace {

constexpr std::size_t max_kept_body = 64 * 1024;

// What came back, as far as a check needs it.
struct Reply {
    int status = 0;
    std::string content_type;
    std::string body; // its first 64 KB
};

ProviderRequest tiny_request() {
    ProviderRequest request;
    auto question = std::make_shared<Message>();
    question->text = "Reply with the word OK.";
    request.conversation.push_back(std::move(question));
    return request;
}

ProviderCheck failed(ErrorCode code, std::string message) {
    return {false, code, std::move(message)};
}

std::string api_name(const HttpProviderSettings& s) {
    switch (s.format) {
    case WireFormat::anthropic:
        return "the Anthropic API";
    case WireFormat::responses:
        return "the OpenAI Responses API";
    case WireFormat::openai:
        break;
    }
    return "an OpenAI-compatible API";
}

// A web page, a proxy's login or a server of another kind: what a wrong base URL reaches.
ProviderCheck not_the_api(const HttpProviderSettings& s, const Reply& reply) {
    std::string what = "HTTP " + std::to_string(reply.status);
    if (!reply.content_type.empty()) what += ", " + reply.content_type;
    if (!reply.body.empty()) what += ": “" + wire_excerpt(reply.body, 80) + "”";
    return failed(ErrorCode::bad_response,
                  "Wrong URL: " + s.base_url + " answered, but not as " + api_name(s) + " (" +
                      what + "). The base URL ends where the API's paths begin, such as " +
                      (s.format == WireFormat::anthropic ? "https://api.anthropic.com"
                                                         : "https://api.openai.com/v1 or "
                                                           "http://127.0.0.1:11434/v1") +
                      ".");
}

template <typename Stream> std::vector<ProviderReport> decode(std::string_view body) {
    Stream stream;
    SseParser sse;
    std::vector<ProviderReport> reports;
    for (const SseEvent& event : sse.feed(body)) {
        for (ProviderReport& r : stream.on_event(event))
            reports.push_back(std::move(r));
        if (stream.finished()) return reports;
    }
    for (ProviderReport& r : stream.on_end_of_stream())
        reports.push_back(std::move(r));
    return reports;
}

// A 200 with a stream of events: the model's reply, or the error the stream carried.
ProviderCheck read_stream(const HttpProviderSettings& s, const Reply& reply) {
    std::vector<ProviderReport> reports =
        s.format == WireFormat::anthropic   ? decode<AnthropicStream>(reply.body)
        : s.format == WireFormat::responses ? decode<ResponsesStream>(reply.body)
                                            : decode<OpenAiStream>(reply.body);
    bool replied = false;
    for (const ProviderReport& r : reports) {
        if (r.kind == ProviderReport::Kind::error && !replied)
            return failed(r.code, "The model's reply failed: " + r.text);
        replied |=
            r.kind == ProviderReport::Kind::delta || r.kind == ProviderReport::Kind::thinking ||
            r.kind == ProviderReport::Kind::tool_call || r.kind == ProviderReport::Kind::done;
    }
    if (!replied) return not_the_api(s, reply);
    return {true, std::nullopt, "It works: " + s.model + " answered at " + s.base_url + "."};
}

ProviderCheck read_refusal(const HttpProviderSettings& s, const Reply& reply) {
    const ErrorCode code = code_for_status(reply.status);
    auto body = parse_json(reply.body);
    if (code == ErrorCode::bad_response && !(body && body->is_object()))
        return not_the_api(s, reply);
    const Error e = s.format == WireFormat::anthropic
                        ? anthropic_http_error(reply.status, reply.body)
                        : openai_http_error(reply.status, reply.body);
    switch (code) {
    case ErrorCode::auth:
        return failed(code, "Bad key: " + e.message +
                                ". Paste the key again, or make a new one for this provider.");
    case ErrorCode::rate_limit:
        return failed(code, "Rate limited: " + e.message +
                                ". The key works; wait a moment, or check your plan's limits.");
    case ErrorCode::server:
        return failed(code, "Server error: " + e.message +
                                ". The fault is the provider's; try again in a while.");
    default:
        return failed(code,
                      (reply.status == 404 ? "Wrong URL or model: " : "Refused: ") + e.message);
    }
}

ProviderCheck read_failure(const HttpProviderSettings& s, const Error& error) {
    if (error.code == ErrorCode::network)
        return failed(error.code, "No connection: " + error.message +
                                      ". Check that you are online and that the base URL (" +
                                      s.base_url + ") is right.");
    return failed(error.code, "The call could not be made: " + error.message);
}

} // namespace

void check_provider(HttpClient& http, HttpProviderSettings settings,
                    std::function<void(ProviderCheck)> done) {
    settings.max_tokens = 16;
    settings.effort.clear(); // a thinking budget needs more tokens than the check allows
    settings.idle_timeout = std::min(settings.idle_timeout, std::chrono::milliseconds(30'000));
    HttpRequest request = http_provider_request(settings, tiny_request());
    auto reply = std::make_shared<Reply>();
    HttpCallbacks callbacks;
    callbacks.on_head = [reply](const HttpHead& head) {
        reply->status = head.status;
        reply->content_type = head.header("content-type").value_or("");
    };
    callbacks.on_body = [reply](std::string_view bytes) {
        if (reply->body.size() < max_kept_body)
            reply->body.append(bytes.substr(0, max_kept_body - reply->body.size()));
    };
    callbacks.on_done = [reply, settings, done](std::optional<Error> error) {
        if (error) return done(read_failure(settings, *error));
        if (reply->status != 200) return done(read_refusal(settings, *reply));
        if (reply->content_type.find("text/event-stream") == std::string::npos)
            return done(not_the_api(settings, *reply));
        done(read_stream(settings, *reply));
    };
    http.start(std::move(request), std::move(callbacks));
}

} // namespace rio
