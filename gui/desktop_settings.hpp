// What the desktop remembers between runs (issue 15 item 7): the folder opened last, the
// recent projects and remote folders, the window's geometry and panel layout, the editor's zoom and
// the theme. The app fills it from QSettings at start and writes it back as things change; the
// window is handed the values and tells of changes by signals, and never reads settings itself (so
// tests and screenshots never depend on, or touch, a person's settings).
#pragma once

#include "gui/theme.hpp"

#include <QByteArray>
#include <QHash>
#include <QString>
#include <QStringList>

class QSettings;

namespace rio::gui {

struct DesktopSettings {
    QString last_project;
    QStringList recent_projects; // most recent first
    QStringList recent_remotes;  // ssh:// addresses opened (File ▸ Open Remote Folder…)
    // The files each recent project had open in tabs (issue 46: a project is a workspace).
    QHash<QString, QStringList> open_files;
    QByteArray geometry;
    QByteArray layout;
    int zoom = 0;
    Theme theme = Theme::system;
};

DesktopSettings load_desktop_settings(const QSettings& settings);
void save_desktop_settings(QSettings& settings, const DesktopSettings& values);

// How many recent projects File ▸ Open Recent lists.
inline constexpr int recent_projects_kept = 10;

// `recent` with `root` moved (or added) to the front, at most recent_projects_kept long.
QStringList remember_project(QStringList recent, const QString& root);

} // namespace rio::gui
