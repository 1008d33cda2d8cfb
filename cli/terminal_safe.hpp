// Text of a document as the terminal may receive it: a model writes the plan, and an ESC in
// it would let the plan drive the terminal (move the cursor, retitle the window, hide text).
#pragma once

#include <string>
#include <string_view>

namespace rio::md {

// Inline text (a paragraph, a table cell) turns tabs and line breaks into spaces, for the
// painter to fill lines with; code expands tabs to stops of four columns.
enum class Whitespace { inline_text, code };

// Valid UTF-8 (each ill-formed sequence one U+FFFD), every other C0 control and DEL as its
// visible Control Picture (U+2400 + c, U+2421), and C1 controls as U+FFFD.
std::string terminal_safe(std::string_view text, Whitespace whitespace);

} // namespace rio::md
