// The line that closes a turn in the chat (DESIGN §14, issue 15): how many files it changed
// and what it took ("2 files changed · 1,234 tokens in · 56 out"), with "Undo this turn" while
// its changes can still be put back.
#pragma once

#include <QFrame>

class QLabel;
class QPushButton;

namespace rio::gui {

class TurnSummary : public QFrame {
    Q_OBJECT
public:
    explicit TurnSummary(std::uint64_t turn, QWidget* parent = nullptr);

    // `files`: how many files the turn changed (0 hides Undo this turn); `usage`: its tokens.
    void show_turn(int files, const QString& usage);
    // Whether its changes can still be undone, else why not; `done` once they were.
    void set_undo(bool possible, bool done, const QString& why = {});

    std::uint64_t turn() const { return turn_; }
    QString text() const;
    QPushButton* undo_button() const { return undo_; }

signals:
    void undo_requested();

private:
    std::uint64_t turn_;
    QLabel* label_;
    QPushButton* undo_;
    int files_ = 0;
};

} // namespace rio::gui
