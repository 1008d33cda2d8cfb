// rio's Qt painter of the shared Markdown model (DESIGN §2, "md4c model, Qt painter"): the
// blocks and spans of rio::md as a QTextDocument built with QTextCursor — block and char
// formats, QTextList, QTextTable, frames for code and quotes. It never hands Markdown or HTML
// to Qt's own importers, so the plan view, the manual and the terminal read one model.
#pragma once

#include "text/markdown.hpp"

#include <QColor>
#include <QFont>
#include <memory>

class QPalette;
class QTextDocument;

namespace rio::gui {

// How painted Markdown looks: fonts, colours and spacing, derived from the widget's palette
// and font so a dark theme stays readable.
struct MarkdownLook {
    QFont prose; // paragraphs, lists, tables, headings (scaled)
    QFont code;  // code blocks and inline code
    QColor text;
    QColor muted;             // quotes, the sixth heading level
    QColor link;              // links: this colour, underlined
    QColor code_background;   // code blocks
    QColor inline_background; // inline code: a lighter tint
    QColor quote_background;
    QColor border;            // tables, code blocks
    QColor header_background; // a table's header row
    int line_height = 145;    // percent of the font's line spacing, for prose
    int margin = 28;          // around the document, in pixels
    int readable_width = 860; // widest the text column gets, in pixels (the view centres it)
    // Inline code wraps only at its spaces (a chat bubble: "--" on one line and "shout" on the
    // next misleads). Word joiners hold it together; a view that sets this strips them from
    // what it copies (without_joiners).
    bool unbreakable_inline_code = false;
};

// `text` without the word joiners unbreakable inline code put between its characters.
QString without_joiners(QString text);

// rio's look for a widget with `palette` and `ui_font` (the application's font).
MarkdownLook markdown_look(const QPalette& palette, const QFont& ui_font);
// Only the colours of `look`, from `palette` (the theme changed; fonts and spacing stay).
void colour_look(MarkdownLook& look, const QPalette& palette);

// Replaces everything in `into` with `document` painted in `look`. Headings carry their
// anchor as an anchor name (QTextCharFormat::anchorNames), links their href.
void paint_markdown(QTextDocument& into, const md::Block& document, const MarkdownLook& look);

// The same painting a few top-level blocks at a time, so that a long document can be shown
// before all of it is painted: what is painted so far is always the beginning, whole blocks.
// `into` must outlive the painter.
class MarkdownPainter {
public:
    MarkdownPainter(QTextDocument& into, md::Block document, const MarkdownLook& look);
    ~MarkdownPainter();
    MarkdownPainter(const MarkdownPainter&) = delete;
    MarkdownPainter& operator=(const MarkdownPainter&) = delete;

    // Paints top-level blocks until `characters` more are in the document, or all are; true
    // when all are.
    bool paint_some(int characters);
    bool done() const;

private:
    struct State;
    std::unique_ptr<State> state_;
};

} // namespace rio::gui
