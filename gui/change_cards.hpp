// Every change the agent made, visible and reversible in the chat (DESIGN §14): a card per
// applied edit (agent.edit_applied) in the place of its trace line, a summary closing each
// turn that changed files or reported tokens, Undo per file and "Undo this turn" (agent.undo)
// while agent.checkpoints says they are possible, and Compare (agent.change, diff.lines) in a
// compare view of its own. A refused undo is said in the core's words, which name the files
// that changed since.
#pragma once

#include "client/events.hpp"

#include <QObject>
#include <QPointer>
#include <map>
#include <optional>
#include <vector>

namespace rio::gui {

class ChatTranscript;
class CompareView;
class EditCard;
class MainWindow;
class TurnSummary;

class ChangeCards : public QObject {
    Q_OBJECT
public:
    ChangeCards(MainWindow& window, ChatTranscript& transcript, QObject* parent = nullptr);

    // agent.edit_applied, agent.checkpoints, agent.undone, agent.reset; others pass by.
    void on_event(const client::CoreEvent& event);
    // The turn ended: its summary closes it, with `usage` (its tokens in words, or "").
    void end_turn(std::uint64_t turn, const QString& usage);
    // After a saved conversation was read back (a resume, its project opened again): each
    // turn the core can still undo gets its "Undo this turn" row again, at the end.
    void offer_kept_turns();

    void undo(std::uint64_t turn, const std::optional<QString>& path);
    void compare(const EditCard& card);

    // For tests and screenshots: the cards still shown, oldest first, and a turn's summary.
    std::vector<EditCard*> cards() const;
    TurnSummary* summary(std::uint64_t turn) const;
    CompareView* compare_view() const { return compare_view_; }

signals:
    void problem(const QString& text); // a request that failed, for the chat to show
    void compare_shown();

private:
    void add_card(const EditAppliedEvent& applied);
    // The turn's row: how many files it changed, `words` after them, Undo this turn.
    void add_summary(std::uint64_t turn, int files, const QString& words);
    void mark_undone(const UndoneEvent& undone);
    void show_undo_state(); // from the last agent.checkpoints
    bool undoable(std::uint64_t turn, const std::string& path) const;
    void forget_gone(); // cards and summaries the transcript cleared away

    MainWindow& window_;
    ChatTranscript& transcript_;
    CompareView* compare_view_;
    std::vector<QPointer<EditCard>> cards_;
    std::map<std::uint64_t, QPointer<TurnSummary>> summaries_;
    CheckpointsState checkpoints_;
};

} // namespace rio::gui
