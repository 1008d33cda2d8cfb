// The plan view (DESIGN §9, §13): a presented plan takes the editor area, header
// "Plan — <title> · <path>", rendered read-only with inactive links. Esc or × closes it
// (the decision stays pending); the approval bar's "Plan" button shows it again, repainted
// from the plan as it is now.
//
// While the plan waits for a decision the view carries it, in its header and at its foot:
// Approve ▾, Request changes (a one-line note, optional: Enter sends, Esc puts it away) and
// Edit plan; Ctrl+Enter approves reviewing each edit, Ctrl+Shift+Enter approves with
// auto-accept. The view only reports; the review flow sends the decision.
//
// Comments: select a passage, then Comment (the foot's button, the context menu or Ctrl+M)
// and type the comment (Enter adds it, Esc drops it). They are listed beside the plan,
// editable (double-click or Edit comment: the text opens in the same field) and removable
// until the decision, which carries them as they are then (agent.approve `comments`).
//
// Review threads (issue 44): the plan's comments as filed — carried from the plan it revises,
// answered by the model, replied to and resolved by a person — are listed above the new ones
// with their state and replies. Select one, type in the reply field (Enter sends) or Resolve.
// Approving while one is still open asks first, in a bar at the foot: Approve anyway or Back.
//
// Once approved (DESIGN §20) the view lists the plan's steps above it, their checkboxes
// following plans.progress as the agent reports: checked done, half-checked in progress,
// "(skipped)" with its note. The boxes are the agent's to tick, not the reader's.
#pragma once

#include "client/plan_revision.hpp"
#include "gui/reason_field.hpp"
#include "protocol/messages.hpp"

#include <QWidget>

class QBoxLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QToolButton;

namespace rio::gui {

class MarkdownView;
class PlanDecisions;
class ViewHeader;

class PlanView : public QWidget {
    Q_OBJECT
public:
    explicit PlanView(QWidget* parent = nullptr);

    // From agent.propose {kind: plan, title, plan, path}; `markdown` is the text to paint
    // (the proposal's plan, or the plan as it is now when reopened). `decidable`: the plan
    // waits for a decision, so the view offers one. `declared` (issue 43): the steps the model
    // declared, each with the files it may change and the check that proves it, painted
    // under the plan, so a person approves them with it.
    void show_plan(const QString& title, const QString& path, const QString& markdown,
                   bool decidable = true, const std::vector<DeclaredStep>& declared = {});
    void set_deciding(bool deciding);
    // The plan is decided or gone: its note and comments go, and the view offers no decision.
    void end_decision();
    bool decidable() const { return decidable_; }
    QString header_text() const;
    // The open project's folder: links to its files then open them (file_link_activated);
    // without one every link is inert.
    void set_project_root(const QString& root);
    MarkdownView* body() const { return body_; }
    PlanDecisions* header_decisions() const { return header_decisions_; }
    PlanDecisions* foot_decisions() const { return foot_decisions_; }
    ReasonField* feedback_field() const { return feedback_; }

    // A revision's lines marked against the plan it revises: the header then offers
    // "Changes since the previous plan", which paints them in place of the plan.
    void set_revision(std::vector<client::MarkedLine> marks);
    QToolButton* changes_button() const { return changes_; }

    // The comments made so far on this plan, in the order made.
    const std::vector<PlanComment>& comments() const { return comments_; }
    // Starts a comment on the body's selection; false when nothing is selected.
    bool start_comment();
    // Opens comment `row`'s text for editing; its passage stays. False when there is none.
    bool start_edit(int row);
    QLineEdit* comment_field() const { return comment_field_; }
    QListWidget* comment_list() const { return comment_list_; }
    QPushButton* comment_button() const { return comment_button_; }
    QPushButton* edit_comment_button() const { return edit_comment_; }
    QPushButton* remove_comment_button() const { return remove_comment_; }

    // The plan's review threads (proposal, plans.comments); another plan's are ignored.
    void set_threads(const QString& path, std::vector<ReviewComment> threads);
    const std::vector<ReviewComment>& threads() const { return threads_; }
    std::size_t open_threads() const;
    QListWidget* thread_list() const { return thread_list_; }
    QLineEdit* reply_field() const { return reply_field_; }
    QPushButton* resolve_button() const { return resolve_button_; }
    // Asks before an approval while comments are open: the bar at the foot says how many.
    void ask_to_approve(const QString& policy, bool fresh);
    QWidget* open_bar() const { return open_bar_; }
    QPushButton* approve_anyway_button() const { return approve_anyway_; }

    // plans.progress: the steps of this plan (another plan's progress is ignored).
    void set_progress(const PlanProgressEvent& progress);
    // The plan file's receipt (Markdown), painted under the plan when it is the one shown.
    void set_receipt(const QString& path, const QString& markdown);
    // What is painted below the plan's own text: its declared steps, then its receipt.
    QString appendix() const;
    QListWidget* step_list() const { return steps_; }

    // Whether the comments sit beside the plan (true) or under it, where the plan would be
    // too narrow to read beside them.
    bool comments_beside() const;

signals:
    void close_requested(); // Esc or ×
    void approve_requested(const QString& policy, bool fresh);
    void reject_requested(const QString& feedback);
    void edit_plan_requested();
    void file_link_activated(const QString& path, int line); // line 0: none given
    void link_refused(const QString& why);                   // in words, for the status bar
    void check_requested(quint64 step);                      // run a step's check again
    void reply_requested(const QString& id, const QString& text);
    void resolve_requested(const QString& id);
    void approve_confirmed(const QString& policy, bool fresh); // past the open comments

protected:
    void keyPressEvent(QKeyEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void arrange_comments();
    void join(PlanDecisions* decisions);
    void request_changes();
    void approve_by_key(const QString& policy);
    void add_comment();
    void put_comment_away();
    void remove_comment();
    void clear_comments();
    void show_comments();
    void show_threads();
    void show_side();
    void send_reply();
    QString selected_thread() const;
    void paint_body();
    void follow_link(const QUrl& url);

    ViewHeader* header_;
    MarkdownView* body_;
    PlanDecisions* header_decisions_;
    PlanDecisions* foot_decisions_;
    ReasonField* feedback_;
    QWidget* foot_;
    QLineEdit* comment_field_;
    QPushButton* comment_button_;
    QWidget* side_;
    QBoxLayout* middle_ = nullptr; // the plan and its comments
    QListWidget* comment_list_;
    QListWidget* steps_;
    QPushButton* edit_comment_;
    QPushButton* remove_comment_;
    QToolButton* changes_;
    std::vector<client::MarkedLine> revision_;
    QString markdown_;
    QString declared_;      // Markdown: the declared steps, "" when none
    QString receipt_;       // Markdown: the receipt, "" when none
    QString comment_quote_; // the passage the comment being typed is on
    int editing_ = -1;      // the comment whose text the field holds, or -1 for a new one
    std::vector<PlanComment> comments_;
    std::vector<ReviewComment> threads_;
    QListWidget* thread_list_;
    QLineEdit* reply_field_;
    QPushButton* resolve_button_;
    QWidget* threads_box_;
    QWidget* drafts_box_;
    QWidget* open_bar_;
    QLabel* open_label_;
    QPushButton* approve_anyway_;
    QString asked_policy_; // the approval the open bar waits to confirm
    bool asked_fresh_ = false;
    QString path_;
    QString root_;
    bool decidable_ = false;
    bool deciding_ = false;
};

} // namespace rio::gui
