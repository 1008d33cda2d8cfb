// The chat (DESIGN §9): a right-hand side panel with the mode control, the provider strip
// and Clear on top, the transcript, the approval bar and the composer with its working
// indicator. It renders the core's agent.* events and sends what the person does as ops
// (agent.send, agent.stop, agent.reset, agent.mode.set, agent.autoaccept.set,
// agent.provider.set). The pending proposal, with its plan and compare views, is the review
// flow's; the applied changes' cards and undo are the change cards'.
#pragma once

#include "client/modes.hpp"
#include "client/plan_lookup.hpp"
#include "client/session.hpp"

#include <QDockWidget>
#include <QPointer>
#include <map>
#include <string>
#include <vector>

class QPushButton;

namespace rio::gui {

class ChangeCards;
class ChatTranscript;
class ContextMeter;
class Composer;
class MainWindow;
class ModeControl;
class ProviderStrip;
class ReviewFlow;
class WorkingIndicator;

class ChatDock : public QDockWidget {
    Q_OBJECT
public:
    explicit ChatDock(MainWindow& window);

    // What the person does, as the composer and the buttons do it.
    void send_message(const QString& text);
    // "Rewind to Here" on a message: asks, showing what changes, then rewinds (DESIGN §23).
    void rewind_to(std::uint64_t turn);
    void stop();
    void clear_conversation();
    // agent.compact: old tool outputs cleared, older turns summarized (DESIGN §18).
    void compact_conversation(const QString& instructions = QString());
    // Continues a saved session (agent.session.resume): its conversation replaces this one.
    void resume_session(const std::string& id);
    const client::Session& session() const { return session_; }

    ChatTranscript* transcript() const { return transcript_; }
    Composer* composer() const { return composer_; }
    ModeControl* mode_control() const { return mode_; }
    ProviderStrip* provider_strip() const { return provider_; }
    QPushButton* clear_button() const { return clear_; }
    ContextMeter* meter() const { return meter_; }
    ReviewFlow* review() const { return review_; }
    ChangeCards* changes() const { return changes_; }
    // "3/8 ▸ step text": the approved plan's progress (DESIGN §20); clicking it opens the plan,
    // whose checkboxes tick as the work goes on. Hidden without an approved plan.
    QPushButton* plan_line() const { return plan_line_; }
    WorkingIndicator* indicator() const;

signals:
    // Whether a model answers (any provider but echo), each time the state is shown.
    void model_connected(bool connected);

protected:
    // Shift+Tab anywhere in the chat cycles Plan → Review → Auto, however the window system
    // spells it (X11: Shift+ISO_Left_Tab, Key_Backtab with Shift; others: Backtab alone).
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void on_connected();
    // The conversation so far and the state, as the core has them now.
    void load_conversation();
    void on_event(const client::CoreEvent& event);
    void close_turn(std::uint64_t turn); // its summary: files changed, tokens, Undo this turn
    void show_state();
    void replay_history();
    // A call's result under its line: a command that ran becomes its card (the command, how
    // it ended, what it printed); other calls get their outcome's words.
    void show_result(const ToolResultEvent& result);
    void cycle_mode();
    void request_mode(client::ModeChoice choice);
    void load_providers();
    void switch_provider(const QString& name);
    void show_problem(const QString& text);
    void show_plan_of(const QString& call_id); // a "› plan …" line clicked
    // A plan line from the history: which filed plan it presented, from plans.list and then
    // plans.get on the plans filed under its title, newest first.
    void find_plan(const QString& call_id, const client::PresentedPlan& presented);
    void check_plan(const QString& call_id, const client::PresentedPlan& presented,
                    std::vector<std::string> candidates, std::size_t next);
    void open_plan_of(const QString& call_id, const std::string& path);

    MainWindow& window_;
    ModeControl* mode_;
    ProviderStrip* provider_;
    ContextMeter* meter_;
    QPushButton* clear_;
    ChatTranscript* transcript_;
    QPushButton* plan_line_;
    Composer* composer_;
    ReviewFlow* review_;
    ChangeCards* changes_;
    client::Session session_;
    std::map<QString, QString> plan_paths_; // present_plan call id → its plan file
    bool connected_before_ = false;         // a reconnection resumes the session shown
    std::uint64_t readings_ = 0;   // agent.history asked for; only the last answer is shown
    bool told_about_echo_ = false; // the note on connecting a model was shown
    QPointer<QWidget> echo_note_;  // that note, while echo is in use
};

} // namespace rio::gui
