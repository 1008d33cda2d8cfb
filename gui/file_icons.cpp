#include "gui/file_icons.hpp"

#include "gui/language_badges.hpp"

#include <QApplication>
#include <QHash>
#include <QMimeDatabase>
#include <QStyle>

namespace rio::gui {

void use_icon_theme() {
    // Where freedesktop themes live; a platform without a desktop (offscreen, a bare X
    // server) may name none of them.
    QStringList paths = QIcon::themeSearchPaths();
    QStringList data =
        qEnvironmentVariable("XDG_DATA_DIRS").split(QLatin1Char(':'), Qt::SkipEmptyParts);
    if (data.isEmpty()) data = {QStringLiteral("/usr/local/share"), QStringLiteral("/usr/share")};
    for (const QString& dir : data)
        if (const QString icons = dir + QStringLiteral("/icons"); !paths.contains(icons))
            paths << icons;
    QIcon::setThemeSearchPaths(paths);
    const QString theme = QIcon::themeName();
    if (theme.isEmpty() || theme == QStringLiteral("hicolor"))
        QIcon::setThemeName(QStringLiteral("Adwaita"));
}

QIcon file_icon(const QString& name, bool folder, bool link) {
    QStyle* style = QApplication::style();
    if (folder)
        return QIcon::fromTheme(
            link ? QStringLiteral("folder-remote") : QStringLiteral("folder"),
            style->standardIcon(link ? QStyle::SP_DirLinkIcon : QStyle::SP_DirIcon));
    if (link)
        return QIcon::fromTheme(QStringLiteral("inode-symlink"),
                                style->standardIcon(QStyle::SP_FileLinkIcon));
    // One lookup per kind of name: a tree of thousands of .cpp files asks once.
    static QHash<QString, QIcon> by_kind;
    const QString kind = kind_of_name(name);
    if (auto it = by_kind.constFind(kind); it != by_kind.constEnd()) return *it;
    static const QMimeDatabase mimes;
    const QMimeType type = mimes.mimeTypeForFile(name, QMimeDatabase::MatchExtension);
    // The theme's own icon for the type where it has one (Breeze, Papirus), else rio's badge
    // for the language, else the theme's generic kind (Adwaita's one page for all scripts).
    QIcon icon = QIcon::fromTheme(type.iconName());
    if (icon.isNull()) icon = language_badge(kind);
    if (icon.isNull()) icon = QIcon::fromTheme(type.genericIconName());
    if (icon.isNull()) icon = QIcon::fromTheme(QStringLiteral("text-x-generic"));
    if (icon.isNull()) icon = style->standardIcon(QStyle::SP_FileIcon);
    by_kind.insert(kind, icon);
    return icon;
}

} // namespace rio::gui
