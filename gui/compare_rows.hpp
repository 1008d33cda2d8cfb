// The compare view's rows (DESIGN §9): the original and the proposed text side by side,
// lined up by diff.lines' hunks. Pure: no widgets, so the alignment is tested on its own.
#pragma once

#include "protocol/messages.hpp"

#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

namespace rio::gui {

// One diff.lines hunk: lines [a_start, a_start + a_count) of the original became lines
// [b_start, b_start + b_count) of the proposal (zero-based).
struct LineHunk {
    int a_start = 0;
    int a_count = 0;
    int b_start = 0;
    int b_count = 0;
};

enum class RowKind {
    same,    // both sides, unchanged
    removed, // left only: the proposal drops it
    added,   // right only: the proposal adds it
    changed, // both sides, different
};

// A row of the view. A side without a line is a padding row (its number is empty).
struct CompareRow {
    std::optional<int> left;  // zero-based line number in the original
    std::optional<int> right; // zero-based line number in the proposal
    QString left_text;        // without its line ending ("\r" too)
    QString right_text;
    RowKind kind = RowKind::same;
};

// The hunks of a diff.lines result; a hunk whose numbers do not fit an int is skipped.
std::vector<LineHunk> line_hunks(const std::vector<DiffHunkInfo>& hunks);

// Lines as diff.lines counts them: split on '\n', a trailing '\n' starts no extra line,
// "" has none.
QStringList split_lines(const QString& text);

// Unchanged lines pair up one to one; within a hunk the first min(a_count, b_count) rows
// are changed pairs and the longer side goes on against padding (removed or added), so
// both sides always have the same number of rows. Hunks that do not fit the texts (out of
// order, past the end) are clamped rather than trusted.
std::vector<CompareRow> compare_rows(const std::vector<LineHunk>& hunks, const QStringList& before,
                                     const QStringList& after);

// The same rows as one column, for a view too narrow for two (issue 32 item 5): unchanged
// lines once, and each run of differing rows as its old lines (removed) and then its new
// ones (added). `number` is the line's in the proposal, or in the original for a removed one.
struct UnifiedRow {
    int number = 0;
    QString text;
    RowKind kind = RowKind::same; // same, removed or added
};
std::vector<UnifiedRow> unified_rows(const std::vector<CompareRow>& rows);

} // namespace rio::gui
