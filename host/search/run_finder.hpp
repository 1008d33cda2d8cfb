// Finds where a ByteRun (host/search/required_run) lies in text: the prefilter of a regex
// search (decision 0075). Like LiteralFinder it tests a few of the run's rarest positions at
// 32 places at once and checks the whole run only where they all hold; a position here is a
// set of bytes, tested with two 16-entry table lookups (the low and the high half of each
// byte) instead of one comparison.
#pragma once

#include "host/search/required_run.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace rio {

class RunFinder {
public:
    // `run` must not be empty.
    explicit RunFinder(const ByteRun& run);

    // The offset of the first place at or after `from` where the whole run lies, or npos.
    std::size_t find(std::string_view text, std::size_t from) const;

    // A position tested at each place: its bytes are those b for which
    // low[b & 15] & high[b >> 4] is not zero. Exact for sets whose bytes fall in at most eight
    // patterns of low halves (any ASCII set); wider sets are tested loosely, and matches_at
    // decides.
    struct Probe {
        std::size_t offset = 0;
        std::array<std::uint8_t, 16> low{}, high{};
    };

private:
    bool matches_at(const char* at) const;
    std::size_t find_scalar(std::string_view text, std::size_t from) const;

    std::vector<std::array<bool, 256>> members_; // per position of the run
    std::vector<Probe> probes_;                  // the rarest positions, at most three
    bool avx2_ = false;                          // checked once, when the finder is made
};

} // namespace rio
