// Text as the terminal may receive it (decision 0049). rio-cli prints text it did not write —
// a model's reply, a provider's error, a file name, a project's allow-list, a command's argv
// and output, a far core's stderr — and an ESC or a carriage return in it would let that
// text drive the terminal: move the cursor, erase what a person is being asked about,
// retitle the window; a line break in a name would put a line of its choosing on the screen
// ("plan approved"). So text from outside goes through terminal_safe (or shown(), its
// one-line form, for a field inside a line) where a line is built, and every line rio-cli
// writes passes terminal_output on its way out (issue 39).
#pragma once

#include <string>
#include <string_view>

namespace rio::md {

enum class Whitespace {
    inline_text, // tabs and line breaks become spaces, for a painter to fill lines with
    code,        // one line of code: tabs expand to stops of four columns
    block,       // lines kept: '\n' (and a CRLF's CR) and tabs stay as they are
    none,        // a name, a path, an argument: tabs and line breaks shown too (^I, ^J, ^M)
};

// Valid UTF-8 (each ill-formed sequence one U+FFFD), with every control character shown as
// visible text instead: ESC as `\e`, the other C0 controls and DEL in caret notation (`^M`
// for a carriage return, `^@` for NUL, `^?` for DEL), C1 controls and the bidirectional
// overrides and isolates (U+202A–U+202E, U+2066–U+2069, which reorder what is shown) as
// `\u009b`, `\u202e`.
std::string terminal_safe(std::string_view text, Whitespace whitespace);

// The one way out: what rio-cli writes (InteractiveSession::print, HeadlessRun's progress
// and answer) with rio's own styling — the SGR sequences of its palette, terminal.hpp's sgr
// and styled_line's runs — line breaks and tabs kept, and every other control shown as
// terminal_safe shows it. A field that reached a line without terminal_safe so cannot drive
// the terminal; it could still break the line, which only its own shown() prevents (and
// tests/unit/terminal_output_test.cpp looks for in every event field).
std::string terminal_output(std::string_view text);

} // namespace rio::md

namespace rio {

// One line of untrusted text — a name, a path, an argument, a message — safe to print, every
// control in it visible: terminal_safe with Whitespace::none.
std::string shown(std::string_view text);

// Whether terminal_safe would show `text` differently from its characters: it holds a
// control character (line breaks and tabs included) or a bidirectional override.
bool has_controls(std::string_view text);

} // namespace rio
