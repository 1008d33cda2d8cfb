// Shared by the two stream decoder harnesses: bytes through the SSE parser into a wire
// decoder; exactly one terminal report comes out, nothing after it, and nothing throws.
#pragma once

#include "host/http/sse.hpp"

#include <cstdint>
#include <cstdlib>

template <typename Stream> int decode_stream(const std::uint8_t* data, std::size_t size) {
    rio::SseParser sse(1 << 20);
    Stream stream;
    int terminal = 0;
    auto take = [&](const std::vector<rio::ProviderReport>& reports) {
        for (const rio::ProviderReport& r : reports) {
            if (terminal) std::abort(); // a report after the terminal one
            terminal += r.kind == rio::ProviderReport::Kind::done ||
                        r.kind == rio::ProviderReport::Kind::error;
        }
    };
    for (rio::SseEvent& event :
         sse.feed(std::string_view(reinterpret_cast<const char*>(data), size)))
        take(stream.on_event(event));
    take(stream.on_end_of_stream());
    if (terminal != 1) std::abort();
    return 0;
}
