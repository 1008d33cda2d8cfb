// The decision a proposed edit waits for, on the compare view that shows it (DESIGN §14):
// Approve (Ctrl+Enter), Approve the rest of this turn (Ctrl+Shift+Enter: this edit and the
// turn's later edits, never its commands or plans) and Reject, with an optional reason. It
// only reports presses; the review flow sends the decision.
#pragma once

#include <QWidget>

class QPushButton;

namespace rio::gui {

class ReasonField;

class EditDecisions : public QWidget {
    Q_OBJECT
public:
    explicit EditDecisions(QWidget* parent = nullptr);

    void set_deciding(bool deciding); // a decision is on its way: the buttons wait
    void reset();                     // a new edit: no reason half written

    QPushButton* approve_button() const { return approve_; }
    QPushButton* approve_rest_button() const { return approve_rest_; }
    QPushButton* reject_button() const { return reject_; }
    ReasonField* reason_field() const { return reason_; }

signals:
    void approve_requested(bool rest_of_turn);
    void reject_requested(const QString& reason);

private:
    void press_reject();

    QPushButton* approve_;
    QPushButton* approve_rest_;
    QPushButton* reject_;
    ReasonField* reason_;
};

} // namespace rio::gui
