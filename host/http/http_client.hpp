// rio's HTTP transport for the providers' streaming APIs, on libcurl's multi interface: TLS
// verified against the system CAs (or a CA file of the user's), HTTP/2 over TLS where curl has it,
// proxies taken from the environment, and a stop that takes effect at once and closes the
// connection. libcurl is loaded with the first request (host/http_module), not when the program
// starts.
#pragma once

#include "host/http/http_message.hpp"
#include "protocol/error.hpp"

#include <asio/io_context.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace rio {

// Each runs on io's thread, never from inside start() or cancel(). Any may be left empty.
struct HttpCallbacks {
    // Once, when the final status line and headers are in, before any body. Whatever the
    // status: the caller decides what a 4xx or 5xx means.
    std::function<void(const HttpHead&)> on_head;
    // Body bytes as they arrive, in order, as soon as they arrive: nothing is buffered.
    std::function<void(std::string_view)> on_body;
    // Exactly once, last: nullopt when the response is complete. ErrorCode::network for name
    // lookup, connect, TLS, a connection lost and both timeouts; bad_request for a URL or
    // request rio cannot send; not_configured for a CA file (HttpRequest::ca_file,
    // SSL_CERT_FILE) that cannot be read or holds no certificate; internal when the
    // transport module cannot be loaded.
    std::function<void(std::optional<Error>)> on_done;
};

class HttpTransport; // host/http/http_transport.hpp
struct HttpLive;

class HttpClient {
public:
    using Id = std::uint64_t;

    // Costs nothing until the first start(): that loads libcurl, initialises it (TLS
    // included) and starts the one thread that runs every transfer of this client. The idle
    // timeouts measure time with `idle_clock`: std::chrono::steady_clock unless a test passes
    // a clock it moves on by hand (and then calls sync() to have it looked at).
    explicit HttpClient(asio::io_context& io, HttpIdleClock idle_clock = {});
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

    // A round trip through the transfer thread, for tests: it takes up every start(),
    // cancel() and resume made before, checks every idle timer against the idle clock once
    // more, and then `then` runs on io's thread, after every callback that this or anything
    // before it brought about. Until then it keeps io.run() from returning; it never runs
    // once the client is destroyed. Call on io's thread.
    void sync(std::function<void()> then);

private:
    asio::io_context& io_;
    Id next_id_ = 1;
    // Requests whose on_done has not run and that were not cancelled: touched on io's
    // thread only, and shared with the handlers posted to io, which may outlive the client.
    std::shared_ptr<HttpLive> live_;
    HttpIdleClock idle_clock_;
    std::unique_ptr<HttpTransport> transport_; // from the first start() on
    std::optional<Error> unavailable_;         // why the transport could not be loaded
};

} // namespace rio
