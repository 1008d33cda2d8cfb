// Where the person writes to the agent: a multi-line input (Enter sends, Shift+Enter starts
// a new line), a Send button that becomes Stop while the agent works (Esc in the input stops
// too), and a line saying what the agent is doing. Sending waits for a connected core.
#pragma once

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace rio::gui {

class Composer : public QWidget {
    Q_OBJECT
public:
    explicit Composer(QWidget* parent = nullptr);

    void set_connected(bool connected);
    // From agent.status: busy (a turn runs) and waiting (it waits for a decision).
    void set_busy(bool busy, bool waiting);
    bool busy() const { return busy_; }

    QString text() const;
    void set_text(const QString& text); // puts a message back when it could not be sent
    QPlainTextEdit* input() const { return input_; }
    QPushButton* send_button() const { return button_; }
    QString activity() const; // the busy line's text, "" when idle

signals:
    void send_requested(const QString& text);
    void stop_requested();

private:
    void send();
    void press_button();
    void update_state();

    QPlainTextEdit* input_;
    QPushButton* button_;
    QLabel* activity_;
    bool connected_ = false;
    bool busy_ = false;
    bool waiting_ = false;
};

} // namespace rio::gui
