#include "providers/http_provider.hpp"

#include "host/http/sse.hpp"
#include "providers/anthropic_codec.hpp"
#include "providers/openai_codec.hpp"
#include "providers/responses_codec.hpp"

#include <asio/post.hpp>
#include <asio/steady_timer.hpp>
#include <memory>
#include <variant>

namespace rio {
namespace {

constexpr std::size_t max_error_body = 64 * 1024;
// Far beyond any reply a model writes (max_tokens is 8k–128k tokens); a server that keeps
// streaming past it is broken, and holding its reply would take the machine's memory.
constexpr std::size_t max_reply_bytes = 64u * 1024 * 1024;
constexpr std::chrono::seconds longest_retry_wait{60};

bool retryable(int status) {
    return status == 429 || status >= 500;
}

// One provider call, across its attempts. Lives as long as a callback may still reach it.
struct HttpCall : std::enable_shared_from_this<HttpCall> {
    HttpCall(asio::io_context& io, HttpClient& http, HttpProviderSettings settings,
             ProviderRequest request, ProviderReportFn report)
        : io(io), http(http), timer(io), settings(std::move(settings)),
          request(http_provider_request(this->settings, request)), report(std::move(report)) {}

    void attempt() {
        ++attempts;
        status = 0;
        received = 0;
        error_body.clear();
        retry_after.reset();
        sse = SseParser();
        switch (settings.format) {
        case WireFormat::anthropic:
            stream.emplace<AnthropicStream>();
            break;
        case WireFormat::openai:
            stream.emplace<OpenAiStream>();
            break;
        case WireFormat::responses:
            stream.emplace<ResponsesStream>();
            break;
        }
        auto self = shared_from_this();
        HttpCallbacks callbacks;
        callbacks.on_head = [self](const HttpHead& head) { self->on_head(head); };
        callbacks.on_body = [self](std::string_view bytes) { self->on_body(bytes); };
        callbacks.on_done = [self](std::optional<Error> error) { self->on_done(error); };
        id = http.start(request, std::move(callbacks));
    }

    void on_head(const HttpHead& head) {
        status = head.status;
        if (auto after = head.header("retry-after")) {
            char* end = nullptr;
            double seconds = std::strtod(after->c_str(), &end);
            if (end != after->c_str() && seconds >= 0)
                retry_after = std::chrono::milliseconds(static_cast<long>(seconds * 1000));
        }
    }

    void on_body(std::string_view bytes) {
        if (finished) return;
        received += bytes.size();
        if (received > max_reply_bytes) {
            finish(ProviderReport::error(ErrorCode::bad_response,
                                         "the " + std::string(to_wire(settings.format)) +
                                             " reply went past " +
                                             std::to_string(max_reply_bytes / (1024 * 1024)) +
                                             " MB without ending; it was cut off"));
            return;
        }
        if (status != 200) {
            error_body.append(
                bytes.substr(0, max_error_body - std::min(max_error_body, error_body.size())));
            return;
        }
        for (SseEvent& event : sse.feed(bytes)) {
            deliver(std::visit([&](auto& s) { return s.on_event(event); }, stream));
            if (finished) return;
        }
        if (sse.overflowed())
            finish(ProviderReport::error(ErrorCode::bad_response,
                                         "the " + std::string(to_wire(settings.format)) +
                                             " stream sent a line or event over the size limit"));
    }

    void on_done(const std::optional<Error>& error) {
        if (finished) return;
        bool produced = std::visit([](auto& s) { return s.produced_output(); }, stream);
        if (error) {
            finish(ProviderReport::error(error->code, error->message));
            return;
        }
        if (status != 200) {
            Error e = settings.format == WireFormat::anthropic
                          ? anthropic_http_error(status, error_body)
                          : openai_http_error(status, error_body);
            if (retryable(status) && !produced && attempts < max_attempts && retry_later()) return;
            finish(ProviderReport::error(e.code, e.message));
            return;
        }
        deliver(std::visit([](auto& s) { return s.on_end_of_stream(); }, stream));
    }

