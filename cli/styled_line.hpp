// A line of the terminal painter's output before it becomes bytes: runs of text, each in
// one style, and how they reach the terminal (SGR codes, or none without colour).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rio::md {

// Bits, combined: bold text in a link is bold | underline.
enum Style : unsigned {
    plain = 0,
    bold = 1,
    dim = 2,
    italic = 4,
    underline = 8,
    strike = 16,
    code = 32,    // inline code and code blocks
    checked = 64, // a done task's box
};

struct Run {
    std::string text;
    unsigned style = plain;
};

using Line = std::vector<Run>;

// Text in the style of the line's last run extends that run, so that a line has one run
// per change of style (and one SGR sequence).
void append(Line& line, std::string_view text, unsigned style);
void append(Line& line, const Line& more);

int width_of(const Line& line); // display columns
int widest(const std::vector<Line>& lines);

// Without trailing spaces (and the runs they leave empty): a prefix or padding never ends
// a line the terminal shows.
void trim_right(Line& line);

// Each line followed by '\n'. With colour, a run whose style differs from the one before it
// starts with an SGR sequence, and a line that ends styled resets to plain.
std::string render(const std::vector<Line>& lines, bool color);

} // namespace rio::md
