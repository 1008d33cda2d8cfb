#include "gui/editor_style.hpp"

#include "gui/git_margin.hpp"
#include "gui/theme.hpp"

#include <QColor>
#include <QFontDatabase>
#include <QFontMetricsF>
#include <Qsci/qscilexer.h>
#include <Qsci/qsciscintilla.h>

namespace rio::gui {

bool is_monospace(const QFont& font) {
    // By the glyphs, not by QFontInfo::fixedPitch(): fontconfig lists no spacing for some
    // monospace fonts (Noto Sans Mono among them), and Qt then calls them proportional.
    QFontMetricsF metrics(font);
    qreal narrow = metrics.horizontalAdvance(QStringLiteral("iiiiiiiiii"));
    qreal wide = metrics.horizontalAdvance(QStringLiteral("WWWWWWWWWW"));
    return narrow > 0 && qAbs(narrow - wide) < 0.5;
}

QFont editor_font() {
    // The platform's fixed font when it names one; fontconfig's "monospace" otherwise (the
    // offscreen platform has no theme, and its default is proportional).
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    if (!is_monospace(font) || font.family().isEmpty()) font = QFont(QStringLiteral("monospace"));
    font.setStyleHint(QFont::Monospace);
    font.setFixedPitch(true);
    font.setPointSize(10);
    return font;
}

void style_lexer(QsciLexer& lexer, const QFont& font) {
    lexer.setDefaultFont(font);
    // Lexers pick their own faces per style (often proportional ones): override the family
    // and size, keep the emphasis. 128 covers every lexer style and the predefined ones.
    for (int style = 0; style < 128; ++style) {
        QFont styled = lexer.font(style);
        styled.setFamily(font.family());
        styled.setStyleHint(QFont::Monospace);
        styled.setFixedPitch(true);
        styled.setPointSize(font.pointSize());
        lexer.setFont(styled, style);
    }
}

void style_editor(QsciScintilla& editor, const QFont& font) {
    editor.setMarginType(0, QsciScintilla::NumberMargin);
    editor.setMarginLineNumbers(0, true);
    editor.setMarginsFont(font);
    editor.setMarginWidth(1, 0); // no symbol margin until something puts markers there
    // The git marks' margin, beside the text (gui/git_margin): there from the open, so the
    // text never shifts when the first mark comes; a click there offers the mark's change.
    editor.setMarginType(git_margin, QsciScintilla::SymbolMargin);
    editor.setMarginMarkerMask(git_margin, (1 << git_added_marker) | (1 << git_changed_marker) |
                                               (1 << git_deleted_marker));
    editor.setMarginWidth(git_margin, 6);
    editor.setMarginSensitivity(git_margin, true);
    editor.SendScintilla(QsciScintillaBase::SCI_SETMARGINLEFT, 0UL, 4L);

    editor.setCaretLineVisible(true);
    editor.setCaretWidth(2);
    editor.setBraceMatching(QsciScintilla::SloppyBraceMatch);

    editor.setTabWidth(4);
    editor.setIndentationWidth(0); // follows the tab width
    editor.setAutoIndent(true);
    editor.setIndentationGuides(true);
    editor.setWrapMode(QsciScintilla::WrapNone);
    // The horizontal scroll range follows the longest line seen, not a fixed 2000 px (the
    // code editor starts it at its text area's width: CodeEditor::floor_scroll_width).
    editor.SendScintilla(QsciScintillaBase::SCI_SETSCROLLWIDTH, 1UL);
    editor.SendScintilla(QsciScintillaBase::SCI_SETSCROLLWIDTHTRACKING, 1UL);
    editor.setFrameShape(QFrame::NoFrame);
}

namespace {

// Scintilla's own styles after the lexers' (STYLE_LINENUMBER … STYLE_FOLDDISPLAYTEXT): the
// editor's calls below colour them, not the lexer.
bool predefined_style(int style) {
    return style >= 33 && style <= 39;
}

void colour_lexer(QsciLexer& lexer, const ThemeColours& colours) {
    // A lexer's defaults for styles it does not name are its default colour and paper, so
    // those go back to what the lexer was made with before its light colours are read.
    lexer.setDefaultColor(Qt::black);
    lexer.setDefaultPaper(Qt::white);
    const QColor light_paper = lexer.defaultPaper(0);
    for (int style = 0; style < 128; ++style) {
        if (predefined_style(style)) continue;
        const QColor color = lexer.defaultColor(style);
        const QColor paper = lexer.defaultPaper(style);
        if (!colours.dark) {
            lexer.setColor(color, style);
            lexer.setPaper(paper, style);
            continue;
        }
        const bool plain = color == QColor(Qt::black);
        lexer.setColor(plain ? colours.text : dark_variant(color, false), style);
        lexer.setPaper(paper == light_paper ? colours.paper : dark_variant(paper, true), style);
    }
    lexer.setDefaultColor(colours.text);
    lexer.setDefaultPaper(colours.paper);
}

} // namespace

void colour_code(QsciScintilla& editor, const ThemeColours& colours) {
    if (QsciLexer* lexer = editor.lexer()) colour_lexer(*lexer, colours);
    editor.setPaper(colours.paper);
    editor.setColor(colours.text);
    editor.setMarginsBackgroundColor(colours.margin_background);
    editor.setMarginsForegroundColor(colours.margin_text);
    editor.setCaretForegroundColor(colours.caret);
    editor.setCaretLineBackgroundColor(colours.caret_line);
    editor.setMatchedBraceBackgroundColor(colours.matched_brace);
    editor.setMatchedBraceForegroundColor(colours.text);
    editor.setUnmatchedBraceForegroundColor(colours.error_text);
    editor.setIndentationGuidesForegroundColor(colours.indent_guide);
    editor.setIndentationGuidesBackgroundColor(colours.paper);
    // The selection shows under the text: the code keeps its colours in it.
    editor.setSelectionBackgroundColor(colours.selection);
    editor.SendScintilla(QsciScintillaBase::SCI_SETSELFORE, 0UL, 0L);
}

} // namespace rio::gui
