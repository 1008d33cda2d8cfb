#include "gui/manual_pages.hpp"

#include "io/user_dirs.hpp"
#include "text/markdown.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFile>

namespace rio::gui {
namespace {

// Headings nest inside quotes and list items too; the title is the first in reading order.
const md::Block* find_heading(const md::Block& block) {
    if (block.kind == md::BlockKind::heading) return &block;
    for (const md::Block& child : block.children)
        if (const md::Block* found = find_heading(child)) return found;
    return nullptr;
}

} // namespace

QStringList manual_files() {
    return {QStringLiteral("index.md"),
            QStringLiteral("editor.md"),
            QStringLiteral("the-agent.md"),
            QStringLiteral("plan-mode.md"),
            QStringLiteral("steps-and-checks.md"),
            QStringLiteral("providers.md"),
            QStringLiteral("sessions.md"),
            QStringLiteral("remote.md"),
            QStringLiteral("acp.md"),
            QStringLiteral("mcp.md"),
            QStringLiteral("language-servers.md"),
            QStringLiteral("keyboard.md")};
}

QString find_manual_dir() {
    const UserDirs dirs = find_user_dirs(QCoreApplication::applicationFilePath().toStdString());
    return QString::fromStdString((dirs.share / "manual").string());
}

QString first_heading(const QString& markdown) {
    const md::Block document = md::parse(markdown.toStdString());
    const md::Block* heading = find_heading(document);
    return heading ? QString::fromStdString(md::plain_text(heading->spans)).trimmed() : QString();
}

std::vector<ManualPage> load_manual(const QString& dir) {
    std::vector<ManualPage> pages;
    for (const QString& file : manual_files()) {
        ManualPage page;
        page.file = file;
        QFile in(QDir(dir).filePath(file));
        if (in.open(QIODevice::ReadOnly)) {
            page.markdown = QString::fromUtf8(in.readAll());
            page.title = first_heading(page.markdown);
        } else {
            page.markdown =
                QCoreApplication::translate("rio", "# %1\n\nThis page of the manual is "
                                                   "missing: it was looked for at `%2`.")
                    .arg(file, in.fileName());
        }
        if (page.title.isEmpty()) page.title = file;
        pages.push_back(std::move(page));
    }
    return pages;
}

} // namespace rio::gui
