#include "text/utf8.hpp"

#include <cstdint>
#include <cstring>

namespace rio {
namespace {

struct Utf8Char {
    std::size_t length; // of the character, or of the maximal ill-formed prefix
    bool valid;
};

// The character at the start of non-empty `s` (RFC 3629 table 3-7: no overlongs, surrogates
// or code points above U+10FFFF), or its maximal ill-formed prefix, which Unicode
// recommends replacing with a single U+FFFD.
Utf8Char next_char(std::string_view s) {
    auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
    unsigned char lead = byte(0);
    if (lead < 0x80) return {1, true};
    std::size_t needed;                 // continuation bytes
    unsigned char lo = 0x80, hi = 0xBF; // allowed range of the first continuation byte
    if (lead >= 0xC2 && lead <= 0xDF) {
        needed = 1;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        needed = 2;
        if (lead == 0xE0) lo = 0xA0;
        if (lead == 0xED) hi = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        needed = 3;
        if (lead == 0xF0) lo = 0x90;
        if (lead == 0xF4) hi = 0x8F;
    } else {
        return {1, false};
    }
    for (std::size_t i = 1; i <= needed; ++i) {
        if (i >= s.size() || byte(i) < lo || byte(i) > hi) return {i, false};
        lo = 0x80;
        hi = 0xBF;
    }
    return {needed + 1, true};
}

} // namespace

std::optional<std::size_t> find_invalid_utf8(std::string_view text) {
    std::size_t i = 0;
    while (i < text.size()) {
        // ASCII dominates source code; skip it eight bytes at a time.
        while (i + 8 <= text.size()) {
            std::uint64_t word;
            std::memcpy(&word, text.data() + i, 8);
            if (word & 0x8080808080808080ull) break;
            i += 8;
        }
        if (i >= text.size()) break;
        Utf8Char c = next_char(text.substr(i));
        if (!c.valid) return i;
        i += c.length;
    }
    return std::nullopt;
}

std::string to_valid_utf8(std::string_view bytes) {
    std::string out;
    out.reserve(bytes.size());
    while (auto bad = find_invalid_utf8(bytes)) {
        out.append(bytes.substr(0, *bad)).append("\xEF\xBF\xBD");
        bytes.remove_prefix(*bad + next_char(bytes.substr(*bad)).length);
    }
    out.append(bytes);
    return out;
}

DecodedChar decode_utf8(std::string_view text, std::size_t at) {
    auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    unsigned char lead = byte(at);
    if (lead < 0x80) return {lead, 1, true};
    Utf8Char c = next_char(text.substr(at));
    if (!c.valid) return {0xFFFD, 1, false};
    char32_t cp = lead & (0x7F >> c.length);
    for (std::size_t i = 1; i < c.length; ++i)
        cp = (cp << 6) | (byte(at + i) & 0x3F);
    return {cp, c.length, true};
}

char32_t next_code_point(std::string_view text, std::size_t& at) {
    DecodedChar d = decode_utf8(text, at);
    at += d.length;
    return d.cp;
}

void append_utf8(std::string& out, char32_t cp) {
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
}

bool is_char_boundary(std::string_view text, std::size_t offset) {
    if (offset == 0 || offset == text.size()) return true;
    if (offset > text.size()) return false;
    return (static_cast<unsigned char>(text[offset]) & 0xC0) != 0x80;
}

} // namespace rio
