#include "cli/terminal_safe.hpp"

#include "cli/unicode_width.hpp"
#include "text/utf8.hpp"

namespace rio::md {
namespace {

bool bidi_control(char32_t cp) {
    return (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

// How a control character is shown; "" for one that is not a control.
std::string visible(char32_t cp) {
    static constexpr char hex[] = "0123456789abcdef";
    if (cp == 0x1B) return "\\e";
    if (cp < 0x20) return std::string{'^', static_cast<char>('@' + cp)};
    if (cp == 0x7F) return "^?";
    if ((cp >= 0x80 && cp < 0xA0) || bidi_control(cp)) {
        std::string out = "\\u";
        for (int shift = 12; shift >= 0; shift -= 4)
            out.push_back(hex[(cp >> shift) & 0xF]);
        return out;
    }
    return {};
}

} // namespace

std::string terminal_safe(std::string_view text, Whitespace whitespace) {
    std::string valid;
    if (find_invalid_utf8(text)) {
        valid = to_valid_utf8(text);
        text = valid;
    }
    std::string out;
    out.reserve(text.size());
    int column = 0;
    for (std::size_t at = 0; at < text.size();) {
        DecodedChar d = decode_utf8(text, at);
        std::string_view bytes = text.substr(at, d.length);
        at += d.length;
        if (whitespace == Whitespace::inline_text &&
            (d.cp == '\t' || d.cp == '\n' || d.cp == '\r')) {
            out.push_back(' ');
            ++column;
            continue;
        }
        if (whitespace == Whitespace::code && d.cp == '\t') {
            int spaces = 4 - column % 4;
            out.append(static_cast<std::size_t>(spaces), ' ');
            column += spaces;
            continue;
        }
        if (whitespace == Whitespace::block &&
            (d.cp == '\t' || d.cp == '\n' || (d.cp == '\r' && text.substr(at, 1) == "\n"))) {
            if (d.cp != '\r') out += bytes;
            column = d.cp == '\t' ? column : 0;
            continue;
        }
        if (std::string shown = visible(d.cp); !shown.empty()) {
            out += shown;
            column += static_cast<int>(shown.size());
            continue;
        }
        out += bytes;
        column += code_point_width(d.cp);
    }
    return out;
}

} // namespace rio::md

namespace rio {

std::string shown(std::string_view text) {
    return md::terminal_safe(text, md::Whitespace::none);
}

bool has_controls(std::string_view text) {
    for (std::size_t at = 0; at < text.size();) {
        DecodedChar d = decode_utf8(text, at);
        at += d.length;
        if (d.cp < 0x20 || d.cp == 0x7F || (d.cp >= 0x80 && d.cp < 0xA0) ||
            (d.cp >= 0x202A && d.cp <= 0x202E) || (d.cp >= 0x2066 && d.cp <= 0x2069))
            return true;
    }
    return false;
}

} // namespace rio
