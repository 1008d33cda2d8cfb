// Which line ending the editor inserts (DESIGN decision 0002: buffers keep endings
// verbatim, so a new line must match the file's own).
#pragma once

#include "protocol/closed_sets.hpp"

#include <string_view>

namespace rio::gui {

enum class LineEnding { lf, crlf };

// From the buffer's `eol` (lf, crlf, mixed, none); a mixed file follows its first line.
LineEnding line_ending_for(const Wire<Eol>& eol, std::string_view text);

} // namespace rio::gui
