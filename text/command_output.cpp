#include "text/command_output.hpp"

#include "text/lines.hpp"

namespace rio {
namespace {

constexpr char esc = '\x1b';

// Past the escape sequence that starts at `at` (an ESC): CSI ends at its final byte
// (0x40–0x7E), OSC, DCS and the like at BEL or ESC \, others after one more byte.
std::size_t skip_escape(std::string_view raw, std::size_t at) {
    std::size_t i = at + 1;
    if (i >= raw.size()) return i;
    char kind = raw[i++];
    if (kind == '[') {
        while (i < raw.size() && !(raw[i] >= 0x40 && raw[i] <= 0x7E))
            ++i;
        return i < raw.size() ? i + 1 : i;
    }
    if (kind == ']' || kind == 'P' || kind == '_' || kind == '^' || kind == 'X') {
        while (i < raw.size()) {
            if (raw[i] == '\a') return i + 1;
            if (raw[i] == esc && i + 1 < raw.size() && raw[i + 1] == '\\') return i + 2;
            ++i;
        }
        return i;
    }
    // ESC ( B and its kind take one more byte; ESC 7, ESC = and the rest end here.
    if ((kind == '(' || kind == ')' || kind == '*' || kind == '+' || kind == '#') && i < raw.size())
        ++i;
    return i;
}

bool continuation(char c) {
    return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

} // namespace

std::string plain_output(std::string_view raw) {
    std::string out;
    out.reserve(raw.size());
    std::size_t line_start = 0; // in `out`
    bool rewind = false;        // a '\r' came: the next character starts the line again
    for (std::size_t i = 0; i < raw.size();) {
        char c = raw[i];
        if (c == esc) {
            i = skip_escape(raw, i);
            continue;
        }
        ++i;
        if (c == '\r') {
            if (i < raw.size() && raw[i] == '\n') continue; // CRLF is a line break
            rewind = true;
            continue;
        }
        if (c == '\n') {
            out += '\n';
            line_start = out.size();
            rewind = false;
            continue;
        }
        if (c == '\b') {
            while (out.size() > line_start && continuation(out.back()))
                out.pop_back();
            if (out.size() > line_start) out.pop_back();
            continue;
        }
        if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7F) continue;
        if (rewind) {
            out.resize(line_start);
            rewind = false;
        }
        out += c;
    }
    return out;
}

OutputTail last_lines(std::string_view text, std::size_t count) {
    std::vector<std::string_view> all = split_lines(text);
    OutputTail tail;
    tail.hidden = all.size() > count ? all.size() - count : 0;
    tail.lines.assign(all.begin() + static_cast<std::ptrdiff_t>(tail.hidden), all.end());
    return tail;
}

std::string_view output_tail(std::string_view text, std::size_t max_bytes) {
    if (text.size() <= max_bytes) return text;
    std::size_t start = text.size() - max_bytes;
    if (std::size_t line = text.find('\n', start);
        line != std::string_view::npos && line + 1 < text.size())
        return text.substr(line + 1);
    while (start < text.size() && continuation(text[start]))
        ++start;
    return text.substr(start);
}

} // namespace rio
