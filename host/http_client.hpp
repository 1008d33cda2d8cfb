// rio's HTTP transport for the providers' streaming APIs, on libcurl's multi interface: TLS
// verified against the system CAs, HTTP/2 over TLS where curl has it, proxies taken from the
// environment, and a stop that takes effect at once and closes the connection.
#pragma once

#include "protocol/error.hpp"

#include <asio/io_context.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rio {

struct HttpRequest {
    std::string method = "POST"; // "GET" sends no body; any other method sends `body`
    // http:// or https://. Proxies come from the environment as curl reads it at transfer
    // time: http_proxy (lower case only), https_proxy, all_proxy and no_proxy.
    std::string url;
    std::vector<std::pair<std::string, std::string>> headers; // sent as given, in order
    std::string body;
    // Name lookup, TCP connect, proxy CONNECT and the TLS handshake together.
    std::chrono::milliseconds connect_timeout{10'000};
    // Once connected: nothing received (and nothing sent) for this long fails the request.
    // rio's own timer: curl's low-speed check looks once a second and so fires late.
    std::chrono::milliseconds idle_timeout{60'000};
};

struct HttpHead {
    int status = 0;
    std::vector<std::pair<std::string, std::string>> headers; // names lower case, in order

    // The first header of that name, whatever its case.
    std::optional<std::string> header(std::string_view name) const;
};

// Each runs on io's thread, never from inside start() or cancel(). Any may be left empty.
struct HttpCallbacks {
    // Once, when the final status line and headers are in, before any body. Whatever the
    // status: the caller decides what a 4xx or 5xx means.
    std::function<void(const HttpHead&)> on_head;
    // Body bytes as they arrive, in order, as soon as they arrive: nothing is buffered.
    std::function<void(std::string_view)> on_body;
    // Exactly once, last: nullopt when the response is complete. ErrorCode::network for name
    // lookup, connect, TLS, a connection lost and both timeouts; bad_request for a URL or
    // request rio cannot send.
    std::function<void(std::optional<Error>)> on_done;
};

class HttpWorker; // defined in http_client.cpp
struct HttpLive;

class HttpClient {
public:
    using Id = std::uint64_t;

    // Starts the one thread that runs every transfer of this client.
    explicit HttpClient(asio::io_context& io);
    // Cancels whatever is in flight, closes every connection, and joins the thread. On io's
    // thread (a callback may do it), or once io no longer runs; before io is destroyed.
    ~HttpClient();
    HttpClient(const HttpClient&) = delete;
    HttpClient& operator=(const HttpClient&) = delete;

    // Call on io's thread. Until on_done has run, the request keeps io.run() from returning,
    // like any asio operation in progress.
    Id start(HttpRequest request, HttpCallbacks callbacks);
    // Call on io's thread. Once it returns no callback of that request runs, on_done
    // included; the transfer stops and its connection is closed within milliseconds. Does
    // nothing for a request that has finished or was never started.
    void cancel(Id id);

    // Backpressure from whoever reads what the transfers bring (DESIGN: follow the fastest
    // reader): while `readers_behind()` says every reader is behind, a transfer pauses at
    // its next chunk; readers_caught_up() lets the held ones go on. On io's thread.
    void hold_while(std::function<bool()> readers_behind);
    void readers_caught_up();

private:
    asio::io_context& io_;
    Id next_id_ = 1;
    // Requests whose on_done has not run and that were not cancelled: touched on io's
    // thread only, and shared with the handlers posted to io, which may outlive the client.
    std::shared_ptr<HttpLive> live_;
    std::unique_ptr<HttpWorker> worker_;
};

} // namespace rio
