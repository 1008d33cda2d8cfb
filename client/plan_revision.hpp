// "Changes since the previous plan" (DESIGN §13), for every frontend: a revised plan's lines
// marked inserted, removed or changed (with the words that changed) against the plan it
// revises, from the core's diff.lines. No I/O: the frontend asks the core for the texts and
// the diff, this lines them up.
//
// The texts to compare are plans.get's `plan` of the proposal's `revises` and of its own
// `path` (both as filed, so both carry their title and neither its review).
#pragma once

#include "protocol/messages.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rio::client {

enum class LineMark { same, inserted, removed, changed };

struct MarkedLine {
    LineMark mark = LineMark::same;
    std::optional<std::size_t> old_line; // zero-based; none for an inserted line
    std::optional<std::size_t> new_line; // zero-based; none for a removed line
    std::string text;                    // the new line; a removed line's old text
    std::string old_text;                // changed: the line it replaced
    std::vector<DiffSpan> added;         // changed: the bytes of `text` that are new
    std::vector<DiffSpan> removed;       // changed: the bytes of `old_text` that went
};

// The diff.lines request whose answer mark_revision reads (word-level changes on).
DiffLinesParams revision_diff_request(const std::string& old_plan, const std::string& new_plan);

// Every line of the new plan in order, with the old plan's removed lines where they were.
// Within a hunk the changed pairs come first (the i-th old line against the i-th new one,
// as diff.lines pairs them), then the rest of the longer side as removed or inserted.
// Hunks that do not fit the texts are clamped, never trusted.
std::vector<MarkedLine> mark_revision(std::string_view old_plan, std::string_view new_plan,
                                      const DiffLinesResult& diff);

// Whether anything differs.
bool any_change(const std::vector<MarkedLine>& marks);

// For a compact diff: the indices of `marks` to show — every mark that is not `same`, with
// `context` lines around it — and nullopt where lines are left out (before, between or
// after them); empty when nothing changed.
std::vector<std::optional<std::size_t>> compact_rows(const std::vector<MarkedLine>& marks,
                                                     std::size_t context = 1);

} // namespace rio::client
