#include "core/unified_diff.hpp"

#include "core/diff.hpp"

#include <algorithm>

namespace rio {
namespace {

std::string range(std::size_t start, std::size_t count, std::size_t offset) {
    // diff -u numbers lines from 1; an empty side names the line before it.
    std::size_t first = offset + (count == 0 ? start : start + 1);
    return count == 1 ? std::to_string(first) : std::to_string(first) + "," + std::to_string(count);
}

void add_lines(std::string& out, char mark, const std::vector<std::string_view>& lines,
               std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; ++i) {
        out.push_back(mark);
        out.append(lines[i]);
        out.push_back('\n');
    }
}

} // namespace

std::string unified_diff(std::string_view before, std::string_view after, std::string_view path,
                         std::size_t context, std::size_t first_line) {
    auto a = split_lines(before), b = split_lines(after);
    LineDiff diff = diff_lines(a, b);
    if (diff.hunks.empty()) return {};
    std::string out = "--- a/" + std::string(path) + "\n+++ b/" + std::string(path) + "\n";
    std::size_t i = 0;
    while (i < diff.hunks.size()) {
        // Hunks whose context would touch are printed as one group.
        std::size_t j = i;
        while (j + 1 < diff.hunks.size() &&
               diff.hunks[j + 1].a_start - (diff.hunks[j].a_start + diff.hunks[j].a_count) <=
                   2 * context)
            ++j;
        const DiffHunk& first = diff.hunks[i];
        const DiffHunk& last = diff.hunks[j];
        std::size_t a_from = first.a_start - std::min(context, first.a_start);
        std::size_t b_from = first.b_start - (first.a_start - a_from);
        std::size_t a_to = std::min(a.size(), last.a_start + last.a_count + context);
        std::size_t b_to = last.b_start + last.b_count + (a_to - (last.a_start + last.a_count));
        out += "@@ -" + range(a_from, a_to - a_from, first_line) + " +" +
               range(b_from, b_to - b_from, first_line) + " @@\n";
        std::size_t a_at = a_from;
        for (std::size_t k = i; k <= j; ++k) {
            const DiffHunk& h = diff.hunks[k];
            add_lines(out, ' ', a, a_at, h.a_start);
            add_lines(out, '-', a, h.a_start, h.a_start + h.a_count);
            add_lines(out, '+', b, h.b_start, h.b_start + h.b_count);
            a_at = h.a_start + h.a_count;
        }
        add_lines(out, ' ', a, a_at, a_to);
        i = j + 1;
    }
    return out;
}

} // namespace rio
