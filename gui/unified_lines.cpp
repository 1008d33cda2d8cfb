#include "gui/unified_lines.hpp"

#include <QCoreApplication>
#include <QStringList>

namespace rio::gui {

std::vector<UnifiedLine> unified_lines(const QString& diff, int max_lines) {
    QStringList lines = diff.split(QLatin1Char('\n'));
    if (!lines.isEmpty() && lines.back().isEmpty()) lines.removeLast();
    std::vector<UnifiedLine> out;
    int shown = 0, left = 0;
    for (const QString& line : lines) {
        if (line.startsWith(QLatin1String("--- ")) || line.startsWith(QLatin1String("+++ ")))
            continue;
        if (shown == max_lines) {
            ++left;
            continue;
        }
        using Kind = UnifiedLine::Kind;
        const Kind kind = line.startsWith(QLatin1String("@@")) ? Kind::hunk
                          : line.startsWith(QLatin1Char('-'))  ? Kind::removed
                          : line.startsWith(QLatin1Char('+'))  ? Kind::added
                                                               : Kind::same;
        QString text = line;
        if (text.endsWith(QLatin1Char('\r'))) text.chop(1); // a CRLF file's line
        out.push_back({kind, text});
        ++shown;
    }
    if (left > 0) {
        const QString more =
            left == 1 ? QCoreApplication::translate("rio::gui", "… 1 more line")
                      : QCoreApplication::translate("rio::gui", "… %1 more lines").arg(left);
        out.push_back(
            {UnifiedLine::Kind::more,
             more + QCoreApplication::translate("rio::gui", " — Compare shows the whole change")});
    }
    return out;
}

} // namespace rio::gui
