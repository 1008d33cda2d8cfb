// The approval bar at the foot of the chat (DESIGN §6, §9): what is waiting for the person
// and the buttons to decide it. It shows a proposal and reports clicks; the review flow
// sends the decisions and dismisses the bar when the core says the proposal is gone.
//
// Keyboard (real buttons, in tab order; the shortcuts work anywhere in the window while the
// bar is up):
//   Alt+A  Approve. For a plan it opens the menu: R = "Approve — review each edit",
//          A = "Approve — auto-accept edits". For a command it is Run.
//   Alt+R  Reject: shows a one-line reason field (optional); Enter (or Reject again) sends
//          the rejection, Esc puts the field away.
//   Alt+E  Edit plan: opens the filed plan in the editor (the decision stays pending).
//   Alt+P  Plan: shows the plan view again, repainted from the plan as it is now.
//   Alt+C  Compare: shows an edit side by side.
//   Alt+O  Other ways to run a sandboxed command, this once: H = "Run with the network to
//          those hosts" and L = "… and allow them always" when it asks for hosts (issue 45),
//          N = "Run with the network" (still sandboxed), W = "Run without the sandbox"
//          (DESIGN §19), E = "Run with my environment" (the variables that look like secrets
//          too; decision 0071).
#pragma once

#include "gui/proposal_summary.hpp"
#include "gui/reason_field.hpp"
#include "gui/wrapping_text.hpp"

#include <QFrame>

class QLabel;
class QMenu;
class QPushButton;

namespace rio::gui {

class ApprovalBar : public QFrame {
    Q_OBJECT
public:
    explicit ApprovalBar(QWidget* parent = nullptr);

    void show_proposal(const BarContent& content);
    void dismiss();
    // A decision is on its way to the core: the buttons wait for its answer.
    void set_deciding(bool deciding);
    bool showing() const { return !isHidden(); }

    // For tests and the demo: the parts, as a person reaches them.
    QLabel* heading() const { return heading_; }
    WrappingText* detail() const { return detail_; }
    QPushButton* approve_button() const { return approve_; }
    QMenu* approve_menu() const { return approve_menu_; }
    QAction* approve_review_action() const { return approve_review_; }
    QAction* approve_auto_action() const { return approve_auto_; }
    QPushButton* reject_button() const { return reject_; }
    ReasonField* reason_field() const { return reason_; }
    QPushButton* edit_plan_button() const { return edit_plan_; }
    QPushButton* plan_button() const { return plan_; }
    QPushButton* compare_button() const { return compare_; }
    QPushButton* widen_button() const { return widen_; }
    QAction* run_with_network_action() const { return with_network_; }
    QAction* run_with_hosts_action() const { return with_hosts_; }
    QAction* run_with_hosts_always_action() const { return with_hosts_always_; }
    QAction* run_unsandboxed_action() const { return unsandboxed_; }
    QAction* run_with_environment_action() const { return with_environment_; }

signals:
    void approve_requested(const QString& policy); // "" (edit, command), "review", "auto"
    void reject_requested(const QString& feedback);
    void edit_plan_requested();
    void plan_requested();
    void compare_requested();
    // A sandboxed command, this one call: with the network, or without the sandbox.
    void approve_command_requested(bool network, bool unsandboxed, bool environment);
    // A sandboxed command, with the network to the hosts it asked for; `always`: kept.
    void approve_hosts_requested(bool always);

private:
    void press_approve();
    void press_reject();

    QLabel* heading_;
    WrappingText* detail_;
    QPushButton* approve_;
    QMenu* approve_menu_;
    QAction* approve_review_;
    QAction* approve_auto_;
    QPushButton* reject_;
    QPushButton* edit_plan_;
    QPushButton* plan_;
    QPushButton* compare_;
    QPushButton* widen_;
    QMenu* widen_menu_;
    QAction* with_hosts_;
    QAction* with_hosts_always_;
    QAction* with_network_;
    QAction* unsandboxed_;
    QAction* with_environment_;
    ReasonField* reason_;
    BarContent content_;
};

} // namespace rio::gui
