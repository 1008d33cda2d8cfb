// diff.lines' answer (docs/protocol.md) from two texts: the line hunks and, when asked, the
// word-level changes of the lines each hunk pairs up.
#pragma once

#include "protocol/messages.hpp"

#include <cstddef>
#include <string_view>

namespace rio {

// What one answer does at most (decision 0049): past these it is still a valid script, with
// `exact` false, and its size and the time it takes stay bounded whatever the texts are.
inline constexpr std::size_t max_diff_hunks = 20'000;         // the rest becomes one last hunk
inline constexpr std::size_t max_word_line_bytes = 16 * 1024; // a longer line changed whole
inline constexpr std::size_t max_word_bytes = 1024 * 1024;    // words compared over all lines
inline constexpr std::size_t max_word_pairs = 20'000;         // lines given words at all
inline constexpr std::size_t word_max_cost = 256;

// `words`: each hunk that changes lines (both counts non-zero) pairs its i-th old line with
// its i-th new line, as the compare view lines them up, and lists their word changes.
DiffLinesResult diff_result(std::string_view a, std::string_view b, std::size_t max_cost = 0,
                            bool words = false);

} // namespace rio
