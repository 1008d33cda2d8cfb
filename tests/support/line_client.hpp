// A protocol client over a file descriptor pair, for tests: sends lines, reads responses and
// events with a deadline so a hung core fails the test instead of hanging it.
#pragma once

#include <chrono>
#include <deque>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rio::test {

using Json = nlohmann::json;
using namespace std::chrono_literals;

inline constexpr std::chrono::milliseconds default_deadline = 10s;

class LineClient {
public:
    LineClient() = default;
    LineClient(int in_fd, int out_fd) : in_(in_fd), out_(out_fd) {}
    LineClient(LineClient&& other) noexcept;
    LineClient& operator=(LineClient&& other) noexcept;
    ~LineClient();

    // Connects to a rio-core listening on a unix socket.
    static LineClient connect_unix(const std::string& path);

    void send_raw(std::string_view bytes);
    // Sends {"id", "op", "params"} and returns the response with that id; events read on
    // the way are kept for next_event().
    Json request(std::string_view op, const Json& params = Json::object());
    Json response_to(const Json& id, std::chrono::milliseconds deadline = default_deadline);
    Json next_event(std::string_view name, std::chrono::milliseconds deadline = default_deadline);
    // Drops the `name` events read so far: a response just read tells more recent news.
    void forget_events(std::string_view name);
    // Every event up to and including the next `name` event, in arrival order.
    std::vector<Json> events_until(std::string_view name,
                                   std::chrono::milliseconds deadline = default_deadline);
    // Every event buffered or arriving within `wait`, in order; responses are dropped.
    std::vector<Json> drain(std::chrono::milliseconds wait);
    // Any next message, response or event.
    Json next_message(std::chrono::milliseconds deadline = default_deadline);
    // A raw line, for output that is not protocol (--help); nullopt at EOF or timeout.
    std::optional<std::string> next_line(std::chrono::milliseconds deadline = default_deadline) {
        return read_line(deadline);
    }
    // True when nothing arrives within the wait (for "must not receive" checks).
    bool quiet_for(std::chrono::milliseconds wait);

    // Keeps every line read from now on as the core wrote it, byte for byte (the wire-replay
    // test compares them); transcript() hands them over and starts afresh.
    void keep_transcript() { transcript_.emplace(); }
    std::vector<std::string> transcript() { return std::exchange(*transcript_, {}); }

    void close_writing();
    void close();
    bool at_eof() const { return eof_; }

private:
    std::optional<std::string> read_line(std::chrono::milliseconds deadline);

    int in_ = -1;  // we read the core's output here
    int out_ = -1; // we write requests here
    std::string buffer_;
    std::size_t scanned_ = 0; // bytes of buffer_ known to hold no line break
    std::deque<Json> events_;
    long next_id_ = 1;
    bool eof_ = false;
    std::optional<std::vector<std::string>> transcript_;
};

} // namespace rio::test
