// How many terminal columns text takes: the width of a code point from Unicode's tables, and
// of UTF-8 text as a terminal shows it (escape sequences take none). Every part of the
// painter measures with this, so that lines, wraps and table cells agree.
#pragma once

#include <cstddef>
#include <string_view>

namespace rio::md {

// East Asian wide/fullwidth = 2; combining marks, format characters, Hangul medial and
// final jamo and C0/C1 controls = 0; everything else (ambiguous width included) = 1.
int code_point_width(char32_t cp);

// Past the escape sequence at `at` (an ESC): CSI, OSC/DCS-style strings, or ESC + one byte.
std::size_t skip_escape(std::string_view s, std::size_t at);

// Display width of UTF-8 text in terminal columns: East Asian wide/fullwidth = 2, combining
// marks and zero-width = 0, ANSI escape sequences = 0, a byte that is not UTF-8 = 1.
int display_width(std::string_view text);

} // namespace rio::md
