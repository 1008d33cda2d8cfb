// The SSE parser: any bytes, in any chunking, never crash it, and feeding them in one piece
// or two gives the same events.
#include "host/http/sse.hpp"

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view bytes(reinterpret_cast<const char*>(data), size);
    rio::SseParser whole(1024), split(1024);
    auto a = whole.feed(bytes);
    std::size_t cut = size ? data[size - 1] % (size + 1) : 0;
    auto b = split.feed(bytes.substr(0, cut));
    for (auto& e : split.feed(bytes.substr(cut)))
        b.push_back(std::move(e));
    if (whole.overflowed() != split.overflowed()) std::abort();
    if (!whole.overflowed()) {
        if (a.size() != b.size()) std::abort();
        for (std::size_t i = 0; i < a.size(); ++i)
            if (a[i].type != b[i].type || a[i].data != b[i].data) std::abort();
    }
    (void)rio::wire_excerpt(bytes);
    return 0;
}
