// The git change marks in each editor's margin (issue 47, decision 0092): lines added since
// HEAD green, changed blue, a red triangle where lines were deleted — against the buffer's
// text as it is, unsaved edits included. Asked again (git.marks) after every change of the
// buffer, the disk or the window's focus (a commit made in a terminal), one question in flight
// per file. Clicking a mark offers to revert its change (one undo step) or to compare the
// file with HEAD.
#pragma once

#include "protocol/messages.hpp"

#include <QObject>
#include <QString>
#include <map>
#include <vector>

class QsciScintilla;

namespace rio::gui {

class MainWindow;

inline constexpr int git_margin = 2;
inline constexpr int git_added_marker = 23, git_changed_marker = 24, git_deleted_marker = 25;

// The margin's markers for `hunks`, replacing those drawn before.
void draw_git_marks(QsciScintilla& editor, const std::vector<GitMarkHunk>& hunks);
// The hunk whose mark is on `line` (from 0), or nullptr.
const GitMarkHunk* hunk_at(const std::vector<GitMarkHunk>& hunks, long line, long line_count);
// Puts HEAD's lines of `hunk` back in place of the buffer's, as one undo step.
void revert_hunk(QsciScintilla& editor, const GitMarkHunk& hunk);

class GitMargin : public QObject {
    Q_OBJECT
public:
    explicit GitMargin(MainWindow& window);

    // Asks again for this open file (a request in flight is followed by one more).
    void refresh(const QString& path);
    void refresh_all();
    // The marks drawn for an open file, for tests; nullptr before the first answer.
    const GitMarksResult* marks(const QString& path) const;
    // Reverts the change marked on `line` (from 0). False, saying why in the status bar, when
    // no mark is there or the marks are not yet those of the text shown.
    bool revert(const QString& path, long line);

signals:
    void compare_requested(const QString& path);
    void message(const QString& text);
    void marks_drawn(const QString& path); // for tests: an answer was drawn

private:
    struct File {
        GitMarksResult marks;
        bool answered = false;
        bool asking = false;
        bool again = false;
    };
    void ask(const QString& path);
    void on_margin_click(const QString& path, long line);

    MainWindow& window_;
    std::map<QString, File> files_;
};

} // namespace rio::gui
