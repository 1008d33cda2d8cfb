#include "gui/text_find.hpp"

#include <QRegularExpression>
#include <QTextDocument>

namespace rio::gui {

QTextCursor TextFind::search(const FindOptions& options, QTextCursor from, bool backward,
                             bool& bad) {
    QTextDocument* document = view_->document();
    QTextDocument::FindFlags flags;
    if (backward) flags |= QTextDocument::FindBackward;
    if (options.match_case) flags |= QTextDocument::FindCaseSensitively;
    if (options.whole_word) flags |= QTextDocument::FindWholeWords;
    QRegularExpression expression;
    if (options.regex) {
        // The expression's own option decides the case; FindCaseSensitively is ignored.
        expression = QRegularExpression(
            options.text, options.match_case ? QRegularExpression::NoPatternOption
                                             : QRegularExpression::CaseInsensitiveOption);
        if (!expression.isValid()) {
            bad = true;
            return {};
        }
    }
    for (;;) {
        QTextCursor found = options.regex ? document->find(expression, from, flags)
                                          : document->find(options.text, from, flags);
        if (found.isNull() || found.hasSelection()) return found;
        // An empty match selects nothing: look past it.
        const int past = found.position() + (backward ? -1 : 1);
        if (past < 0 || past >= document->characterCount()) return {};
        from = QTextCursor(document);
        from.setPosition(past);
    }
}

Found TextFind::find(const FindOptions& options, Step step) {
    if (!view_ || options.text.isEmpty()) return Found::none;
    if (before_) before_();
    QTextDocument* document = view_->document();
    const QTextCursor selection = view_->textCursor();
    const bool backward = step == Step::previous;
    QTextCursor from(document);
    // Forwards the search starts after `from`'s selection, backwards before it.
    if (step == Step::from_selection_start)
        from.setPosition(selection.selectionStart());
    else
        from = selection;
    bool bad = false;
    QTextCursor found = search(options, from, backward, bad);
    if (found.isNull() && !bad) {
        QTextCursor wrapped(document);
        if (backward) wrapped.movePosition(QTextCursor::End);
        found = search(options, wrapped, backward, bad);
    }
    if (bad) return Found::bad_pattern;
    if (found.isNull()) return Found::none;
    view_->setTextCursor(found);
    view_->ensureCursorVisible();
    return Found::match;
}

FindCount TextFind::count(const FindOptions& options, int cap) {
    FindCount counted;
    if (!view_ || options.text.isEmpty()) return counted;
    if (before_) before_();
    const QTextCursor selection = view_->textCursor();
    bool bad = false;
    QTextCursor at(view_->document());
    for (;;) {
        at = search(options, at, false, bad);
        if (at.isNull()) break;
        if (counted.total == cap) {
            counted.capped = true;
            break;
        }
        ++counted.total;
        if (at.selectionStart() == selection.selectionStart() &&
            at.selectionEnd() == selection.selectionEnd())
            counted.current = counted.total;
    }
    return counted;
}

QString TextFind::selected_text() const {
    if (!view_) return {};
    const QString text = view_->textCursor().selectedText();
    // Paragraph and line separators: a selection over more than one line.
    return text.contains(QChar(0x2029)) || text.contains(QChar(0x2028)) ? QString() : text;
}

} // namespace rio::gui
