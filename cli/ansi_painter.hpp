// The terminal painter of rio's Markdown model (DESIGN §2): how rio-cli shows a plan the user
// must judge. Wrapped to the terminal's width, tables boxed, no Markdown syntax left over;
// colour is SGR only and optional, and the layout is the same without it.
#pragma once

#include "text/markdown.hpp"

#include <string>
#include <string_view>

namespace rio::md {

struct AnsiStyle {
    bool color = true; // false: plain text, no escape sequences (NO_COLOR, not a terminal)
    int width = 80;    // columns, 1 to 1000
};

// Lines end in '\n' (the last one too); blocks are separated by one blank line. Control
// characters in the document (an ESC a model wrote) are shown as symbols, never sent.
std::string paint_ansi(const Block& document, const AnsiStyle& style);

// Display width of UTF-8 text in terminal columns: East Asian wide/fullwidth = 2, combining
// marks and zero-width = 0, ANSI escape sequences = 0, a byte that is not UTF-8 = 1.
int display_width(std::string_view text);

} // namespace rio::md
