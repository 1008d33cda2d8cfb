#include "core/diff_result.hpp"

#include "core/diff.hpp"
#include "core/word_diff.hpp"

#include <algorithm>

namespace rio {
namespace {

std::vector<DiffSpan> spans(const std::vector<ByteRange>& ranges) {
    std::vector<DiffSpan> out;
    for (const ByteRange& r : ranges)
        out.push_back({r.start, r.end});
    return out;
}

// Past max_diff_hunks the hunks from the last one kept to the end become one: replacing
// that whole stretch is still a valid script, just not a minimal one.
void cap_hunks(LineDiff& diff) {
    if (diff.hunks.size() <= max_diff_hunks) return;
    DiffHunk& last = diff.hunks[max_diff_hunks - 1];
    const DiffHunk& end = diff.hunks.back();
    last.a_count = end.a_start + end.a_count - last.a_start;
    last.b_count = end.b_start + end.b_count - last.b_start;
    diff.hunks.resize(max_diff_hunks);
    diff.removed = diff.added = 0;
    for (const DiffHunk& h : diff.hunks) {
        diff.removed += h.a_count;
        diff.added += h.b_count;
    }
    diff.exact = false;
}

} // namespace

DiffLinesResult diff_result(std::string_view a, std::string_view b, std::size_t max_cost,
                            bool words) {
    DiffOptions options;
    options.max_cost = max_cost;
    auto a_lines = split_lines(a);
    auto b_lines = split_lines(b);
    LineDiff diff = diff_lines(a_lines, b_lines, options);
    cap_hunks(diff);
    DiffLinesResult out{{}, diff.added, diff.removed, diff.exact, a_lines.size(), b_lines.size()};
    std::size_t word_bytes = 0, pairs = 0;
    for (const DiffHunk& h : diff.hunks) {
        DiffHunkInfo hunk{h.a_start, h.a_count, h.b_start, h.b_count, std::nullopt};
        if (words && h.a_count > 0 && h.b_count > 0 && pairs < max_word_pairs) {
            hunk.words.emplace();
            for (std::size_t i = 0; i < std::min(h.a_count, h.b_count) && pairs < max_word_pairs;
                 ++i, ++pairs) {
                std::string_view old_line = a_lines[h.a_start + i];
                std::string_view new_line = b_lines[h.b_start + i];
                std::size_t bytes = old_line.size() + new_line.size();
                WordChanges changes;
                if (bytes <= max_word_line_bytes && word_bytes + bytes <= max_word_bytes) {
                    word_bytes += bytes;
                    changes = diff_words(old_line, new_line, word_max_cost);
                } else { // too long to compare word by word: the lines changed as wholes
                    if (!old_line.empty()) changes.removed.push_back({0, old_line.size()});
                    if (!new_line.empty()) changes.added.push_back({0, new_line.size()});
                    out.exact = false;
                }
                hunk.words->push_back(
                    {h.a_start + i, h.b_start + i, spans(changes.removed), spans(changes.added)});
            }
        }
        out.hunks.push_back(std::move(hunk));
    }
    if (words && pairs >= max_word_pairs) out.exact = false;
    return out;
}

} // namespace rio
