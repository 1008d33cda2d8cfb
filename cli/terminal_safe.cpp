#include "cli/terminal_safe.hpp"

#include "cli/unicode_width.hpp"
#include "text/utf8.hpp"

namespace rio::md {

std::string terminal_safe(std::string_view text, Whitespace whitespace) {
    bool code_text = whitespace == Whitespace::code;
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
        if (d.cp == '\t' && code_text) {
            int spaces = 4 - column % 4;
            out.append(static_cast<std::size_t>(spaces), ' ');
            column += spaces;
            continue;
        }
        if (!code_text && (d.cp == '\t' || d.cp == '\n' || d.cp == '\r')) {
            out.push_back(' ');
        } else if (d.cp < 0x20) { // U+2400 + c, as UTF-8
            out += "\xE2\x90";
            out.push_back(static_cast<char>(0x80 + d.cp));
            ++column;
        } else if (d.cp == 0x7F) {
            out += "\u2421";
            ++column;
        } else if (d.cp >= 0x80 && d.cp < 0xA0) {
            out += "\uFFFD";
            ++column;
        } else {
            out += bytes;
            column += code_point_width(d.cp);
        }
    }
    return out;
}

} // namespace rio::md
