// The chat's scrolling list (DESIGN §9): the person's messages, the agent's text streaming
// in as plain text and re-rendered as Markdown when its message completes, thinking (dimmed,
// folded to one line), a compact tool trace ("read src/app.cpp", failures marked with the
// first line of the error, a command's exit line), errors in red, short notes (stopped,
// decisions), applied edits' cards and turns' summaries. It only shows what it is given; the
// chat dock feeds it the core's events.
#pragma once

#include "client/trace_words.hpp"
#include "protocol/messages.hpp"

#include <QHash>
#include <QPointer>
#include <QScrollArea>

class QLabel;
class QVBoxLayout;

namespace rio::gui {

class ChatTranscript : public QScrollArea {
    Q_OBJECT
public:
    // What an entry is; also its widget's objectName, for tests and style sheets.
    enum class Entry {
        user,
        streaming,
        message,
        thinking,
        tool,
        error,
        note,
        edit,
        summary,
        command,
        subagent
    };

    explicit ChatTranscript(QWidget* parent = nullptr);

    // The person's message; the chat follows the conversation again from here, wherever it
    // had been scrolled to.
    // `turn`: the turn it began, once known; its context menu then offers Rewind to Here.
    void add_user(const QString& text, std::optional<std::uint64_t> turn = std::nullopt);
    // agent.send answered: the newest message of the person's began `turn`.
    void set_last_user_turn(std::uint64_t turn);
    void add_delta(const QString& text);    // agent.delta: appended to the streaming text
    void add_thinking(const QString& text); // agent.thinking: appended to the current block
    // agent.message: the streamed text becomes a Markdown message (`text` is the whole of it;
    // nothing is shown for a step that only called tools).
    void finish_message(const QString& text);
    void add_tool(const ToolEvent& tool);
    // What became of the call, under its line, in the words client::Session::outcome chose
    // (a rejected call's are the person's, not the model's).
    void add_tool_result(const ToolResultEvent& result, const client::ToolOutcome& outcome);
    // How far a call that runs on got, under its line until its result comes.
    void add_tool_progress(const ToolProgressEvent& progress);
    // A subagent's step (agent.subagent): its card under the task call, made at its first.
    void add_subagent(const SubagentEvent& event);
    void add_error(const QString& text);
    QWidget* add_note(const QString& text);
    // Takes an entry out (a note that no longer holds).
    void remove_entry(QWidget* entry);
    // An applied edit's card, in the place of its call's trace line (at the end when that
    // line is not here); `text` is the card's plain text for entry_text.
    void add_card(const QString& call_id, QWidget* card, const QString& text,
                  Entry kind = Entry::edit);
    // An entry the person unfolded: the chat stops following the newest entry and scrolls so
    // that as much of it as fits is in view, its top first.
    void reveal(QWidget* entry);
    // Another widget at the end: a turn's summary.
    void add_entry(QWidget* entry, Entry kind, const QString& text);
    // What entry_text says of a widget entry whose words changed.
    static void set_entry_text(QWidget* entry, const QString& text);
    void clear();

    // For tests: each entry's kind and plain text, in order.
    int entry_count() const;
    Entry entry_kind(int index) const;
    QString entry_text(int index) const;
    QWidget* entry_widget(int index) const;
    QStringList texts_of(Entry kind) const;

signals:
    // The "› plan …" line of a present_plan call was clicked: its call id.
    void plan_line_activated(const QString& call_id);
    // "Rewind to Here" on a message of the person's: the turn it began.
    void rewind_requested(std::uint64_t turn);

private:
    void append(QWidget* entry, Entry kind);
    // `entry` in the place of `old` (which goes), or at the end when `old` is not here.
    void replace(QWidget* old, QWidget* entry, Entry kind);
    void end_streaming(); // the next text starts a new block
    void follow_bottom();
    void show_revealed(); // as much of the entry reveal() was given as fits, its top first
    void show_outcome(QLabel* label); // a tool line with its outcome, in the theme's colours

    QWidget* list_;
    QVBoxLayout* layout_;
    QLabel* streaming_ = nullptr; // the agent's text of the current step, while it streams
    QString streamed_;
    QWidget* thinking_ = nullptr;        // the current thinking block
    QHash<QString, QLabel*> tools_;      // call id → its trace line
    QHash<QString, QWidget*> subagents_; // task call id → its subagent's card
    QPointer<QLabel> last_user_;         // the newest message of the person's
    bool at_bottom_ = true;              // keep showing the newest entry unless scrolled away
    QPointer<QWidget> revealing_;        // an unfolded entry kept in view until scrolled away from
    int revealed_at_ = -1;               // where show_revealed() scrolled to
};

} // namespace rio::gui
