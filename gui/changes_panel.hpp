// The Changes panel, tabbed with Files, Plans, Search and Problems (issue 47): the project's
// files that differ from git's HEAD on disk (git.status) — modified, added, deleted, untracked —
// under a line that says what HEAD is. Clicking one opens the compare view of HEAD's text and
// the file as it is (unsaved edits included). Asked again when the disk changes, a file is
// saved, or the window comes back to the front (a commit made in a terminal).
#pragma once

#include "protocol/messages.hpp"

#include <QDockWidget>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace rio::gui {

class CompareView;
class MainWindow;

class ChangesPanel : public QDockWidget {
    Q_OBJECT
public:
    explicit ChangesPanel(MainWindow& window);

    void reload(); // git.status again (one in flight; one more after it when asked meanwhile)
    // The compare view of HEAD's text and the file's.
    void compare(const QString& path);

    QTreeWidget* list() const { return list_; }
    QString summary() const;
    CompareView* compare_view() const { return compare_view_; }

signals:
    void reloaded(); // for tests: an answer was shown
    void compared(); // for tests: the compare view shows a file
    void message(const QString& text);

private:
    void show_status(const GitStatusResult& status);

    MainWindow& window_;
    QLabel* summary_;
    QTreeWidget* list_;
    CompareView* compare_view_;
    bool asking_ = false;
    bool again_ = false;
};

} // namespace rio::gui
