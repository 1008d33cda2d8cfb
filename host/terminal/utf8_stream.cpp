#include "host/terminal/utf8_stream.hpp"

#include "text/utf8.hpp"

namespace rio {
namespace {

// How many bytes at the end of `text` start a character that needs more: 0 to 3.
std::size_t incomplete_tail(std::string_view text) {
    for (std::size_t back = 1; back <= 3 && back <= text.size(); ++back) {
        const auto byte = static_cast<unsigned char>(text[text.size() - back]);
        if ((byte & 0xC0) == 0x80) continue; // a continuation byte: look further back
        const std::size_t length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1;
        return length > back ? back : 0;
    }
    return 0;
}

} // namespace

std::string Utf8Stream::take(std::string_view bytes) {
    std::string all = std::move(held_);
    all.append(bytes);
    const std::size_t tail = incomplete_tail(all);
    held_ = all.substr(all.size() - tail);
    all.resize(all.size() - tail);
    return to_valid_utf8(all);
}

} // namespace rio
