// The text every match of a search pattern must contain, so that a fast literal scan can
// rule out almost every line before RE2 runs: profiled, RE2's unanchored scan of whole
// files was what made a regex search slower than a literal one.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace rio {

struct RequiredLiteral {
    std::string text;
    // Match ASCII letters in either case (LiteralFinder's fold_ascii). Set for patterns
    // that ignore case; the text then holds no k, s or non-ASCII byte, whose case variants
    // are not all ASCII.
    bool fold_ascii = false;
};

// The longest run of characters that every match of an RE2 `pattern` contains, found by a
// deliberately conservative reading of the syntax: only characters outside groups and
// classes count, a top-level `|` gives up, and anything unclear ends the run. nullopt
// when nothing is certain.
std::optional<RequiredLiteral> required_regex_literal(std::string_view pattern, bool ignore_case);

// The same for a literal `pattern`: the whole pattern when case matters, else its longest
// run that ASCII folding covers exactly.
std::optional<RequiredLiteral> required_plain_literal(std::string_view pattern, bool ignore_case);

} // namespace rio
