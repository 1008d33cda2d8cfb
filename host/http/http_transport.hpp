// The seam between HttpClient (io's side: callbacks, backpressure bookkeeping) and the
// transport that moves the bytes (libcurl on its own thread). The transport lives in a
// module loaded on the first request (host/http_module), so that a core that never talks to
// a network never loads libcurl, TLS and the thirty libraries they bring (decision 0019).
// Both sides are built from this one header in the same build; http_transport_version
// guards against a module left over from another.
#pragma once

#include "host/http/http_message.hpp"
#include "protocol/error.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace rio {

inline constexpr int http_transport_version = 3; // 3: HttpRequest::ca_file

// Body bytes handed to io but not yet handled there. Past the high mark the transport pauses
// the transfer (curl keeps the bytes and hands them over again on resume); io resumes it
// below the low mark. A server streaming faster than the loop can take it is held to what
// the loop handles, and io's queue stays short enough that a stop is answered at once.
struct HttpFlow {
    static constexpr std::size_t queued_high = 256 * 1024;
    static constexpr std::size_t queued_low = 64 * 1024;

    std::atomic<std::size_t> queued{0};
    std::atomic<bool> held{false};   // every reader of what it streams is behind
    std::atomic<bool> paused{false}; // the transport paused, or is about to

    bool worker_should_pause() const { return queued > queued_high || held; }
    bool io_may_resume() const { return queued < queued_low && !held; }
};

// What a transfer reports, called on the transport's thread; the implementation takes the
// events over to io. body() is called with the bytes already counted in the flow's `queued`.
class HttpEvents {
public:
    virtual ~HttpEvents() = default;
    virtual void head(HttpHead head) = 0;
    virtual void body(std::string bytes) = 0;
    virtual void done(std::optional<Error> error) = 0; // exactly once, last
};

class HttpTransport {
public:
    virtual ~HttpTransport() = default; // ends every transfer and closes every connection

    // On io's thread. Checks the request and hands it to the transfer thread; an error
    // means it was not started (bad_request for one rio cannot send) and no event follows.
    virtual Status start(std::uint64_t id, HttpRequest request, std::unique_ptr<HttpEvents> events,
                         std::shared_ptr<HttpFlow> flow) = 0;
    // On io's thread; either does nothing for a transfer that is over.
    virtual void cancel(std::uint64_t id) = 0;
    virtual void resume(std::uint64_t id) = 0; // a transfer paused by its flow goes on
    // On io's thread. The transfer thread takes up every start, cancel and resume made
    // before, looks at every idle timer against the clock once more, and then calls `then`,
    // on its own thread: after every event that pass, or any before it, reported.
    virtual void sync(std::function<void()> then) = 0;
};

// The module's one entry point: a transport whose idle timers read `idle_clock`, or null
// when it cannot set one up (or was built for another http_transport_version).
using HttpTransportFactory = HttpTransport* (*)(int version, const HttpIdleClock& idle_clock);
inline constexpr const char* http_transport_factory = "rio_http_transport_create";

} // namespace rio
