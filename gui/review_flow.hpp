// The approval gate as the desktop shows it (DESIGN §6, §7, §9): the pending proposal's
// approval bar, the plan view and the compare view, from agent.propose until the core says
// the proposal is gone (agent.decided, agent.stopped, agent.reset, or a status with nothing
// pending — whoever caused it: a decision here or in another client, a new message, Stop,
// Clear). The person's decisions go to the core as agent.approve; nothing here decides.
//
// Centre views: a plan takes the centre when presented, each proposed edit the compare view,
// both with the decision on them (the bar stays, in step). One centre view at a time: a new
// one replaces the current one. Esc or × returns to the editor with the decision still
// pending; Compare or Plan on the bar shows it again.
#pragma once

#include "client/events.hpp"
#include "protocol/wire.hpp"

#include <QObject>
#include <QPointer>

namespace rio::gui {

class ApprovalBar;
class CompareView;
class MainWindow;
class PlanView;

class ReviewFlow : public QObject {
    Q_OBJECT
public:
    // The bar is created here for the chat to place; the views join the window's centre.
    ReviewFlow(MainWindow& window, QObject* parent = nullptr);

    // The core's events (the chat forwards them), and what agent.status says is pending.
    void on_event(const client::CoreEvent& event);
    // `sandbox`: whether a command may be let out to some hosts only (issue 45).
    void on_status(const std::optional<Proposal>& pending,
                   const std::optional<SandboxState>& sandbox = std::nullopt);

    // What the bar's buttons do; also reachable for the demo run.
    void approve(const QString& policy); // "" for an edit or a command
    // A plan's approval, from the plan view: `fresh` continues in a new conversation.
    void approve_plan(const QString& policy, bool fresh);
    // The approval itself, once no open comment stands in its way or the person confirmed.
    void send_approval(const QString& policy, bool fresh);
    // plans.comment.reply / resolve on the pending plan (issue 44).
    void reply(const QString& id, const QString& text);
    void resolve(const QString& id);
    // An edit's, from the compare view: `rest_of_turn` approves the turn's later edits too.
    void approve_edit(bool rest_of_turn);
    // A command, this one call: with the network, without the sandbox (DESIGN §19), or with
    // the user's whole environment (decision 0071).
    void approve_command(bool network, bool unsandboxed, bool environment);
    // A command, this one call, with the network to the hosts it asked for; `always`: and
    // every later command too (sandbox.hosts, issue 45).
    void approve_hosts(bool always);
    void reject(const QString& feedback);
    void edit_plan();   // opens the filed plan in the editor (buffer.open), still pending
    void reopen_plan(); // the plan view again, from the plan as it is now
    void compare();     // the compare view for the pending edit

    ApprovalBar* bar() const { return bar_; }
    PlanView* plan_view() const { return plan_view_; }
    CompareView* compare_view() const { return compare_view_; }
    const std::optional<Proposal>& pending() const { return pending_; } // agent.propose's

signals:
    void plan_shown();
    void compare_shown();
    void problem(const QString& text); // a request that failed, for the chat to show

private:
    void show_proposal(const Proposal& proposal);
    void dismiss();
    void show_plan(const QString& markdown);
    void show_compare();
    // A revised plan: the plan it revises and this one from plans.get, their diff, and the
    // marked lines for the plan view's "Changes since the previous plan".
    void fetch_revision();
    // Asks for the pending edit's texts and their diff; `then` runs when they are here (and
    // the edit is still the one pending).
    void fetch_edit(std::function<void()> then);
    bool is_pending(std::uint64_t turn, const std::string& id) const;
    bool is_pending(const Proposal& proposal) const {
        return is_pending(proposal.turn, proposal.id);
    }
    bool pending_kind(rio::ProposalKind kind) const; // something is pending, of this kind
    void close_view();
    void set_deciding(bool deciding); // the bar and the plan view, in step
    // The answer ("approve", "reject") to the pending proposal; nullopt when none is pending.
    std::optional<ApproveParams> decision(Verdict answer) const;
    void add_comments(ApproveParams& params) const;
    void send_decision(const ApproveParams& params, const QString& failed);
    PlanProposal pending_plan() const; // the pending plan's fields, "" when none

    MainWindow& window_;
    ApprovalBar* bar_;
    PlanView* plan_view_;
    CompareView* compare_view_;
    std::optional<Proposal> pending_; // agent.propose's params
    bool by_host_ = false;            // agent.status: the network can be limited to hosts
    struct EditTexts {
        QString before, after;
        std::vector<DiffHunkInfo> hunks;
    };
    std::optional<EditTexts> edit_; // the pending edit's, once fetched
    bool fetching_ = false;
    std::vector<std::function<void()>> after_fetch_;
};

} // namespace rio::gui
