// The text every match of a literal search pattern must contain, so that a fast literal scan
// can rule out almost every line before RE2 runs: profiled, RE2's unanchored scan of whole
// files was what made a search slower than a literal one. (A regex's: required_run.hpp.)
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

// For a literal `pattern`: the whole pattern when case matters, else its longest run that
// ASCII folding covers exactly. nullopt when there is none.
std::optional<RequiredLiteral> required_plain_literal(std::string_view pattern, bool ignore_case);

} // namespace rio
