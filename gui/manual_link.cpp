#include "gui/manual_link.hpp"

namespace rio::gui {

ManualLink resolve_manual_link(const QString& href, const QStringList& pages) {
    ManualLink link;
    const QUrl url(href.trimmed(), QUrl::TolerantMode);
    if (!url.isValid() || href.trimmed().isEmpty()) return link;

    const QString scheme = url.scheme().toLower();
    if (!scheme.isEmpty()) {
        const bool web = scheme == QLatin1String("http") || scheme == QLatin1String("https");
        if ((web && !url.host().isEmpty()) || scheme == QLatin1String("mailto")) {
            link.kind = ManualLink::Kind::external;
            link.url = url;
        }
        return link; // file:, javascript:, a scheme-relative web link: not followed
    }
    if (!url.host().isEmpty()) return link; // "//example.com/x"

    const QString anchor = url.fragment(QUrl::FullyDecoded);
    QString path = url.path(QUrl::FullyDecoded);
    if (path.isEmpty()) {
        if (anchor.isEmpty()) return link;
        link.kind = ManualLink::Kind::anchor;
        link.anchor = anchor;
        return link;
    }
    if (path.startsWith(QLatin1String("./"))) path = path.mid(2);
    // The manual is one flat folder: a page is a bare file name from it, nothing else.
    if (path.contains(QLatin1Char('/')) || !pages.contains(path)) return link;
    link.kind = ManualLink::Kind::page;
    link.page = path;
    link.anchor = anchor;
    return link;
}

} // namespace rio::gui
