// rio's own file-type icons (issue 32 item 11): a coloured tile with a language's short
// name, drawn rather than shipped as image files. Freedesktop themes give a file a type icon
// only where they have one — Debian's Adwaita has a single page for every source file — so
// these are the bundled fallback that tells a .py from a .cpp in any theme.
#pragma once

#include <QIcon>
#include <QString>

namespace rio::gui {

// What a file's name says about its kind: the whole name, lower-cased, where a language
// claims it whole ("makefile", "cmakelists.txt"), else its extension (".cpp"), else the name.
QString kind_of_name(const QString& name);

// The badge of the language a kind (as kind_of_name says it) belongs to; a null icon for a
// kind no language claims.
QIcon language_badge(const QString& kind);

} // namespace rio::gui
