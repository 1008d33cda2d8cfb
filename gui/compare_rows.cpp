#include "gui/compare_rows.hpp"

#include "text/lines.hpp"

#include <algorithm>
#include <limits>

namespace rio::gui {
namespace {

QString without_cr(QString line) {
    if (line.endsWith(QLatin1Char('\r'))) line.chop(1);
    return line;
}

} // namespace

std::vector<LineHunk> line_hunks(const std::vector<DiffHunkInfo>& hunks) {
    constexpr auto most = static_cast<std::uint64_t>(std::numeric_limits<int>::max());
    std::vector<LineHunk> out;
    for (const DiffHunkInfo& h : hunks)
        if (h.a_start <= most && h.a_count <= most && h.b_start <= most && h.b_count <= most)
            out.push_back({static_cast<int>(h.a_start), static_cast<int>(h.a_count),
                           static_cast<int>(h.b_start), static_cast<int>(h.b_count)});
    return out;
}

QStringList split_lines(const QString& text) {
    const std::string utf8 = text.toStdString();
    QStringList lines;
    for (std::string_view line : rio::split_lines(utf8))
        lines << QString::fromUtf8(line.data(), static_cast<qsizetype>(line.size()));
    return lines;
}

std::vector<CompareRow> compare_rows(const std::vector<LineHunk>& hunks, const QStringList& before,
                                     const QStringList& after) {
    const int a_size = static_cast<int>(before.size());
    const int b_size = static_cast<int>(after.size());
    std::vector<CompareRow> rows;
    int a = 0, b = 0; // the next line of each side not yet in a row

    auto row = [&](std::optional<int> left, std::optional<int> right, RowKind kind) {
        CompareRow r;
        r.left = left;
        r.right = right;
        if (left) r.left_text = without_cr(before[*left]);
        if (right) r.right_text = without_cr(after[*right]);
        r.kind = kind;
        rows.push_back(std::move(r));
    };
    // Unchanged lines up to (a_end, b_end): the same count on both sides in a valid diff;
    // if not, the surplus is shown as removed/added rather than lost.
    auto same_until = [&](int a_end, int b_end) {
        while (a < a_end && b < b_end)
            row(a++, b++, RowKind::same);
        while (a < a_end)
            row(a++, std::nullopt, RowKind::removed);
        while (b < b_end)
            row(std::nullopt, b++, RowKind::added);
    };

    for (const LineHunk& hunk : hunks) {
        const int a_start = std::clamp(hunk.a_start, a, a_size);
        const int b_start = std::clamp(hunk.b_start, b, b_size);
        same_until(a_start, b_start);
        const int a_end = a_start + std::clamp(hunk.a_count, 0, a_size - a_start);
        const int b_end = b_start + std::clamp(hunk.b_count, 0, b_size - b_start);
        while (a < a_end && b < b_end)
            row(a++, b++, RowKind::changed);
        while (a < a_end)
            row(a++, std::nullopt, RowKind::removed);
        while (b < b_end)
            row(std::nullopt, b++, RowKind::added);
    }
    same_until(a_size, b_size);
    return rows;
}

std::vector<UnifiedRow> unified_rows(const std::vector<CompareRow>& rows) {
    std::vector<UnifiedRow> out;
    out.reserve(rows.size());
    for (std::size_t at = 0; at < rows.size();) {
        if (rows[at].kind == RowKind::same) {
            out.push_back({rows[at].right.value_or(0), rows[at].right_text, RowKind::same});
            ++at;
            continue;
        }
        std::size_t end = at;
        while (end < rows.size() && rows[end].kind != RowKind::same)
            ++end;
        for (std::size_t row = at; row < end; ++row)
            if (rows[row].left)
                out.push_back({*rows[row].left, rows[row].left_text, RowKind::removed});
        for (std::size_t row = at; row < end; ++row)
            if (rows[row].right)
                out.push_back({*rows[row].right, rows[row].right_text, RowKind::added});
        at = end;
    }
    return out;
}

} // namespace rio::gui
