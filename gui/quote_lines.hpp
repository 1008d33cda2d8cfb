// Where a passage selected in the rendered plan sits in the plan's Markdown: the 1-based
// first and last lines, for a comment's `line` / `end_line` (DESIGN §13). The rendered text
// has lost the Markdown's markers (`**`, backticks, list numbers), so lines are compared
// with those set aside; nothing when the passage's first line is not found exactly once.
#pragma once

#include <QString>
#include <optional>

namespace rio::gui {

struct QuoteLines {
    int line = 0, end_line = 0;
};

std::optional<QuoteLines> quote_lines(const QString& markdown, const QString& quote);

} // namespace rio::gui
