// How code looks in rio: one monospace font for every lexer style and the margins, and the
// theme's colours on the paper, the margins, the caret line and every style of the lexer.
// Kept apart from CodeEditor so other views (compare, plan sources) can share it.
#pragma once

#include <QFont>

class QsciLexer;
class QsciScintilla;

namespace rio::gui {

struct ThemeColours;

QFont editor_font();

// Every character as wide as every other, judged by the glyphs themselves.
bool is_monospace(const QFont& font);

// Every style of the lexer in `font`'s family and size, keeping each style's bold/italic.
// Must run before the lexer is set on an editor.
void style_lexer(QsciLexer& lexer, const QFont& font);

// Margins (line numbers), caret line, braces, indentation and scrolling.
void style_editor(QsciScintilla& editor, const QFont& font);

// The theme's colours on the editor and its lexer (set first): paper, text, margins, caret,
// selection, and each style's colour — the lexer's own for a light theme, the same hues made
// to read on dark paper for a dark one.
void colour_code(QsciScintilla& editor, const ThemeColours& colours);

} // namespace rio::gui
