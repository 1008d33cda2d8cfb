// rio's line diff: Myers' O((N+M)D) algorithm in linear space, with a cost cap so that
// pathological inputs degrade to a valid but non-minimal script instead of quadratic time.
#pragma once

#include "text/lines.hpp"

#include <cstddef>
#include <string_view>
#include <vector>

namespace rio {

struct DiffHunk {
    std::size_t a_start = 0, a_count = 0; // zero-based line index/count in a
    std::size_t b_start = 0, b_count = 0; // zero-based line index/count in b

    friend bool operator==(const DiffHunk&, const DiffHunk&) = default;
};

struct LineDiff {
    // In order, non-overlapping, never adjacent (merged), each with a_count+b_count>0.
    // Replacing a[a_start, a_start+a_count) by b[b_start, b_start+b_count) for every hunk
    // turns a into b.
    std::vector<DiffHunk> hunks;
    std::size_t removed = 0; // sum of a_count
    std::size_t added = 0;   // sum of b_count
    // False when the cost cap cut a search short: the script is still valid, but
    // removed+added may exceed the minimal edit distance.
    bool exact = true;
};

struct DiffOptions {
    // How far (in edit cost, per direction) one middle-snake search may go before it gives
    // up and splits at the point of furthest progress. A search still finds any region of
    // edit distance up to 2*max_cost exactly, and costs O(max_cost^2 + snakes) at most, so
    // inputs with no structure cost about O((N+M) * max_cost) instead of O((N+M) * D).
    // 0 = automatic: start at auto_max_cost(a lines, b lines) and halve the cap each time a
    // search hits it, down to 256. An input that keeps hitting it (shuffled lines, say)
    // has little left to find, and the halving is what keeps a shuffled 100k-line
    // file at ~0.2 s rather than seconds; an input with real structure loses little (a
    // 100k-line file with 30k random edits came out 0.05% above minimal, 10x faster).
    std::size_t max_cost = 0;
};

// The starting cap of the automatic mode: max(4096, 4 * sqrt(a_lines + b_lines)), GNU diff's
// "too expensive" rule of thumb. The floor keeps typical files exact up to ~8k changed
// lines (after dropping lines that have no match on the other side at all); the square
// root lets the edit budget of very large files grow with them.
std::size_t auto_max_cost(std::size_t a_lines, std::size_t b_lines);

LineDiff diff_lines(std::string_view a, std::string_view b, DiffOptions options = {});
LineDiff diff_lines(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b,
                    DiffOptions options = {});

} // namespace rio
