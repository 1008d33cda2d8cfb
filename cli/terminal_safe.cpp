#include "cli/terminal_safe.hpp"

#include "cli/unicode_width.hpp"
#include "text/utf8.hpp"

#include <algorithm>
#include <iterator>

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

// The length of the SGR sequence of rio's palette at the start of `text`, else 0: ESC [,
// codes among those rio uses, separated by ';', then 'm'.
std::size_t own_sgr_length(std::string_view text) {
    if (!text.starts_with("\x1b[")) return 0;
    std::size_t end = text.find_first_not_of("0123456789;", 2);
    if (end == std::string_view::npos || end == 2 || text[end] != 'm') return 0;
    static constexpr std::string_view palette[] = {"0",  "1",  "2",  "3",  "4", "9",
                                                   "24", "31", "32", "33", "36"};
    std::string_view codes = text.substr(2, end - 2);
    for (std::size_t at = 0; at <= codes.size();) {
        std::size_t semi = std::min(codes.find(';', at), codes.size());
        if (std::find(std::begin(palette), std::end(palette), codes.substr(at, semi - at)) ==
            std::end(palette))
            return 0;
        at = semi + 1;
    }
    return end + 1;
}

} // namespace

std::string terminal_output(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    std::size_t from = 0; // the text not yet copied
    for (std::size_t at = text.find('\x1b'); at != std::string_view::npos;
         at = text.find('\x1b', at + 1)) {
        std::size_t sgr = own_sgr_length(text.substr(at));
        if (sgr == 0) continue;
        out += terminal_safe(text.substr(from, at - from), Whitespace::block);
        out += text.substr(at, sgr);
        from = at + sgr;
        at = from - 1;
    }
    out += terminal_safe(text.substr(from), Whitespace::block);
    return out;
}

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
