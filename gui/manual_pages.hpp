// rio's manual on disk: share/rio/manual/*.md, found the way rio-core finds its prompts
// (host/user_dirs), read once, in the order the contents list shows them.
#pragma once

#include <QString>
#include <QStringList>
#include <vector>

namespace rio::gui {

struct ManualPage {
    QString file;     // "plan-mode.md": what links name
    QString title;    // the page's first heading
    QString markdown; // the page's text
};

// The pages, first to last: getting started, then the editor, the agent, plan mode,
// providers, remote use, the keys.
QStringList manual_files();

// The manual's folder: $RIO_SHARE_DIR/manual, else found from where the program is
// (io/install_layout.hpp: ../share/rio/manual for an install).
QString find_manual_dir();

// Every page of manual_files() from `dir`. A page that cannot be read is still listed, with
// a few lines saying where it was looked for, so the contents and links stay whole.
std::vector<ManualPage> load_manual(const QString& dir);

// The plain text of the first heading of `markdown`; empty when it has none.
QString first_heading(const QString& markdown);

} // namespace rio::gui
