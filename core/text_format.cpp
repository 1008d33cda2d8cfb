#include "core/text_format.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace rio {
namespace {

constexpr std::string_view bom = "\xEF\xBB\xBF";

bool is_continuation(unsigned char c) {
    return (c & 0xC0) == 0x80;
}

// Length of the well-formed sequence starting at text[i], or 0 (RFC 3629 table 3-7).
std::size_t sequence_length(std::string_view text, std::size_t i) {
    auto at = [&](std::size_t k) -> unsigned char {
        return i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0;
    };
    unsigned char c = at(0);
    if (c < 0x80) return 1;
    std::size_t len;
    unsigned char lo = 0x80, hi = 0xBF; // allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0) lo = 0xA0; // no overlongs
        if (c == 0xED) hi = 0x9F; // no surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F; // nothing above U+10FFFF
    } else {
        return 0;
    }
    if (i + len > text.size()) return 0;
    if (at(1) < lo || at(1) > hi) return 0;
    for (std::size_t k = 2; k < len; ++k)
        if (!is_continuation(at(k))) return 0;
    return len;
}

} // namespace

std::string_view to_string(Encoding encoding) {
    return encoding == Encoding::utf8_bom ? "utf-8-bom" : "utf-8";
}

std::string_view to_string(Eol eol) {
    switch (eol) {
    case Eol::none:
        return "none";
    case Eol::lf:
        return "lf";
    case Eol::crlf:
        return "crlf";
    case Eol::mixed:
        return "mixed";
    }
    return "none";
}

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
        std::size_t len = sequence_length(text, i);
        if (len == 0) return i;
        i += len;
    }
    return std::nullopt;
}

bool is_char_boundary(std::string_view text, std::size_t offset) {
    if (offset == 0 || offset == text.size()) return true;
    if (offset > text.size()) return false;
    return !is_continuation(static_cast<unsigned char>(text[offset]));
}

Result<DecodedText> decode_text(std::string_view bytes, std::string_view name) {
    DecodedText out;
    std::size_t skipped = 0; // offsets in messages count from the file's first byte
    if (bytes.substr(0, bom.size()) == bom) {
        out.encoding = Encoding::utf8_bom;
        skipped = bom.size();
        bytes.remove_prefix(skipped);
    }
    if (auto bad = find_invalid_utf8(bytes)) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(bytes[*bad]));
        return make_error(ErrorCode::refused,
                          std::string(name) + " is not valid UTF-8 (byte " + hex + " at offset " +
                              std::to_string(*bad + skipped) +
                              "); rio edits only UTF-8 text and will not rewrite it");
    }
    if (auto nul = bytes.find('\0'); nul != std::string_view::npos)
        return make_error(ErrorCode::refused,
                          std::string(name) + " looks binary (NUL byte at offset " +
                              std::to_string(nul + skipped) + "); rio edits only text");
    out.text.assign(bytes);
    return out;
}

std::string encode_text(std::string_view text, Encoding encoding) {
    std::string out;
    out.reserve(text.size() + bom.size());
    if (encoding == Encoding::utf8_bom) out.append(bom);
    out.append(text);
    return out;
}

Eol detect_eol(std::string_view text) {
    bool lf = false, crlf = false;
    for (std::size_t i = text.find('\n'); i != std::string_view::npos; i = text.find('\n', i + 1)) {
        (i > 0 && text[i - 1] == '\r' ? crlf : lf) = true;
        if (lf && crlf) return Eol::mixed;
    }
    return crlf ? Eol::crlf : lf ? Eol::lf : Eol::none;
}

} // namespace rio
