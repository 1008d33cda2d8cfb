// The Problems panel, tabbed with Files, Plans and Search (DESIGN §21): what the language
// servers report, by file — errors, then warnings, then notes, each with its line and column —
// and a summary ("2 errors, 1 warning"). Clicking a problem opens its file there. It keeps the
// project's problems (client::Problems) from lsp.diagnostics and its events; the window draws
// them into the editors from here.
#pragma once

#include "client/events.hpp"
#include "client/problems.hpp"

#include <QDockWidget>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace rio::gui {

class MainWindow;

class ProblemsPanel : public QDockWidget {
    Q_OBJECT
public:
    explicit ProblemsPanel(MainWindow& window);

    const client::Problems& problems() const { return problems_; }
    QTreeWidget* list() const { return list_; }
    QString summary() const; // what the panel's header says
    // Opens the problem's file at its place; nothing for a file's row.
    void open_problem(QTreeWidgetItem* item);
    void reload(); // lsp.diagnostics, after a project was shown

signals:
    void file_changed(const QString& path); // its problems changed: the editors redraw it

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void on_event(const client::CoreEvent& event);
    void show_all();

    MainWindow& window_;
    client::Problems problems_;
    QLabel* summary_;
    QTreeWidget* list_;
};

} // namespace rio::gui
