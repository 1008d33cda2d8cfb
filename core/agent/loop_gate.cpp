// The agent loop's gate (DESIGN §5): a prepared call proposed or let through, a person's
// decision applied, and how an approved command runs.
#include "core/agent/loop.hpp"
#include "core/agent/loop_shared.hpp"
#include "core/agent/plan_report.hpp"
#include "core/agent/plan_thread.hpp"

#include <algorithm>

namespace rio {
namespace {

// The decision's words on a plan: its new comments filed after the plan's own (ids follow
// theirs), and those that were open before it.
PlanReview plan_review(const Decision& decision, const PlanProposal& plan) {
    CommentThreads threads = decision.threads;
    PlanReview review{
        decision.approve, decision.feedback, {}, open_comments(threads), plan.unknown_addresses};
    for (const PlanComment& comment : decision.comments)
        review.comments.push_back(add_comment(threads, comment, CommentAuthor::person));
    return review;
}

} // namespace

Status AgentLoop::decide(const Decision& decision, Effects& out) {
    std::string turn = std::to_string(decision.turn);
    if (state_ == State::compacting && compaction_ &&
        compaction_->resume == State::awaiting_decision)
        return make_error(ErrorCode::busy,
                          "the conversation is being compacted; decide once agent.compacted "
                          "has come");
    bool this_turn = decision.turn == decided_turn_ && !decided_ids_.empty();
    // A loser of a race names a proposal that is gone, perhaps with the next one pending.
    if (this_turn && decision.id && decided_ids_.count(*decision.id))
        return make_error(ErrorCode::conflict,
                          "proposal " + *decision.id + " of turn " + turn + " was already decided");
    if (state_ != State::awaiting_decision || decision.turn != turn_) {
        if (this_turn && !decision.id)
            return make_error(ErrorCode::conflict, "turn " + turn + " was already decided");
        return make_error(ErrorCode::bad_request, "nothing is pending for turn " + turn);
    }
    if (decision.id && pending_ && *decision.id != pending_->id)
        return make_error(ErrorCode::bad_request,
                          "proposal " + *decision.id + " is not pending in turn " + turn);
    if (decision.policy && !decision.policy->value())
        return make_error(ErrorCode::bad_request, "policy must be \"review\" or \"auto\"");
    const std::optional<ToolKind> pending = pending_kind();
    bool plan = pending == ToolKind::plan;
    if (!decision.comments.empty() && !plan)
        return make_error(ErrorCode::bad_request,
                          "params.comments: only a plan takes comments, not a proposed " +
                              (pending_ ? pending_->kind().name() : std::string("change")));
    if (decision.fresh && (!plan || !decision.approve))
        return make_error(ErrorCode::bad_request,
                          "params.fresh: only approving a plan can go on in a fresh context");
    if (decision.rest_of_turn && (pending != ToolKind::edit || !decision.approve))
        return make_error(ErrorCode::bad_request,
                          "params.rest_of_turn: only approving an edit can approve the turn's "
                          "other edits");
    if ((decision.unsandboxed || decision.network.any() || decision.environment) &&
        (pending != ToolKind::command || !decision.approve))
        return make_error(ErrorCode::bad_request,
                          std::string("params.") +
                              (decision.unsandboxed     ? "unsandboxed"
                               : decision.network.any() ? "network"
                                                        : "environment") +
                              ": only approving a command can run it without the sandbox, "
                              "with the network or with your environment");
    if (Status hosts = hosts_problem(decision); !hosts) return hosts;
    apply_decision(decision, out);
    return Ok{};
}

// Hosts need a network namespace to hold them (issue 45): where there is none, a person gets
// all or nothing, never a filter that is not there.
Status AgentLoop::hosts_problem(const Decision& decision) const {
    if (decision.keep_hosts && decision.network.items.empty())
        return make_error(ErrorCode::bad_request,
                          "params.keep_hosts: only hosts given in params.network can be kept");
    if (decision.network.items.empty() || decision.network.everything) return Ok{};
    if (decision.unsandboxed)
        return make_error(ErrorCode::bad_request,
                          "params.network: a command run without the sandbox has the whole "
                          "network; hosts limit only a sandboxed one");
    if (sandbox_.available && sandbox_.network == NetworkReach::by_host) return Ok{};
    std::string why = sandbox_.network_reason.value_or(sandbox_.reason);
    return make_error(ErrorCode::refused,
                      "params.network: a command's network cannot be limited to some hosts here" +
                          (why.empty() ? std::string() : " (" + why + ")") +
                          "; approve it with the whole network (network: true) or without");
}

// Plan mode: read-only, no network. Build mode: workspace-write with what the person allowed:
// the whole network, or the hosts they named and the user's standing ones (sandbox.hosts),
// which every sandboxed build-mode command may reach where hosts can be told apart.
SandboxUse AgentLoop::command_sandbox(const Decision* decision) const {
    if (mode_ == Mode::plan) return {SandboxProfile::read_only, false, std::nullopt};
    std::optional<bool> environment;
    if (decision && decision->environment) environment = true;
    if (!sandbox_.available || (decision && decision->unsandboxed))
        return {SandboxProfile::none, false, environment};
    SandboxUse use{SandboxProfile::workspace_write, decision && decision->network.everything,
                   environment};
    if (use.network || sandbox_.network != NetworkReach::by_host) return use;
    std::vector<std::string> hosts =
        decision ? decision->network.items : std::vector<std::string>{};
    for (const std::string& standing : sandbox_.hosts.value_or(std::vector<std::string>{}))
        if (std::find(hosts.begin(), hosts.end(), standing) == hosts.end())
            hosts.push_back(standing);
    if (!hosts.empty()) use.hosts = std::move(hosts);
    return use;
}

bool AgentLoop::may_run(const RunTool& run, Effects& out) {
    if (!expects(run.turn, run.call.id, run.stage)) return false;
    if (!allowed_in(mode_, run.kind)) {
        if (resuming_)
            end_resumed_step("interrupted: the session was resumed in plan mode, where " +
                                 run.call.name + " is not available",
                             out);
        else
            refuse_switched(out);
        return false;
    }
    if (run.stage == ToolStage::apply && run.kind == ToolKind::edit && !run.by_person &&
        !auto_accept_ && !edits_approved()) {
        // auto-accept went off meanwhile: a person decides
        propose(Proposal{run.turn, run.call.id, run.proposal.value_or(EditProposal{})}, out);
        return false;
    }
    return true;
}

std::optional<PendingStep> AgentLoop::pending_step() const {
    if (state_ != State::awaiting_decision) return std::nullopt;
    if (!pending_) return std::nullopt;
    return PendingStep{results_, *pending_};
}

void AgentLoop::refuse_switched(Effects& out) {
    awaiting_.reset();
    finish_call(
        ToolOutcome{current_call().id, loop_shared::switched_refusal(current_call()), true, {}, {}},
        out);
}

void AgentLoop::propose(Proposal proposal, Effects& out) {
    awaiting_.reset();
    pending_ = std::move(proposal);
    state_ = State::awaiting_decision;
    emit(out, pending_->brief());
    emit_status(out);
}

void AgentLoop::abandon_pending_plan(Effects& out) {
    bool waiting =
        state_ == State::awaiting_decision || (state_ == State::compacting && compaction_ &&
                                               compaction_->resume == State::awaiting_decision);
    if (waiting && pending_ && pending_->plan() && !pending_->path().empty())
        out.push_back(MarkPlan{pending_->path(), PlanStatus::abandoned, {}});
}

std::optional<ToolKind> AgentLoop::pending_kind() const {
    if (!pending_) return std::nullopt;
    return from_wire<ToolKind>(pending_->kind().name());
}

// The proposal prepare made, with what the loop adds: the sandbox approving a command runs it
// in, and whether the plan being carried out names an edit's file.
Proposal AgentLoop::proposal_of(const ToolReport& report) const {
    const auto* prepared = std::get_if<ProposalBody>(&report.detail);
    Proposal proposal{turn_, current_call().id,
                      prepared ? *prepared
                               : ProposalBody{OtherProposal{std::string(to_wire(current_kind_))}}};
    if (auto* command = std::get_if<CommandProposal>(&proposal.body))
        command->sandbox = command_sandbox(nullptr);
    if (auto* edit = std::get_if<EditProposal>(&proposal.body);
        edit && plan_ && plan_->open && !plan_covers(*plan_, edit->path))
        edit->plan_note = "not in the plan";
    return proposal;
}

// What an apply carries for the approved plan's contract (issue 43): an edit's new text
// becomes what its file is expected to hold; a command may change the files the steps name,
// so they are hashed again when it ends.
void AgentLoop::follow_plan(RunTool& run) {
    applying_after_.reset();
    applying_diff_.clear();
    applying_argv_.clear();
    if (!plan_ || !plan_->open || !run.proposal) return;
    if (const auto* edit = std::get_if<EditProposal>(&*run.proposal)) {
        applying_after_ = edit->after;
        applying_diff_ = edit->diff;
    } else if (const auto* command = std::get_if<CommandProposal>(&*run.proposal)) {
        run.rehash = expected_paths(*plan_);
        applying_argv_ = command->argv;
    }
}

void AgentLoop::gate(const ToolReport& report, Effects& out) {
    const ToolCall& call = current_call();
    ToolKind kind = current_kind_;
    if (!allowed_in(mode_, kind)) { // the mode changed while it was being prepared
        refuse_switched(out);
        return;
    }
    Proposal proposal = proposal_of(report);
    const std::string path = proposal.path();
    if (proposal.plan() && !path.empty()) last_plan_ = path;
    // A file the steps name that something else changed since the approval: the edit waits
    // for a person, whatever auto-accept says, and shows what changed.
    bool drift = false;
    if (auto* edit = std::get_if<EditProposal>(&proposal.body);
        edit && edit->before && plan_ && plan_->open)
        if (auto words = drifted(*plan_, edit->path, *edit->before)) {
            edit->drift = std::move(words);
            drift = true;
            progress_changed(out);
        }
    if (std::exchange(resuming_, false)) {
        // Proposed again for a person, whatever a rule or auto-accept would say now.
        if (proposal.plan() && !path.empty())
            out.push_back(MarkPlan{path, PlanStatus::presented, {}});
        propose(std::move(proposal), out);
        return;
    }
    // Auto-accept (or a person's approval of the turn's edits) covers edits only; a command
    // needs a human-written allow rule; a plan always waits for a person.
    const CommandProposal* command = proposal.command();
    const McpProposal* mcp = proposal.mcp();
    bool go = (proposal.edit() && !drift && (auto_accept_ || edits_approved())) ||
              (command && command->allowed) || (mcp && mcp->allowed);
    if (go) {
        awaiting_ = ToolStage::apply;
        applying_path_ = path;
        // An allow rule never widens the sandbox: never without it, and no network but the
        // user's own standing hosts.
        if (command) running_sandbox_ = command_sandbox(nullptr);
        RunTool run{turn_, call, kind, ToolStage::apply, std::move(proposal.body), {},
                    false, {},   {},   running_sandbox_};
        follow_plan(run);
        out.push_back(std::move(run));
        return;
    }
    propose(std::move(proposal), out);
}

void AgentLoop::apply_decision(const Decision& decision, Effects& out) {
    Proposal proposal = std::move(*pending_);
    pending_.reset();
    state_ = State::running_tool;
    const std::string path = proposal.path();
    if (decided_turn_ != turn_) decided_ids_.clear();
    decided_turn_ = turn_;
    decided_ids_.insert(proposal.id);
    DecidedEvent decided{turn_,
                         proposal.id,
                         proposal.kind(),
                         decision.approve ? Verdict::approve : Verdict::reject,
                         decision.policy,
                         {},
                         std::nullopt,
                         std::nullopt,
                         std::nullopt,
                         {},
                         {},
                         {}};
    if (!decision.feedback.empty()) decided.feedback = decision.feedback;
    if (decision.unsandboxed) decided.unsandboxed = true;
    if (decision.network.any()) decided.network = decision.network;
    if (decision.keep_hosts) decided.keep_hosts = true;
    if (decision.environment) decided.environment = true;
    if (!decision.comments.empty()) decided.comments = decision.comments;
    if (proposal.plan()) decided.open_comments = open_comments(decision.threads).size();
    if (decision.fresh) decided.fresh = true;
    if (decision.rest_of_turn) {
        decided.rest_of_turn = true;
        edits_approved_ = turn_;
    }
    emit(out, std::move(decided));

    const ToolCall& call = current_call();
    const bool plan = proposal.plan() != nullptr;
    PlanReview review = plan ? plan_review(decision, *proposal.plan())
                             : PlanReview{decision.approve, decision.feedback, {}};
    if (!decision.approve) {
        if (plan && !path.empty()) out.push_back(MarkPlan{path, PlanStatus::rejected, review});
        emit_status(out);
        std::string note =
            plan ? plan_rejection_note(review)
                 : rejection_note(from_wire<ToolKind>(proposal.kind().name()), decision.feedback);
        finish_call(ToolOutcome{call.id, std::move(note), true, {}, {}}, out);
        return;
    }
    if (plan) {
        approved_path_ = path;
        approve_pending_plan(decision, review, out);
    } else if (proposal.edit() && decision.policy == ApprovalPolicy::automatic)
        auto_accept_ = true;
    emit_status(out);
    awaiting_ = ToolStage::apply;
    applying_path_ = proposal.edit() ? path : "";
    // The person's choice holds for this one call: the next command asks again.
    if (proposal.command()) running_sandbox_ = command_sandbox(&decision);
    RunTool run{turn_,
                call,
                current_kind_,
                ToolStage::apply,
                std::move(proposal.body),
                decision.policy.value_or(Wire<ApprovalPolicy>()),
                true,
                {},
                {},
                running_sandbox_};
    if (plan) {
        run.review = std::move(review);
        run.approved_in = decision.frontend;
    }
    follow_plan(run);
    out.push_back(std::move(run));
}

// The policy and the mode change land together with the approval, before the tool result,
// so the very next provider call is offered the write tools.
void AgentLoop::approve_pending_plan(const Decision& decision, const PlanReview& review,
                                     Effects& out) {
    before_plan_approval_ = {mode_, auto_accept_};
    PlanApproval approval = approve_plan(before_plan_approval_, decision.policy);
    approval_note_ = approval.note;
    approval_review_ = review;
    approval_fresh_ = decision.fresh;
    auto_accept_ = approval.after.auto_accept;
    if (approval.after.mode != mode_) {
        mode_ = approval.after.mode;
        emit(out, ModeEvent{std::string(to_wire(mode_))});
    }
    told_mode_ = mode_; // the approval's tool result says so
}

void AgentLoop::restore_before_plan_approval(Effects& out) {
    auto_accept_ = before_plan_approval_.auto_accept;
    if (before_plan_approval_.mode != mode_) {
        mode_ = before_plan_approval_.mode;
        emit(out, ModeEvent{std::string(to_wire(mode_))});
    }
    told_mode_ = mode_;
    emit_status(out);
}

} // namespace rio
