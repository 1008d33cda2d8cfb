#include "gui/plan_link.hpp"

#include <QDir>
#include <QRegularExpression>
#include <QUrl>

namespace rio::gui {
namespace {

// "path:42" or "path:42:7" (the column is not kept: the editor goes to the line).
const QRegularExpression& line_suffix() {
    static const QRegularExpression pattern(QStringLiteral("^(.+?):(\\d+)(?::\\d+)?$"));
    return pattern;
}

// "#L42", "#L42-L50", "#L42C7": the line GitHub's links carry.
const QRegularExpression& line_fragment() {
    static const QRegularExpression pattern(QStringLiteral("^L(\\d+)"));
    return pattern;
}

const QRegularExpression& scheme() {
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z][A-Za-z0-9+.-]*:"));
    return pattern;
}

int line_number(const QString& digits) {
    bool ok = false;
    const int line = digits.toInt(&ok);
    return ok && line > 0 ? line : 0;
}

} // namespace

PlanLink resolve_plan_link(const QString& href, const QString& root) {
    PlanLink link;
    QString rest = href.trimmed();
    if (rest.isEmpty()) return link;
    if (rest.startsWith(QLatin1Char('#'))) {
        link.kind = PlanLink::Kind::anchor;
        link.anchor = QUrl::fromPercentEncoding(rest.mid(1).toUtf8());
        return link;
    }
    if (const QRegularExpressionMatch m = line_suffix().match(rest); m.hasMatch()) {
        rest = m.captured(1);
        link.line = line_number(m.captured(2));
    }
    if (scheme().match(rest).hasMatch()) {
        const QUrl url(rest);
        if (url.scheme().compare(QLatin1String("file"), Qt::CaseInsensitive) != 0 ||
            !url.host().isEmpty())
            return PlanLink{}; // the web and the rest: inert
        rest = url.path(QUrl::PrettyDecoded) +
               (url.hasFragment() ? QLatin1Char('#') + url.fragment() : QString());
    }
    if (const qsizetype hash = rest.indexOf(QLatin1Char('#')); hash >= 0) {
        if (const QRegularExpressionMatch m = line_fragment().match(rest.mid(hash + 1));
            m.hasMatch())
            link.line = line_number(m.captured(1));
        rest.truncate(hash);
    }
    const QString written = QUrl::fromPercentEncoding(rest.toUtf8());
    if (written.isEmpty() || root.isEmpty()) return PlanLink{};
    QString path = QDir::cleanPath(written);
    if (QDir::isAbsolutePath(path)) path = QDir(root).relativeFilePath(path);
    if (path == QLatin1String("..") || path.startsWith(QLatin1String("../")) ||
        QDir::isAbsolutePath(path)) {
        link.kind = PlanLink::Kind::outside;
        link.path = written;
        link.line = 0;
        return link;
    }
    if (path.isEmpty() || path == QLatin1String(".")) return PlanLink{};
    link.kind = PlanLink::Kind::file;
    link.path = path;
    return link;
}

} // namespace rio::gui
