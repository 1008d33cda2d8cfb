// A search regex with the Unicode meaning ripgrep gives it, in RE2's syntax (decision 0052).
// RE2's `\w`, `\d`, `\s` and `\b` are ASCII only: `\bÜber` found nothing where rg found
// 67 lines. The classes become Unicode property classes; a word boundary, which RE2 cannot
// express in Unicode, becomes an empty named group whose position is checked after a match.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rio {

struct UnicodeRegex {
    std::string pattern; // for RE2
    // Names of the empty groups standing for `\b` and `\B`, in no particular order.
    std::vector<std::string> word_boundaries, not_word_boundaries;
};

// `\w \W \d \D \s \S` outside brackets and `\w \d \s` inside them become Unicode classes
// (`\W \D \S` inside brackets keep RE2's ASCII meaning: a complement cannot be added to a
// class); `\b` and `\B` become groups; `\Q…\E`, escaped characters and everything else are
// kept as they are. A pattern RE2 would refuse stays refused.
UnicodeRegex unicode_regex(std::string_view pattern);

// Whether `\b` holds at `offset` of `text` (UTF-8), with Unicode word characters as rg's
// `\w` has them: letters, marks, decimal digits, connector punctuation and the joiners.
bool is_word_boundary(std::string_view text, std::size_t offset);

} // namespace rio
