// The network providers (anthropic, openai): one streamed HTTP request per provider call,
// decoded from SSE by the wire codec, with rio's retry rule — 429 and 5xx are retried with
// backoff (honouring retry-after) only while nothing has been streamed yet.
#pragma once

#include "host/http/http_client.hpp"
#include "protocol/closed_sets.hpp"
#include "providers/provider.hpp"

#include <chrono>
#include <optional>

namespace rio {

// What one call needs, read fresh for every call so option changes apply at the next step.
struct HttpProviderSettings {
    WireFormat format = WireFormat::openai;
    std::string base_url;
    std::string model;
    std::string effort;
    std::string ca_file; // "" for SSL_CERT_FILE or the system's (HttpRequest::ca_file)
    int max_tokens = 8192;
    std::optional<std::string> key;
    std::chrono::milliseconds connect_timeout{15'000};
    std::chrono::milliseconds idle_timeout{90'000};
};

using HttpSettingsFn = std::function<Result<HttpProviderSettings>()>;

inline constexpr int max_attempts = 3;

// Starts one call. Reports arrive on io's thread; the cancel function stops the transfer
// (and any retry wait) at once, after which nothing more is reported.
CancelFn start_http_call(asio::io_context& io, HttpClient& http, const HttpSettingsFn& settings,
                         ProviderRequest request, ProviderReportFn report);

// The request a call sends: URL, headers (the key among them) and body.
HttpRequest http_provider_request(const HttpProviderSettings& settings,
                                  const ProviderRequest& request);

} // namespace rio
