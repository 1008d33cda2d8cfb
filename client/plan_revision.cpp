#include "client/plan_revision.hpp"

#include "text/lines.hpp"

#include <algorithm>

namespace rio::client {
namespace {

std::vector<DiffSpan> spans_within(const std::vector<DiffSpan>& spans, std::size_t size) {
    std::vector<DiffSpan> out;
    for (const DiffSpan& s : spans)
        if (s.start < s.end && s.end <= size) out.push_back(s);
    return out;
}

const DiffLineWords* words_for(const DiffHunkInfo& hunk, std::size_t a, std::size_t b) {
    if (!hunk.words) return nullptr;
    for (const DiffLineWords& w : *hunk.words)
        if (w.a_line == a && w.b_line == b) return &w;
    return nullptr;
}

} // namespace

DiffLinesParams revision_diff_request(const std::string& old_plan, const std::string& new_plan) {
    DiffLinesParams params;
    params.a = old_plan;
    params.b = new_plan;
    params.words = true;
    return params;
}

std::vector<MarkedLine> mark_revision(std::string_view old_plan, std::string_view new_plan,
                                      const DiffLinesResult& diff) {
    auto before = split_lines(old_plan);
    auto after = split_lines(new_plan);
    std::vector<MarkedLine> out;
    std::size_t a = 0, b = 0; // the next line of each side not yet marked
    auto same_until = [&](std::size_t a_end, std::size_t b_end) {
        while (a < a_end && b < b_end) {
            out.push_back({LineMark::same, a, b, std::string(after[b]), {}, {}, {}});
            ++a;
            ++b;
        }
    };
    for (const DiffHunkInfo& hunk : diff.hunks) {
        std::size_t a_start = std::clamp<std::size_t>(hunk.a_start, a, before.size());
        std::size_t b_start = std::clamp<std::size_t>(hunk.b_start, b, after.size());
        // Unchanged lines pair up one to one, so both sides reach the hunk together.
        std::size_t gap = std::min(a_start - a, b_start - b);
        same_until(a + gap, b + gap);
        a = a_start;
        b = b_start;
        std::size_t a_end = std::min<std::size_t>(a_start + hunk.a_count, before.size());
        std::size_t b_end = std::min<std::size_t>(b_start + hunk.b_count, after.size());
        while (a < a_end && b < b_end) {
            MarkedLine line{LineMark::changed,      a,  b, std::string(after[b]),
                            std::string(before[a]), {}, {}};
            if (const DiffLineWords* w = words_for(hunk, a, b)) {
                line.added = spans_within(w->added, line.text.size());
                line.removed = spans_within(w->removed, line.old_text.size());
            }
            out.push_back(std::move(line));
            ++a;
            ++b;
        }
        for (; a < a_end; ++a)
            out.push_back({LineMark::removed, a, std::nullopt, std::string(before[a]), {}, {}, {}});
        for (; b < b_end; ++b)
            out.push_back({LineMark::inserted, std::nullopt, b, std::string(after[b]), {}, {}, {}});
    }
    same_until(before.size(), after.size());
    for (; a < before.size(); ++a)
        out.push_back({LineMark::removed, a, std::nullopt, std::string(before[a]), {}, {}, {}});
    for (; b < after.size(); ++b)
        out.push_back({LineMark::inserted, std::nullopt, b, std::string(after[b]), {}, {}, {}});
    return out;
}

bool any_change(const std::vector<MarkedLine>& marks) {
    return std::any_of(marks.begin(), marks.end(),
                       [](const MarkedLine& m) { return m.mark != LineMark::same; });
}

std::vector<std::optional<std::size_t>> compact_rows(const std::vector<MarkedLine>& marks,
                                                     std::size_t context) {
    std::vector<bool> shown(marks.size(), false);
    for (std::size_t i = 0; i < marks.size(); ++i) {
        if (marks[i].mark == LineMark::same) continue;
        std::size_t from = i > context ? i - context : 0;
        std::size_t to = std::min(marks.size(), i + context + 1);
        for (std::size_t j = from; j < to; ++j)
            shown[j] = true;
    }
    std::vector<std::optional<std::size_t>> out;
    if (std::find(shown.begin(), shown.end(), true) == shown.end()) return out;
    for (std::size_t i = 0; i < marks.size(); ++i) {
        if (shown[i])
            out.push_back(i);
        else if (out.empty() || out.back())
            out.push_back(std::nullopt);
    }
    return out;
}

} // namespace rio::client
