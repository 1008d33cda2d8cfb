// Keeps typing fast at the end of large files (docs/decisions/0011): while no assistive
// technology is active, QScintilla editors get Qt's plain widget accessible instead of
// QScintilla's own, which counts every character up to the caret on each UI update.
#pragma once

namespace rio::gui {

// Idempotent; call after a QScintilla widget exists (QScintilla installs its factory then).
void prefer_light_editor_accessibility();

} // namespace rio::gui
