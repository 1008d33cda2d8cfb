// The icons of files and folders (issue 32 item 11): from the freedesktop icon theme
// (Debian's Adwaita when the desktop names none) by the file's MIME type, then rio's own
// language badges, then the theme's generic type, then plain text; Qt's own standard icons
// where the theme has nothing.
#pragma once

#include <QIcon>
#include <QString>

namespace rio::gui {

// Makes the freedesktop theme the icons come from: the desktop's, else Adwaita. Once, before
// the first icon is asked for.
void use_icon_theme();

// A file's icon by its name (what its extension says it holds), or a folder's.
QIcon file_icon(const QString& name, bool folder, bool link);

} // namespace rio::gui
