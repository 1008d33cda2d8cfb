// Text as lines, the way the diff and the compare view count them.
#pragma once

#include <string_view>
#include <vector>

namespace rio {

// Splits text into lines on '\n'. The terminator is not part of the line; a '\r' before it
// stays in the line (so CRLF vs LF is a visible difference). A trailing '\n' does not
// start an extra empty line; "" has zero lines; "a" has one line.
std::vector<std::string_view> split_lines(std::string_view text);

} // namespace rio
