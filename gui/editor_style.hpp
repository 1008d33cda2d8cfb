// How code looks in rio: one monospace font for every lexer style and the margins, quiet
// margin and caret-line colours. Kept apart from CodeEditor so other views (compare, plan
// sources) can share it.
#pragma once

#include <QFont>

class QsciLexer;
class QsciScintilla;

namespace rio::gui {

QFont editor_font();

// Every character as wide as every other, judged by the glyphs themselves.
bool is_monospace(const QFont& font);

// Every style of the lexer in `font`'s family and size, keeping each style's bold/italic.
// Must run before the lexer is set on an editor.
void style_lexer(QsciLexer& lexer, const QFont& font);

// Margins (line numbers), caret line, braces, indentation and scrolling.
void style_editor(QsciScintilla& editor, const QFont& font);

} // namespace rio::gui
