// The terminal painter of rio's Markdown model (DESIGN §2): how rio-cli shows a plan the user
// must judge. Wrapped to the terminal's width, tables boxed, no Markdown syntax left over;
// colour is SGR only and optional, and the layout is the same without it.
#pragma once

#include "cli/unicode_width.hpp" // display_width, which callers measure the output with
#include "text/markdown.hpp"

#include <string>

namespace rio::md {

struct AnsiStyle {
    bool color = true; // false: plain text, no escape sequences (NO_COLOR, not a terminal)
    int width = 80;    // columns, 1 to 1000
};

// Lines end in '\n' (the last one too); blocks are separated by one blank line. Control
// characters in the document (an ESC a model wrote) are shown as symbols, never sent.
std::string paint_ansi(const Block& document, const AnsiStyle& style);

} // namespace rio::md
