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

} // namespace

DiffLinesResult diff_result(std::string_view a, std::string_view b, std::size_t max_cost,
                            bool words) {
    DiffOptions options;
    options.max_cost = max_cost;
    auto a_lines = split_lines(a);
    auto b_lines = split_lines(b);
    LineDiff diff = diff_lines(a_lines, b_lines, options);
    DiffLinesResult out{{}, diff.added, diff.removed, diff.exact, a_lines.size(), b_lines.size()};
    for (const DiffHunk& h : diff.hunks) {
        DiffHunkInfo hunk{h.a_start, h.a_count, h.b_start, h.b_count, std::nullopt};
        if (words && h.a_count > 0 && h.b_count > 0) {
            hunk.words.emplace();
            for (std::size_t i = 0; i < std::min(h.a_count, h.b_count); ++i) {
                WordChanges changes = diff_words(a_lines[h.a_start + i], b_lines[h.b_start + i]);
                hunk.words->push_back(
                    {h.a_start + i, h.b_start + i, spans(changes.removed), spans(changes.added)});
            }
        }
        out.hunks.push_back(std::move(hunk));
    }
    return out;
}

} // namespace rio
