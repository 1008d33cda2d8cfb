// Ctrl+Shift+F: the Search panel, tabbed with Files and Plans, over the core's project search
// (`fs.search`: .gitignore respected, open files searched as they are in the editor). A
// pattern, Regex and Match case toggles, and an optional glob for the files to look in;
// results grouped by file, each line with its number and the match marked. Clicking a line
// opens its file there with the match selected. It searches a moment after typing stops, and
// at once on Enter or a toggle; "more exist" and a pattern the core refuses are said in words.
#pragma once

#include <QDockWidget>
#include <optional>
#include <vector>

class QAbstractButton;
class QLabel;
class QLineEdit;
class QTimer;
class QTreeWidget;
class QTreeWidgetItem;

namespace rio {
struct FsSearchResult;
struct SourceLocation;
} // namespace rio

namespace rio::gui {

class MainWindow;

class SearchPanel : public QDockWidget {
    Q_OBJECT
public:
    explicit SearchPanel(MainWindow& window);

    // Shows the panel with the pattern field focused; a non-empty `pattern` replaces what
    // was there (the editor's selection) and is searched for.
    void start(const QString& pattern);
    void search(); // now, with what the fields say
    // Shift+F12: the places a language server names for `symbol`'s references, listed as
    // results are (a place outside the project is shown; opening it is refused).
    void show_references(const QString& symbol, const std::vector<SourceLocation>& places);

    QLineEdit* pattern_field() const { return pattern_; }
    QLineEdit* glob_field() const { return glob_; }
    QAbstractButton* regex_toggle() const;
    QAbstractButton* case_toggle() const;
    QTreeWidget* results() const { return results_; }
    QString status() const; // "3 matches in 2 files", the core's complaint, …
    bool searching() const { return searching_; }
    // Opens the file of a result line at its match; nothing for a file's row.
    void open_result(QTreeWidgetItem* item);

signals:
    void searched(); // an answer (results or an error) is shown

private:
    void show_results(const QString& pattern, const FsSearchResult& result);
    void show_status(const QString& text, bool problem);
    void select_pending(const QString& opened);

    MainWindow& window_;
    QLineEdit* pattern_;
    QAbstractButton* regex_;
    QAbstractButton* case_;
    QLineEdit* glob_;
    QLabel* status_;
    QTreeWidget* results_;
    QTimer* pause_;
    int generation_ = 0; // answers to a search since replaced are dropped
    bool searching_ = false;
    struct Target {
        QString path;
        int line = 1;
        long long column = 0, length = 0;
    };
    std::optional<Target> pending_; // a result whose file is being opened
};

} // namespace rio::gui
