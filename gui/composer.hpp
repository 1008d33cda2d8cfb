// Where the person writes to the agent: a multi-line input (Enter sends, Shift+Enter starts
// a new line), a Send button that becomes Stop while the agent works (Esc in the input stops
// too), and beside it the working indicator, saying what the agent is doing and for how
// long. Sending waits for a connected core.
#pragma once

#include "protocol/messages.hpp"

#include <QWidget>

class QCompleter;
class QPlainTextEdit;
class QPushButton;
class QStandardItemModel;

namespace rio::gui {

class WorkingIndicator;

class Composer : public QWidget {
    Q_OBJECT
public:
    explicit Composer(QWidget* parent = nullptr);

    void set_connected(bool connected);
    // From agent.status: a turn runs.
    void set_busy(bool busy);
    bool busy() const { return busy_; }

    QString text() const;
    void set_text(const QString& text); // puts a message back when it could not be sent
    QPlainTextEdit* input() const { return input_; }
    QPushButton* send_button() const { return button_; }
    WorkingIndicator* indicator() const { return indicator_; }
    // What the indicator says the agent is doing ("Reading greet.py"), "" when idle; or that
    // there is no core.
    QString activity() const;
    // The user's and the project's commands (DESIGN §23): typing '/' lists them, and picking
    // one puts "/NAME " in the input for its arguments.
    void set_commands(const std::vector<CommandInfo>& commands);
    QCompleter* command_completer() const { return completer_; }

signals:
    void send_requested(const QString& text);
    void stop_requested();
    // The input became "/": the list of commands is wanted, fresh.
    void commands_wanted();

private:
    void send();
    void press_button();
    void update_state();
    void complete_command();

    QPlainTextEdit* input_;
    QStandardItemModel* commands_;
    QCompleter* completer_;
    QPushButton* button_;
    WorkingIndicator* indicator_;
    bool connected_ = false;
    bool busy_ = false;
};

} // namespace rio::gui
