// diff.lines' answer (docs/protocol.md) from two texts: the line hunks and, when asked, the
// word-level changes of the lines each hunk pairs up.
#pragma once

#include "protocol/messages.hpp"

#include <string_view>

namespace rio {

// `words`: each hunk that changes lines (both counts non-zero) pairs its i-th old line with
// its i-th new line, as the compare view lines them up, and lists their word changes.
DiffLinesResult diff_result(std::string_view a, std::string_view b, std::size_t max_cost = 0,
                            bool words = false);

} // namespace rio
