// What a language server says about an editor's text, drawn into it (DESIGN §21): a squiggle
// under each diagnostic's range and a dot on its line in a narrow margin that is there from the
// file's open, errors or none (the text never shifts when one comes), coloured by severity
// (errors red, warnings amber, the rest blue); and the diagnostics under a point, for the
// hover's tooltip. Positions are the protocol's: line from 1, column in UTF-8 bytes.
#pragma once

#include "protocol/messages.hpp"

#include <vector>

class QsciScintilla;

namespace rio::gui {

// Scintilla's container indicators (8 and up are free for an application) and markers.
inline constexpr int error_indicator = 20, warning_indicator = 21, note_indicator = 22;

int indicator_for(const Wire<Severity>& severity);

// Replaces what was drawn before. Ranges are held to the text as it is now.
void draw_diagnostics(QsciScintilla& editor, const std::vector<DiagnosticInfo>& list);

// The byte position of a protocol position in the editor's text, held to its line.
long editor_position(QsciScintilla& editor, std::uint64_t line, std::uint64_t column);

// Those whose range holds `position` (a byte offset), errors first.
std::vector<const DiagnosticInfo*>
diagnostics_at(QsciScintilla& editor, const std::vector<DiagnosticInfo>& list, long position);

} // namespace rio::gui
