// What Settings' two servers pages share (language servers, MCP servers): a note above, the
// problems the core found in the config files, the servers as rows — name, where it comes
// from, its state in words, lines beneath it — an optional pane below for the selected one,
// and Restart for it. The pages turn the core's lists into rows and ask for the restart.
#pragma once

#include <QString>
#include <QWidget>
#include <string>
#include <utility>
#include <vector>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace rio::gui {

struct ServerRow {
    QString name, from, state;
    std::vector<std::pair<QString, QString>> lines; // beneath it: a name and its words
};

enum class NoteShown { always, when_empty };

class ServersList : public QWidget {
    Q_OBJECT
public:
    // `below` (may be null) is the selected server's pane; the list takes it.
    ServersList(const QString& note, NoteShown shown, const QString& accessible_name,
                QWidget* below, QWidget* parent = nullptr);

    // Keeps the selection by name.
    void show_rows(const std::vector<ServerRow>& rows, const std::vector<std::string>& problems);
    void show_problem(const std::string& message); // a restart the core refused
    QString selected() const;                      // "" for none

    QLabel* note() const { return note_; }
    QLabel* problems() const { return problems_; }
    QTreeWidget* list() const { return list_; }
    QPushButton* restart_button() const { return restart_; }

signals:
    void selection_changed();
    void restart_asked(const QString& name);

private:
    NoteShown shown_;
    QLabel* note_;
    QLabel* problems_;
    QTreeWidget* list_;
    QPushButton* restart_;
};

} // namespace rio::gui
