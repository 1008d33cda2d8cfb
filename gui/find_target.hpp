// What the find bar searches: one view's text (the code editor, or a rendered Markdown
// view). The bar owns the words and the toggles; each target finds with its own widget's
// search (QScintilla's, QTextDocument's) and selects what it found, so the person sees the
// match where it is.
#pragma once

#include <QString>

class QWidget;

namespace rio::gui {

struct FindOptions {
    QString text;
    bool regex = false;
    bool match_case = false;
    bool whole_word = false;
};

enum class Found { match, none, bad_pattern };

// Where the selected match stands among all of them; counting stops at `cap`.
struct FindCount {
    int current = 0; // 1-based; 0 when the selection is not a match
    int total = 0;
    bool capped = false; // there are more than `total`
};

class FindTarget {
public:
    virtual ~FindTarget() = default;

    enum class Step { from_selection_start, next, previous };
    // Selects the nearest match in the direction of `step`, wrapping at either end.
    // from_selection_start keeps a match that starts where the selection does (typing in
    // the field extends the match in place).
    virtual Found find(const FindOptions& options, Step step) = 0;
    virtual FindCount count(const FindOptions& options, int cap) = 0;
    // Text the find field starts with: the selection when it is one line.
    virtual QString selected_text() const = 0;
    virtual QWidget* widget() const = 0; // gets the focus back when the bar closes; may be null
    // Esc typed in the widget closes the bar (the editor, as in VS Code); the rendered views
    // keep their Esc, which closes the view.
    virtual bool escape_closes_bar() const { return false; }

    virtual bool can_replace() const { return false; }
    // Replaces the selection when it is a match, then selects the next one.
    virtual Found replace(const FindOptions&, const QString&) { return Found::none; }
    // Every match, as one undo step; how many were replaced.
    virtual int replace_all(const FindOptions&, const QString&) { return 0; }
};

} // namespace rio::gui
