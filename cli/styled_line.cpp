#include "cli/styled_line.hpp"

#include "cli/unicode_width.hpp"

#include <algorithm>

namespace rio::md {
namespace {

std::string sgr_codes(unsigned style) {
    std::string codes;
    auto add = [&](unsigned bit, const char* code) {
        if (!(style & bit)) return;
        if (!codes.empty()) codes.push_back(';');
        codes += code;
    };
    add(bold, "1");
    add(dim, "2");
    add(italic, "3");
    add(underline, "4");
    add(strike, "9");
    add(code, "36");
    add(checked, "32");
    return codes;
}

std::string sgr_change(unsigned from, unsigned to) {
    if (to == plain) return "\x1b[0m";
    return (from == plain ? "\x1b[" : "\x1b[0;") + sgr_codes(to) + "m";
}

} // namespace

void append(Line& line, std::string_view text, unsigned style) {
    if (text.empty()) return;
    if (line.empty() || line.back().style != style) line.push_back({{}, style});
    line.back().text += text;
}

void append(Line& line, const Line& more) {
    for (const Run& run : more)
        append(line, run.text, run.style);
}

int width_of(const Line& line) {
    int width = 0;
    for (const Run& run : line)
        width += display_width(run.text);
    return width;
}

int widest(const std::vector<Line>& lines) {
    int width = 0;
    for (const Line& line : lines)
        width = std::max(width, width_of(line));
    return width;
}

void trim_right(Line& line) {
    while (!line.empty()) {
        std::string& text = line.back().text;
        text.erase(text.find_last_not_of(' ') + 1);
        if (!text.empty()) return;
        line.pop_back();
    }
}

std::string render(const std::vector<Line>& lines, bool color) {
    std::string out;
    for (const Line& line : lines) {
        unsigned current = plain;
        for (const Run& run : line) {
            if (color && run.style != current) {
                out += sgr_change(current, run.style);
                current = run.style;
            }
            out += run.text;
        }
        if (current != plain) out += "\x1b[0m";
        out.push_back('\n');
    }
    return out;
}

} // namespace rio::md
