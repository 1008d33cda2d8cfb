// An incremental Server-Sent Events parser (WHATWG HTML, "Parsing an event stream") for the
// streaming replies of model APIs and MCP servers: bytes go in as the network delivers them,
// whole events come out. It works on bytes, never decoding, so a chunk may end anywhere — inside a
// UTF-8 character or between the CR and LF of one line ending.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rio {

inline constexpr std::size_t default_max_sse_bytes = 16u * 1024 * 1024;

struct SseEvent {
    std::string type; // the `event:` field, "message" when there was none
    std::string data; // the `data:` lines joined with "\n"
};

class SseParser {
public:
    // max_bytes bounds both one line and one event's joined data, so a server that never
    // ends a line (or an event) cannot make us hold unbounded memory.
    explicit SseParser(std::size_t max_bytes = default_max_sse_bytes) : max_(max_bytes) {}

    // Returns every event the bytes completed. `id` and `retry` are ignored: we never
    // reconnect, so they mean nothing here.
    std::vector<SseEvent> feed(std::string_view bytes);

    // A line or an event grew past the limit. The parser has stopped: every later feed
    // returns nothing, and the caller should fail the reply.
    bool overflowed() const { return overflowed_; }

private:
    void take_line(std::string_view line, std::vector<SseEvent>& out);
    void dispatch(std::vector<SseEvent>& out);
    void overflow();

    std::size_t max_;
    std::string line_;       // an unterminated line carried over to the next feed
    std::string type_;       // event type buffer
    std::string data_;       // data buffer, without the spec's trailing LF
    bool has_data_ = false;  // a `data` field arrived, so even an empty data_ dispatches
    bool after_cr_ = false;  // the last line ended in CR: an LF next is part of that ending
    bool first_line_ = true; // a UTF-8 BOM may open the stream and is not part of it
    bool overflowed_ = false;
};

// Quotes bytes a server sent inside one of our error messages: valid UTF-8 (messages end up
// in JSON), on one line, clipped to about max_bytes.
std::string wire_excerpt(std::string_view bytes, std::size_t max_bytes = 200);

} // namespace rio
