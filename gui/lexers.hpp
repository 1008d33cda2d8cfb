// Syntax colouring by file name: which QScintilla lexer fits a path.
#pragma once

#include <QString>

class QObject;
class QsciLexer;

namespace rio::gui {

// A new lexer for the file's language, or nullptr for plain text. Chosen by file name
// (Makefile, CMakeLists.txt) and extension, case-insensitively.
QsciLexer* lexer_for(const QString& path, QObject* parent);

} // namespace rio::gui
