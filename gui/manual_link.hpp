// What a link in the manual points at. Pages link to each other with relative links
// ("plan-mode.md#edit-plan"), to their own headings ("#modes"), or out to the web. Pure, so
// the rules are tested without a window.
#pragma once

#include <QString>
#include <QStringList>
#include <QUrl>

namespace rio::gui {

struct ManualLink {
    enum class Kind {
        page,     // another page (or this one by name), at `anchor` or its top
        anchor,   // a heading of the page being read
        external, // http, https or mailto: the desktop's browser or mail program
        unknown,  // anything else: no such page, a path outside the manual, another scheme
    };
    Kind kind = Kind::unknown;
    QString page;   // page: a file name from the manual ("plan-mode.md")
    QString anchor; // page (may be empty), anchor: the heading's anchor, decoded
    QUrl url;       // external
};

// `pages` are the manual's file names; a page link must name one of them.
ManualLink resolve_manual_link(const QString& href, const QStringList& pages);

} // namespace rio::gui