    // Backs off 1 s, then 2 s, unless the server said how long to wait.
    bool retry_later() {
        auto wait = retry_after.value_or(std::chrono::milliseconds(1000 << (attempts - 1)));
        if (wait > longest_retry_wait) return false;
        timer.expires_after(wait);
        timer.async_wait([self = shared_from_this()](std::error_code ec) {
            if (!ec && !self->finished) self->attempt();
        });
        return true;
    }

    void deliver(const std::vector<ProviderReport>& reports) {
        for (const ProviderReport& r : reports) {
            if (finished) return;
            bool terminal =
                r.kind == ProviderReport::Kind::done || r.kind == ProviderReport::Kind::error;
            if (terminal) finished = true;
            report(r);
            if (terminal) http.cancel(id); // the reply is complete; the connection can go
        }
    }

    void finish(ProviderReport terminal) {
        finished = true;
        http.cancel(id);
        report(terminal);
    }

    void cancel() {
        finished = true;
        http.cancel(id);
        timer.cancel();
    }

    asio::io_context& io;
    HttpClient& http;
    asio::steady_timer timer;
    HttpProviderSettings settings;
    HttpRequest request;
    ProviderReportFn report;
    HttpClient::Id id = 0;
    int attempts = 0;
    int status = 0;
    std::size_t received = 0; // body bytes of this attempt
    std::string error_body;
    std::optional<std::chrono::milliseconds> retry_after;
    SseParser sse;
    std::variant<AnthropicStream, OpenAiStream, ResponsesStream> stream;
    bool finished = false;
};

std::string joined(std::string base, std::string_view path) {
    while (!base.empty() && base.back() == '/')
        base.pop_back();
    return base + std::string(path);
}

} // namespace

HttpRequest http_provider_request(const HttpProviderSettings& settings,
                                  const ProviderRequest& request) {
    HttpRequest http;
    http.connect_timeout = settings.connect_timeout;
    http.idle_timeout = settings.idle_timeout;
    http.ca_file = settings.ca_file;
    http.headers = {{"content-type", "application/json"}, {"accept", "text/event-stream"}};
    if (settings.format == WireFormat::anthropic) {
        http.url = joined(settings.base_url, "/v1/messages");
        http.headers.emplace_back("anthropic-version", "2023-06-01");
        if (settings.key) http.headers.emplace_back("x-api-key", *settings.key);
        AnthropicSettings codec{settings.model, settings.max_tokens, settings.effort};
        http.body = anthropic_request(request, codec)
                        .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        return http;
    }
    if (settings.key) http.headers.emplace_back("authorization", "Bearer " + *settings.key);
    bool openai_itself = settings.base_url.find("://api.openai.com") != std::string::npos;
    if (settings.format == WireFormat::responses) {
        http.url = joined(settings.base_url, "/responses");
        ResponsesSettings codec{settings.model, settings.max_tokens, settings.effort,
                                openai_itself};
        http.body = responses_request(request, codec)
                        .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    } else {
        http.url = joined(settings.base_url, "/chat/completions");
        OpenAiSettings codec{settings.model, settings.max_tokens, settings.effort, openai_itself,
                             openai_itself};
        http.body = openai_request(request, codec)
                        .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
    return http;
}

CancelFn start_http_call(asio::io_context& io, HttpClient& http, const HttpSettingsFn& settings,
                         ProviderRequest request, ProviderReportFn report) {
    auto resolved = settings();
    if (!resolved) {
        // Reported from its own handler: a provider never reports from inside start().
        auto cancelled = std::make_shared<bool>(false);
        asio::post(io, [report, cancelled, error = resolved.error()] {
            if (!*cancelled) report(ProviderReport::error(error.code, error.message));
        });
        return [cancelled] { *cancelled = true; };
    }
    auto call = std::make_shared<HttpCall>(io, http, std::move(*resolved), std::move(request),
                                           std::move(report));
    call->attempt();
    return [call] { call->cancel(); };
}

} // namespace rio
