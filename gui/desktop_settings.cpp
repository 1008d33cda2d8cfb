#include "gui/desktop_settings.hpp"

#include <QSettings>

namespace rio::gui {
namespace {

// The keys rio used before this struct existed keep their names, so nothing is forgotten.
constexpr const char* last_project_key = "last_project";
constexpr const char* recent_key = "recent_projects";
constexpr const char* remotes_key = "recent_remotes";
constexpr const char* open_files_key = "project/open_files";
constexpr const char* geometry_key = "window/geometry";
constexpr const char* layout_key = "window/layout";
constexpr const char* zoom_key = "editor/zoom";
constexpr const char* theme_key_name = "view/theme";

} // namespace

DesktopSettings load_desktop_settings(const QSettings& settings) {
    DesktopSettings values;
    values.last_project = settings.value(last_project_key).toString();
    values.recent_projects = settings.value(recent_key).toStringList();
    values.recent_remotes = settings.value(remotes_key).toStringList();
    for (QStringList* list : {&values.recent_projects, &values.recent_remotes}) {
        list->removeAll(QString());
        while (list->size() > recent_projects_kept)
            list->removeLast();
    }
    const QVariantMap open = settings.value(open_files_key).toMap();
    for (auto it = open.begin(); it != open.end(); ++it)
        if (values.recent_projects.contains(it.key()))
            values.open_files.insert(it.key(), it.value().toStringList());
    values.geometry = settings.value(geometry_key).toByteArray();
    values.layout = settings.value(layout_key).toByteArray();
    values.zoom = settings.value(zoom_key, 0).toInt();
    values.theme =
        theme_from_key(settings.value(theme_key_name).toString()).value_or(Theme::system);
    return values;
}

void save_desktop_settings(QSettings& settings, const DesktopSettings& values) {
    settings.setValue(last_project_key, values.last_project);
    settings.setValue(recent_key, values.recent_projects);
    settings.setValue(remotes_key, values.recent_remotes);
    QVariantMap open;
    for (auto it = values.open_files.begin(); it != values.open_files.end(); ++it)
        if (values.recent_projects.contains(it.key()) && !it.value().isEmpty())
            open.insert(it.key(), it.value());
    settings.setValue(open_files_key, open);
    settings.setValue(geometry_key, values.geometry);
    settings.setValue(layout_key, values.layout);
    settings.setValue(zoom_key, values.zoom);
    settings.setValue(theme_key_name, theme_key(values.theme));
}

QStringList remember_project(QStringList recent, const QString& root) {
    if (root.isEmpty()) return recent;
    recent.removeAll(root);
    recent.prepend(root);
    while (recent.size() > recent_projects_kept)
        recent.removeLast();
    return recent;
}

} // namespace rio::gui
