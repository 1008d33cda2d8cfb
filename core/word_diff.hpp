// Word-level changes inside one changed line (DESIGN §13: a revised plan shows what changed
// word by word), found by the line diff run over the line's words.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace rio {

struct ByteRange {
    std::size_t start = 0, end = 0; // [start, end) in UTF-8 bytes

    friend bool operator==(const ByteRange&, const ByteRange&) = default;
};

struct WordChanges {
    std::vector<ByteRange> removed; // in the old line
    std::vector<ByteRange> added;   // in the new line
};

// Words are runs of letters and digits (any non-ASCII byte counts as a letter, so a UTF-8
// character is never split), runs of white space, and every other character alone. Ranges
// are in order and adjacent ones are merged. `max_cost` caps the search as DiffOptions does.
WordChanges diff_words(std::string_view a, std::string_view b, std::size_t max_cost = 0);

} // namespace rio
