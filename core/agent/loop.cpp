#include "core/agent/loop.hpp"

#include "text/utf8.hpp"

#include <algorithm>

namespace rio {
namespace {

using Json = nlohmann::json;

std::string switched_refusal(const ToolCall& call) {
    return call.name +
           " was not run: the user switched to plan mode, so nothing was changed or run. "
           "Investigate with the read tools, then call present_plan; changes are possible only "
           "after the user approves the plan.";
}

std::string refusal(const ToolCall& call, const std::vector<ToolSpec>& all, Mode mode) {
    if (!find_tool(all, call.name)) {
        std::string names;
        for (const ToolSpec& spec : offered_tools(all, mode))
            names += (names.empty() ? "" : ", ") + spec.name;
        return "There is no tool named '" + call.name + "'. Available tools: " + names + ".";
    }
    if (mode == Mode::plan)
        return call.name +
               " is not available in plan mode, so nothing was changed or run. Investigate with "
               "the read tools (list_dir, read_file, search), then call present_plan; changes "
               "are possible only after the user approves the plan.";
    return call.name + " is not available now; nothing was run.";
}

// What a failed reply leaves in the conversation: enough for the model to see where it was
// cut off, never the tens of megabytes a runaway stream sent, which every later request
// would carry again.
std::string kept_partial(const std::string& streamed) {
    constexpr std::size_t keep = 64 * 1024;
    if (streamed.size() <= keep) return streamed;
    std::size_t end = keep;
    while (end > 0 && !is_char_boundary(streamed, end))
        --end;
    return streamed.substr(0, end) + "\n[… the reply was cut off here]";
}

// Events carry a proposal without the full texts (agent.proposal has them).
Proposal proposal_event(const Json& full) {
    Json small = full;
    small.erase("before");
    small.erase("after");
    return small.get<Proposal>();
}

std::string_view kind_name(const ToolSpec* spec) {
    return spec ? to_string(spec->kind) : "unknown";
}

} // namespace

std::string_view event_name(const Event& event) {
    return std::visit([](const auto& e) -> std::string_view { return e.event; }, event);
}

Json event_params(const Event& event) {
    return std::visit([](const auto& e) { return Json(e); }, event);
}

std::string_view to_string(AgentLoop::State state) {
    switch (state) {
    case AgentLoop::State::idle:
        return "idle";
    case AgentLoop::State::streaming:
        return "streaming";
    case AgentLoop::State::running_tool:
        return "running_tool";
    case AgentLoop::State::awaiting_decision:
        return "awaiting_decision";
    }
    return "idle";
}

AgentLoop::AgentLoop(std::vector<ToolSpec> tools) : tools_(std::move(tools)) {}

TurnId AgentLoop::send(std::string text, Effects& out) {
    if (busy()) {
        abandon_pending_plan(out);
        abort_turn("interrupted: the user sent a new message before this finished", out);
        emit(out, StoppedEvent{turn_, "new message"});
        report_carried_plan(out);
    }
    add_user_text(std::move(text));
    ++turn_;
    start_step(out);
    emit_status(out);
    return turn_;
}

Status AgentLoop::decide(const Decision& decision, Effects& out) {
    std::string turn = std::to_string(decision.turn);
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
    if (decision.id && *decision.id != pending_["id"])
        return make_error(ErrorCode::bad_request,
                          "proposal " + *decision.id + " is not pending in turn " + turn);
    if (decision.policy && *decision.policy != "review" && *decision.policy != "auto")
        return make_error(ErrorCode::bad_request, "policy must be \"review\" or \"auto\"");
    bool plan = pending_.value("kind", "") == "plan";
    if (!decision.comments.empty() && !plan)
        return make_error(ErrorCode::bad_request,
                          "params.comments: only a plan takes comments, not a proposed " +
                              pending_.value("kind", std::string("change")));
    if (decision.fresh && (!plan || !decision.approve))
        return make_error(ErrorCode::bad_request,
                          "params.fresh: only approving a plan can go on in a fresh context");
    if (decision.rest_of_turn && (pending_.value("kind", "") != "edit" || !decision.approve))
        return make_error(ErrorCode::bad_request,
                          "params.rest_of_turn: only approving an edit can approve the turn's "
                          "other edits");
    if ((decision.unsandboxed || decision.network) &&
        (pending_.value("kind", "") != "command" || !decision.approve))
        return make_error(ErrorCode::bad_request,
                          std::string("params.") +
                              (decision.unsandboxed ? "unsandboxed" : "network") +
                              ": only approving a command can run it without the sandbox or "
                              "with the network");
    apply_decision(decision, out);
    return Ok{};
}

std::vector<TurnId> AgentLoop::stop(std::optional<TurnId> turn, Effects& out) {
    if (!busy() || (turn && *turn != turn_)) return {};
    abandon_pending_plan(out);
    abort_turn("interrupted: the user stopped the turn", out);
    emit(out, StoppedEvent{turn_, "stop"});
    report_carried_plan(out);
    emit_status(out);
    return {turn_};
}

void AgentLoop::reset(Effects& out) {
    clear(out);
    emit(out, ResetEvent{});
    emit_status(out);
}

void AgentLoop::clear(Effects& out) {
    abandon_pending_plan(out);
    if (state_ == State::streaming) out.push_back(CancelProvider{turn_});
    if (state_ == State::running_tool || state_ == State::awaiting_decision)
        out.push_back(CancelTools{turn_});
    state_ = State::idle;
    conversation_.clear();
    calls_.clear();
    results_.clear();
    awaiting_.reset();
    running_sandbox_.reset();
    pending_ = nullptr;
    decided_ids_.clear();
    last_plan_.clear();
    edits_approved_.reset();
    carried_.reset(); // the conversation it belonged to is gone
}

void AgentLoop::restore(RestoredSession session, Effects& out) {
    clear(out);
    conversation_ = std::move(session.conversation);
    // Auto-accept stays as this core has it: a file is no way to hand out edit rights.
    mode_ = session.mode;
    turn_ = session.turn;
    session_ = session.header.id;
    session_problem_.clear();
    bool pending = resume_pending(session);
    if (!pending && !conversation_.empty() && conversation_.back()->role == Role::assistant &&
        !conversation_.back()->calls.empty()) {
        // The core stopped while these ran: each gets an answer, as a stop would have given.
        std::vector<ToolOutcome> answers;
        for (const ToolCall& call : conversation_.back()->calls)
            answers.push_back(ToolOutcome{
                call.id, "interrupted: rio stopped before this call finished", true, {}});
        record(Message{Role::user, {}, {}, std::move(answers), {}});
    }
    emit(out, ResetEvent{});
    emit(out, ModeEvent{std::string(to_string(mode_))});
    if (pending) {
        if (pending_.value("kind", "") == "plan" && !pending_.value("path", "").empty())
            out.push_back(MarkPlan{pending_["path"], std::string(presented_status), {}});
        emit(out, proposal_event(pending_));
    }
    emit_status(out);
}

// The step a proposal stopped comes back only when the file holds it whole: the proposal
// is the next unanswered call of the conversation's last entry.
bool AgentLoop::resume_pending(const RestoredSession& session) {
    if (!session.pending || conversation_.empty()) return false;
    const Message& last = *conversation_.back();
    const PendingStep& step = *session.pending;
    if (last.role != Role::assistant || step.results.size() >= last.calls.size() ||
        !step.proposal.is_object() ||
        step.proposal.value("id", "") != last.calls[step.results.size()].id)
        return false;
    calls_ = last.calls;
    results_ = step.results;
    pending_ = step.proposal;
    pending_["turn"] = turn_;
    // Said again as this core would run it: the session may come from another machine.
    if (pending_.value("kind", "") == "command") pending_["sandbox"] = command_sandbox(nullptr);
    const ToolSpec* spec = spec_of(last.calls[step.results.size()].name);
    current_kind_ = spec ? spec->kind
                         : kind_from_string(pending_.value("kind", "")).value_or(ToolKind::command);
    offered_.clear();
    for (const ToolSpec& spec : offered())
        offered_.push_back(spec.name);
    state_ = State::awaiting_decision;
    return true;
}

void AgentLoop::set_mode(Mode mode, Effects& out) {
    if (mode == mode_) return;
    mode_ = mode;
    emit(out, ModeEvent{std::string(to_string(mode_))});
    emit_status(out);
}

void AgentLoop::set_auto_accept(bool on, Effects& out) {
    if (on == auto_accept_) return;
    auto_accept_ = on;
    emit_status(out);
}

void AgentLoop::set_provider(std::string provider, std::string model, Effects& out) {
    if (provider == provider_ && model == model_) return;
    provider_ = std::move(provider);
    model_ = std::move(model);
    emit_status(out);
}

void AgentLoop::set_session(std::string id, std::string problem, Effects& out) {
    if (id == session_ && problem == session_problem_) return;
    session_ = std::move(id);
    session_problem_ = std::move(problem);
    emit_status(out);
}

void AgentLoop::set_sandbox(SandboxState sandbox, Effects& out) {
    sandbox_ = std::move(sandbox);
    emit_status(out);
}

SandboxUse AgentLoop::command_sandbox(const Decision* decision) const {
    if (mode_ == Mode::plan) return {"read-only", false};
    if (!sandbox_.available || (decision && decision->unsandboxed)) return {"none", false};
    return {"workspace-write", decision && decision->network};
}

void AgentLoop::on_provider(TurnId turn, std::uint64_t step, const ProviderReport& report,
                            Effects& out) {
    if (state_ != State::streaming || turn != turn_ || step != step_) return; // stale
    using Kind = ProviderReport::Kind;
    switch (report.kind) {
    case Kind::delta:
        streamed_ += report.text;
        emit(out, DeltaEvent{{turn_, report.text}});
        return;
    case Kind::thinking:
        emit(out, ThinkingEvent{{turn_, report.text}});
        return;
    case Kind::tool_call: {
        ToolCall call = report.call;
        if (call.id.empty())
            call.id = "call_" + std::to_string(step_) + "_" + std::to_string(calls_.size() + 1);
        calls_.push_back(std::move(call));
        return;
    }
    case Kind::keep:
        kept_.push_back(report.data);
        return;
    case Kind::usage:
        emit(out, UsageEvent{turn_, report.data.is_object() ? report.data : Json::object()});
        return;
    case Kind::done:
        if (!streamed_.empty() || !calls_.empty())
            record(Message{Role::assistant, streamed_, calls_, {}, kept_});
        emit(out, MessageEvent{turn_, streamed_, report.stop_reason});
        if (calls_.empty()) {
            end_turn(report.stop_reason, out);
            return;
        }
        state_ = State::running_tool;
        run_next_call(out);
        return;
    case Kind::error:
        if (!streamed_.empty())
            record(Message{Role::assistant, kept_partial(streamed_), {}, {}, {}});
        emit(out, ErrorEvent{turn_, std::string(to_string(report.code)), report.text});
        end_turn("error", out);
        return;
    }
}

bool AgentLoop::may_run(const RunTool& run, Effects& out) {
    if (!expects(run.turn, run.call.id, run.stage)) return false;
    if (!allowed_in(mode_, run.kind)) {
        refuse_switched(out);
        return false;
    }
    if (run.stage == ToolStage::apply && run.kind == ToolKind::edit && !run.by_person &&
        !auto_accept_ && !edits_approved()) {
        propose(run.proposal, out); // auto-accept went off meanwhile: a person decides
        return false;
    }
    return true;
}

void AgentLoop::on_tool(const ToolReport& report, Effects& out) {
    if (!expects(report.turn, report.call_id, report.stage)) return;
    if (report.stage == ToolStage::prepare && !report.is_error) {
        gate(report, out);
        return;
    }
    ToolKind kind = current_kind_;
    std::string content = report.content;
    if (report.stage == ToolStage::apply && kind == ToolKind::edit && !report.is_error &&
        carried_ && !applying_path_.empty() &&
        std::find(carried_->touched.begin(), carried_->touched.end(), applying_path_) ==
            carried_->touched.end())
        carried_->touched.push_back(applying_path_);
    if (report.stage == ToolStage::apply && kind == ToolKind::plan) {
        if (report.is_error) {
            restore_before_plan_approval(out); // nothing was approved after all
        } else {
            std::string text = report.detail.value("text", std::string());
            content = approved_plan_result(approval_note_, report.detail.value("edited", false),
                                           text, approval_review_);
            report_carried_plan(out); // an earlier plan of this turn is done with
            carried_ = ReportPlan{turn_, approved_path_, text, {}};
            if (approval_fresh_) {
                continue_fresh(std::move(content), text, out);
                return;
            }
        }
    }
    finish_call(ToolOutcome{report.call_id, std::move(content), report.is_error, report.exit}, out);
}

bool AgentLoop::expects(TurnId turn, const std::string& call_id, ToolStage stage) const {
    return state_ == State::running_tool && turn == turn_ && awaiting_ == stage &&
           results_.size() < calls_.size() && current_call().id == call_id;
}

Json AgentLoop::proposal() const {
    return pending_;
}

std::optional<PendingStep> AgentLoop::pending_step() const {
    if (state_ != State::awaiting_decision) return std::nullopt;
    return PendingStep{results_, pending_};
}

AgentStatus AgentLoop::status() const {
    AgentStatus s;
    s.mode = std::string(to_string(mode_));
    s.auto_accept = auto_accept_;
    s.provider = provider_;
    s.model = model_;
    s.busy = busy();
    s.turn = turn_;
    s.state = std::string(to_string(state_));
    if (state_ == State::awaiting_decision) s.pending = proposal_event(pending_);
    s.session = session_;
    s.session_problem = session_problem_;
    s.sandbox = sandbox_;
    return s;
}

void AgentLoop::start_step(Effects& out) {
    state_ = State::streaming;
    ++step_;
    streamed_.clear();
    calls_.clear();
    kept_.clear();
    results_.clear();
    awaiting_.reset();
    pending_ = nullptr;
    // Recomposed every step: a plan approved mid-turn widens the very next call.
    std::vector<ToolSpec> tools = offered();
    offered_.clear();
    for (const ToolSpec& spec : tools)
        offered_.push_back(spec.name);
    out.push_back(CallProvider{turn_, step_, mode_, std::move(tools), conversation_});
}

void AgentLoop::run_next_call(Effects& out) {
    if (results_.size() == calls_.size()) {
        record(Message{Role::user, {}, {}, results_, {}});
        start_step(out);
        return;
    }
    const ToolCall& call = current_call();
    const ToolSpec* spec = spec_of(call.name);
    bool offered = std::find(offered_.begin(), offered_.end(), call.name) != offered_.end();
    ToolKind kind = spec ? kind_in(mode_, spec->kind, sandbox_.available) : ToolKind::read;
    // A command that runs at once says how; one that waits for a decision says it then.
    if (spec && offered && spec->kind == ToolKind::command && kind == ToolKind::read)
        running_sandbox_ = command_sandbox(nullptr);
    emit(out, ToolEvent{turn_, call.id, call.name, call.input, std::string(kind_name(spec)),
                        running_sandbox_});
    if (!spec || !offered) {
        finish_call(ToolOutcome{call.id, refusal(call, tools_, mode_), true, {}}, out);
        return;
    }
    if (!allowed_in(mode_, kind)) { // offered when the step began, not in plan mode
        finish_call(ToolOutcome{call.id, switched_refusal(call), true, {}}, out);
        return;
    }
    if (!call.input.is_object()) {
        finish_call(
            ToolOutcome{call.id, "The input of " + call.name + " must be a JSON object.", true, {}},
            out);
        return;
    }
    current_kind_ = kind;
    awaiting_ = kind == ToolKind::read ? ToolStage::run : ToolStage::prepare;
    RunTool run{turn_, call, kind, *awaiting_, nullptr, {}, false, {}, {}, running_sandbox_};
    if (kind == ToolKind::plan) run.revises = last_plan_;
    out.push_back(std::move(run));
}

void AgentLoop::finish_call(ToolOutcome outcome, Effects& out) {
    const ToolCall& call = current_call();
    emit(out, ToolResultEvent{turn_, call.id, call.name, !outcome.is_error, outcome.content,
                              outcome.exit, std::exchange(running_sandbox_, std::nullopt)});
    results_.push_back(std::move(outcome));
    awaiting_.reset();
    state_ = State::running_tool;
    run_next_call(out);
}

void AgentLoop::refuse_switched(Effects& out) {
    awaiting_.reset();
    finish_call(ToolOutcome{current_call().id, switched_refusal(current_call()), true, {}}, out);
}

void AgentLoop::propose(Json proposal, Effects& out) {
    awaiting_.reset();
    pending_ = std::move(proposal);
    state_ = State::awaiting_decision;
    emit(out, proposal_event(pending_));
    emit_status(out);
}

void AgentLoop::abandon_pending_plan(Effects& out) {
    if (state_ == State::awaiting_decision && pending_.value("kind", "") == "plan" &&
        !pending_.value("path", "").empty())
        out.push_back(MarkPlan{pending_["path"], std::string(abandoned_status), {}});
}

void AgentLoop::gate(const ToolReport& report, Effects& out) {
    const ToolCall& call = current_call();
    ToolKind kind = current_kind_;
    if (!allowed_in(mode_, kind)) { // the mode changed while it was being prepared
        refuse_switched(out);
        return;
    }
    Json proposal = report.detail.is_object() ? report.detail : Json::object();
    proposal["turn"] = turn_;
    proposal["id"] = call.id;
    proposal["kind"] = to_string(kind);
    if (kind == ToolKind::plan && !proposal.value("path", "").empty())
        last_plan_ = proposal["path"];
    if (kind == ToolKind::command) proposal["sandbox"] = command_sandbox(nullptr);
    // Auto-accept (or a person's approval of the turn's edits) covers edits only; a command
    // needs a human-written allow rule; a plan always waits for a person.
    bool go =
        (kind == ToolKind::edit && (auto_accept_ || edits_approved())) ||
        ((kind == ToolKind::command || kind == ToolKind::mcp) && proposal.value("allowed", false));
    if (go) {
        awaiting_ = ToolStage::apply;
        applying_path_ = proposal.value("path", "");
        // An allow rule never widens the sandbox: no network, never without it.
        if (kind == ToolKind::command) running_sandbox_ = command_sandbox(nullptr);
        out.push_back(RunTool{turn_,
                              call,
                              kind,
                              ToolStage::apply,
                              std::move(proposal),
                              {},
                              false,
                              {},
                              {},
                              running_sandbox_});
        return;
    }
    propose(std::move(proposal), out);
}

void AgentLoop::apply_decision(const Decision& decision, Effects& out) {
    Json proposal = std::move(pending_);
    pending_ = nullptr;
    state_ = State::running_tool;
    std::string id = proposal["id"];
    std::string kind = proposal["kind"];
    if (decided_turn_ != turn_) decided_ids_.clear();
    decided_turn_ = turn_;
    decided_ids_.insert(id);
    DecidedEvent decided{turn_,
                         id,
                         kind,
                         decision.approve ? "approve" : "reject",
                         decision.policy,
                         {},
                         std::nullopt,
                         std::nullopt,
                         std::nullopt,
                         {},
                         {}};
    if (!decision.feedback.empty()) decided.feedback = decision.feedback;
    if (decision.unsandboxed) decided.unsandboxed = true;
    if (decision.network) decided.network = true;
    if (!decision.comments.empty()) decided.comments = decision.comments;
    if (decision.fresh) decided.fresh = true;
    if (decision.rest_of_turn) {
        decided.rest_of_turn = true;
        edits_approved_ = turn_;
    }
    emit(out, std::move(decided));

    const ToolCall& call = current_call();
    PlanReview review{decision.approve, decision.feedback, decision.comments};
    if (!decision.approve) {
        if (kind == "plan" && !proposal.value("path", "").empty())
            out.push_back(MarkPlan{proposal["path"], std::string(rejected_status), review});
        emit_status(out);
        std::string note =
            kind == "plan" ? plan_rejection_note(review) : rejection_note(kind, decision.feedback);
        finish_call(ToolOutcome{call.id, std::move(note), true, {}}, out);
        return;
    }
    if (kind == "plan") {
        approved_path_ = proposal.value("path", "");
        approve_pending_plan(decision, out);
    } else if (kind == "edit" && decision.policy == "auto")
        auto_accept_ = true;
    emit_status(out);
    awaiting_ = ToolStage::apply;
    applying_path_ = kind == "edit" ? proposal.value("path", "") : "";
    // The person's choice holds for this one call: the next command asks again.
    if (kind == "command") running_sandbox_ = command_sandbox(&decision);
    RunTool run{turn_,
                call,
                current_kind_,
                ToolStage::apply,
                std::move(proposal),
                decision.policy.value_or(""),
                true,
                {},
                {},
                running_sandbox_};
    if (kind == "plan") run.review = std::move(review);
    out.push_back(std::move(run));
}

// The policy and the mode change land together with the approval, before the tool result,
// so the very next provider call is offered the write tools.
void AgentLoop::approve_pending_plan(const Decision& decision, Effects& out) {
    before_plan_approval_ = {mode_, auto_accept_};
    PlanApproval approval = approve_plan(before_plan_approval_, decision.policy);
    approval_note_ = approval.note;
    approval_review_ = PlanReview{true, decision.feedback, decision.comments};
    approval_fresh_ = decision.fresh;
    auto_accept_ = approval.after.auto_accept;
    if (approval.after.mode != mode_) {
        mode_ = approval.after.mode;
        emit(out, ModeEvent{std::string(to_string(mode_))});
    }
}

void AgentLoop::restore_before_plan_approval(Effects& out) {
    auto_accept_ = before_plan_approval_.auto_accept;
    if (before_plan_approval_.mode != mode_) {
        mode_ = before_plan_approval_.mode;
        emit(out, ModeEvent{std::string(to_string(mode_))});
    }
    emit_status(out);
}

void AgentLoop::end_turn(std::string_view reason, Effects& out) {
    state_ = State::idle;
    edits_approved_.reset(); // the next turn asks again
    emit(out, DoneEvent{turn_, std::string(reason)});
    report_carried_plan(out);
    emit_status(out);
}

void AgentLoop::report_carried_plan(Effects& out) {
    if (!carried_) return;
    out.push_back(std::move(*carried_));
    carried_.reset();
}

// The old conversation is closed: the new one is the user's request and the approved plan,
// and the turn goes on from there, in the mode and policy the approval set.
void AgentLoop::continue_fresh(std::string result, const std::string& plan, Effects& out) {
    const ToolCall& call = current_call();
    emit(out, ToolResultEvent{turn_, call.id, call.name, true, std::move(result), std::nullopt,
                              std::nullopt});
    std::string request;
    for (const auto& message : conversation_)
        if (message->role == Role::user && !message->text.empty())
            request += (request.empty() ? "" : "\n\n") + message->text;
    std::string seed = fresh_context_seed(request, plan, approval_note_, approval_review_);
    conversation_.clear();
    record(Message{Role::user, seed, {}, {}, {}});
    emit(out, FreshEvent{turn_, approved_path_, std::move(seed)});
    start_step(out);
}

void AgentLoop::abort_turn(const std::string& why, Effects& out) {
    if (state_ == State::streaming) {
        out.push_back(CancelProvider{turn_});
        if (!streamed_.empty())
            record(Message{Role::assistant, kept_partial(streamed_), {}, {}, {}});
    } else if (state_ != State::idle) {
        out.push_back(CancelTools{turn_});
        for (std::size_t i = results_.size(); i < calls_.size(); ++i)
            results_.push_back(ToolOutcome{calls_[i].id, why, true, {}});
        record(Message{Role::user, {}, {}, results_, {}});
    }
    state_ = State::idle;
    awaiting_.reset();
    running_sandbox_.reset();
    pending_ = nullptr;
    edits_approved_.reset();
}

// Keeps roles alternating: text after an entry that is already the user's (a stopped turn)
// joins it.
void AgentLoop::add_user_text(std::string text) {
    if (!conversation_.empty() && conversation_.back()->role == Role::user) {
        Message joined = *conversation_.back();
        joined.text += joined.text.empty() ? text : "\n\n" + text;
        conversation_.back() = std::make_shared<const Message>(std::move(joined));
        return;
    }
    record(Message{Role::user, std::move(text), {}, {}, {}});
}

void AgentLoop::record(Message message) {
    conversation_.push_back(std::make_shared<const Message>(std::move(message)));
}

void AgentLoop::emit(Effects& out, Event event) {
    // in_place_type: GCC 12 reports a false maybe-uninitialized for push_back of a temporary.
    out.emplace_back(std::in_place_type<EmitEvent>, EmitEvent{std::move(event)});
}

void AgentLoop::emit_status(Effects& out) {
    emit(out, status());
}

} // namespace rio
