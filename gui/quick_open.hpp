// Ctrl+P: a box over the top of the editor area with a field and a list of the project's
// files that fuzzily match what is typed (client/fuzzy_match), best first, matched characters
// marked. The files come from the core once (`fs.files`: .gitignore'd ones and `.git` left
// out) and again after `fs.changed`; matching runs here, on every keystroke, so results come
// as fast as typing. Up/Down move, Enter opens the file, Esc or a click elsewhere closes.
// The first list is asked for when a project is shown, after the tree's first folder.
// Starting with `@` lists the current file's symbols instead (lsp.symbols), matched the same
// way; Enter goes to the chosen one.
#pragma once

#include "client/events.hpp"

#include <QFrame>
#include <string>
#include <vector>

class QLabel;
class QLineEdit;
class QListWidget;

namespace rio::gui {

class CoreClient;

class QuickOpen : public QFrame {
    Q_OBJECT
public:
    // Floats over `over` (the centre of the window), which it follows in size.
    QuickOpen(CoreClient& core, QWidget* over);

    // Shows the box with an empty field focused, listing the files first if needed.
    void open_box();
    void close_box();
    // The file whose symbols `@` lists (the current editor's), or none.
    void set_symbol_file(const QString& path) { symbol_file_ = path; }
    // Another project is shown (`open`), or none: forgets the files, and lists the new
    // project's at once, so that the first Ctrl+P finds them ready.
    void follow_project(bool open);

    QLineEdit* field() const { return field_; }
    QListWidget* list() const { return list_; }
    QString status() const;    // "Listing the project's files…", "No file matches …", or ""
    QStringList shown() const; // the listed paths, top first
    bool listing() const { return listing_; }
    std::size_t file_count() const { return files_.size(); }

signals:
    void file_chosen(const QString& path); // project-relative
    // A symbol after `@`: its file, line (from 1) and byte column.
    void place_chosen(const QString& path, qulonglong line, qulonglong column);
    void listed(); // an fs.files answer arrived and is matched

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void on_event(const client::CoreEvent& event);
    void list_files();
    void list_symbols();
    void match();
    void match_symbols(const std::string& query);
    void choose();
    void move_selection(int rows);
    void place();

    CoreClient& core_;
    QWidget* over_;
    QLineEdit* field_;
    QListWidget* list_;
    QLabel* status_;
    QWidget* back_ = nullptr; // had the focus before the box opened
    std::vector<std::string> files_;
    bool truncated_ = false;
    bool stale_ = true;    // the project changed since the files were listed
    bool listing_ = false; // an fs.files is in flight
    int generation_ = 0;   // answers for an earlier project are dropped
    QString symbol_file_;
    QString symbols_for_; // the file symbols_ were listed for; "" until they are
    bool listing_symbols_ = false;
    QString symbols_problem_; // why the server could not list them
    std::vector<SymbolInfo> symbols_;
    std::vector<std::string> symbol_names_;
};

} // namespace rio::gui
