#include "gui/editor_style.hpp"

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
    editor.setMarginsBackgroundColor(QColor(0xf3, 0xf3, 0xf3));
    editor.setMarginsForegroundColor(QColor(0x8c, 0x8c, 0x8c));
    editor.setMarginWidth(1, 0); // no symbol margin until something puts markers there
    editor.SendScintilla(QsciScintillaBase::SCI_SETMARGINLEFT, 0UL, 4L);

    editor.setCaretLineVisible(true);
    editor.setCaretLineBackgroundColor(QColor(0xf4, 0xf7, 0xfc));
    editor.setCaretWidth(2);
    editor.setBraceMatching(QsciScintilla::SloppyBraceMatch);
    editor.setMatchedBraceBackgroundColor(QColor(0xd8, 0xe8, 0xd0));

    editor.setTabWidth(4);
    editor.setIndentationWidth(0); // follows the tab width
    editor.setAutoIndent(true);
    editor.setIndentationGuides(true);
    editor.setWrapMode(QsciScintilla::WrapNone);
    // The horizontal scroll range follows the longest line seen, not a fixed 2000 px.
    editor.SendScintilla(QsciScintillaBase::SCI_SETSCROLLWIDTH, 1UL);
    editor.SendScintilla(QsciScintillaBase::SCI_SETSCROLLWIDTHTRACKING, 1UL);
    editor.setFrameShape(QFrame::NoFrame);
}

} // namespace rio::gui
