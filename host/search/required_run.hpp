// What every match of a search regex must contain, as a run of byte classes, so that a fast
// scan rules out almost every line before RE2 runs (decision 0075). A single literal is not
// enough: `TODO|FIXME|XXX` has none and `[A-Z]{3,}_[0-9]+` only `_`, and RE2's own scan of
// whole files ran at a seventh of the speed of a literal search. As classes they are
// `[TFX][OIX][DXM]` and `[A-Z][A-Z][A-Z]_[0-9]`, rare where code is concerned.
#pragma once

#include <bitset>
#include <optional>
#include <string_view>
#include <vector>

namespace rio {

using ByteSet = std::bitset<256>;

// Consecutive bytes that every match holds somewhere, byte k one of positions[k]. Never
// '\n': a match stays on its line.
struct ByteRun {
    std::vector<ByteSet> positions;
};

struct RegexBytes {
    // The rarest run every match holds, or none when none is known. With `alternatives`, the
    // run that starts every one of them: where it lies, one of them may start.
    std::optional<ByteRun> required;
    // When not empty: all the pattern matches (each one of these byte for byte), in the order
    // RE2 prefers them where several match at one place. Only for patterns that are short
    // lists of literals and ASCII classes, without anchors, `\b` or open repetitions.
    std::vector<ByteRun> alternatives;
};

// What a deliberately conservative reading of an RE2 `pattern` finds (the pattern as the
// user wrote it: `\w`, `\d`, `\s` and `\b` are read as rio's Unicode ones, decision 0052);
// nothing when it meets syntax it does not know.
RegexBytes regex_bytes(std::string_view pattern, bool ignore_case);

// The chance that a run's three rarest positions all hold one of their bytes at a place in
// source text (byte_frequency.hpp): how often a scan for it stops.
double run_chance(const ByteRun& run);

} // namespace rio
