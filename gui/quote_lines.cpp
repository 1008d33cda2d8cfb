#include "gui/quote_lines.hpp"

#include <QStringList>

namespace rio::gui {
namespace {

// A line as the view paints it, near enough: without inline markers and spacing.
QString plain(QString line) {
    line.remove(QLatin1Char('*')).remove(QLatin1Char('`')).remove(QLatin1Char('_'));
    return line.simplified();
}

} // namespace

std::optional<QuoteLines> quote_lines(const QString& markdown, const QString& quote) {
    // QTextDocument joins paragraphs with U+2029 in a selection.
    QString text = quote;
    text.replace(QChar(0x2029), QLatin1Char('\n')).replace(QChar(0x2028), QLatin1Char('\n'));
    QStringList quoted = text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    if (quoted.isEmpty()) return std::nullopt;
    const QString first = plain(quoted.front());
    const QString last = plain(quoted.back());
    if (first.isEmpty()) return std::nullopt;
    const QStringList lines = markdown.split(QLatin1Char('\n'));
    int found = -1;
    for (int i = 0; i < lines.size(); ++i) {
        if (!plain(lines[i]).contains(first)) continue;
        if (found >= 0) return std::nullopt; // more than one place: say nothing
        found = i;
    }
    if (found < 0) return std::nullopt;
    QuoteLines result{found + 1, found + 1};
    if (quoted.size() > 1) {
        for (int i = found + 1; i < lines.size(); ++i)
            if (!last.isEmpty() && plain(lines[i]).contains(last)) {
                result.end_line = i + 1;
                break;
            }
    }
    return result;
}

} // namespace rio::gui
