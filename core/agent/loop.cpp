#include "core/agent/loop.hpp"

#include "core/agent/compaction.hpp"
#include "core/agent/plan_report.hpp"
#include "protocol/tool_words.hpp"
#include "text/utf8.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace rio {
namespace {

using Json = nlohmann::json;

std::string switched_refusal(const ToolCall& call) {
    return call.name +
           " was not run: the user switched to plan mode, so nothing was changed or run. "
           "Investigate with the read tools, then call present_plan; changes are possible only "
           "after the user approves the plan.";
}

// The read tools among those offered: "list_dir, read_file, search, diagnostics".
std::string read_tool_names(const std::vector<ToolSpec>& offered) {
    std::string names;
    for (const ToolSpec& spec : offered)
        if (spec.kind == ToolKind::read) names += (names.empty() ? "" : ", ") + spec.name;
    return names;
}

std::string refusal(const ToolCall& call, const std::vector<ToolSpec>& all,
                    const std::vector<ToolSpec>& offered, Mode mode) {
    if (!find_tool(all, call.name)) {
        std::string names;
        for (const ToolSpec& spec : offered_tools(all, mode))
            names += (names.empty() ? "" : ", ") + spec.name;
        return "There is no tool named '" + call.name + "'. Available tools: " + names + ".";
    }
    if (mode == Mode::plan)
        return call.name +
               " is not available in plan mode, so nothing was changed or run. Investigate with "
               "the read tools (" +
               read_tool_names(offered) +
               "), then call present_plan; changes are possible only after the user approves "
               "the plan.";
    return call.name + " is not available now; nothing was run.";
}

// How often in one turn the language servers' problems send the model back to work: after
// that the turn ends as the model wanted, the problems left for the person to see.
constexpr int max_checks_continued = 2;

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
    return spec ? to_wire(spec->kind) : "unknown";
}

std::string_view reason_name(int reason) {
    static constexpr std::string_view names[] = {"threshold", "overflow", "request"};
    return names[reason];
}

// Input tokens of a request, cached ones included, from a usage report (Anthropic's shape,
// which the OpenAI codec follows: input_tokens are the uncached ones).
std::optional<std::uint64_t> reported_input(const Json& counts) {
    if (!counts.is_object() || !counts.contains("input_tokens")) return std::nullopt;
    std::uint64_t total = 0;
    for (const char* key :
         {"input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens"})
        if (auto it = counts.find(key); it != counts.end() && it->is_number_integer())
            total += static_cast<std::uint64_t>(std::max<std::int64_t>(0, it->get<std::int64_t>()));
    return total;
}

// Where the entries a compaction keeps whole begin: the newest step (an assistant entry's
// calls and the user entry answering them), or a step stopped at a proposal.
std::size_t kept_tail(const Conversation& c) {
    std::size_t n = c.size();
    if (n >= 1 && c[n - 1]->role == Role::assistant && !c[n - 1]->calls.empty()) return n - 1;
    if (n >= 2 && c[n - 1]->role == Role::user && !c[n - 1]->results.empty() &&
        c[n - 2]->role == Role::assistant)
        return n - 2;
    return n;
}

// The plan a restored conversation approved last, verbatim: the user's version when they
// edited it, else what the model presented.
std::string approved_plan_of(const Conversation& c) {
    constexpr std::string_view edited =
        "This is the approved plan; follow it rather than your original text:\n\n";
    std::map<std::string, const ToolCall*> calls;
    std::string plan;
    for (const auto& entry : c) {
        for (const ToolCall& call : entry->calls)
            calls[call.id] = &call;
        for (const ToolOutcome& r : entry->results) {
            auto it = calls.find(r.call_id);
            if (r.is_error || it == calls.end() ||
                it->second->name != tool_words::present_plan.name ||
                r.content.rfind("The user approved the plan.", 0) != 0)
                continue;
            if (auto at = r.content.find(edited); at != std::string::npos) {
                plan = r.content.substr(at + edited.size());
                for (std::string_view end :
                     {"\n\nThe user's notes: ", "\n\nThe user approved the plan with comments"})
                    if (auto stop = plan.find(end); stop != std::string::npos) plan.resize(stop);
            } else {
                plan = it->second->input.value("plan", std::string());
            }
        }
    }
    return plan;
}

// Files a conversation's edit_file and create_file calls changed, in order.
std::vector<std::string> files_changed_in(const Conversation& c) {
    std::map<std::string, const ToolCall*> calls;
    std::vector<std::string> files;
    for (const auto& entry : c) {
        for (const ToolCall& call : entry->calls)
            calls[call.id] = &call;
        for (const ToolOutcome& r : entry->results) {
            auto it = calls.find(r.call_id);
            if (r.is_error || it == calls.end() ||
                (it->second->name != tool_words::edit_file.name &&
                 it->second->name != tool_words::create_file.name))
                continue;
            std::string path = it->second->input.value("path", std::string());
            if (!path.empty() && std::find(files.begin(), files.end(), path) == files.end())
                files.push_back(std::move(path));
        }
    }
    return files;
}

// The mode a restored conversation last told the model of: its last mode note, or build
// once a plan was approved after it.
Mode told_mode_of(const Conversation& c) {
    for (std::size_t i = c.size(); i-- > 0;) {
        const Message& m = *c[i];
        if (m.note == ModeNote::plan) return Mode::plan;
        if (m.note == ModeNote::build) return Mode::build;
        for (const ToolOutcome& r : m.results)
            if (!r.is_error && r.content.rfind("The user approved the plan.", 0) == 0)
                return Mode::build;
    }
    return Mode::build;
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
    case AgentLoop::State::compacting:
        return "compacting";
    case AgentLoop::State::checking:
        return "checking";
    }
    return "idle";
}

AgentLoop::AgentLoop(std::vector<ToolSpec> tools) : tools_(std::move(tools)) {}

TurnId AgentLoop::send(std::string text, Effects& out) {
    if (busy()) {
        abandon_pending_plan(out);
        abort_turn("interrupted: the user sent a new message before this finished", out);
        emit(out, StoppedEvent{turn_, std::string(to_wire(StopReason::new_message))});
        report_carried_plan(out);
    }
    add_user_text(std::move(text));
    ++turn_;
    edited_since_checks_ = false;
    checks_continued_ = 0;
    overflow_retried_ = false;
    summary_declined_ = false;
    start_step(out);
    emit_status(out);
    return turn_;
}

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
    if (decision.id && *decision.id != pending_["id"])
        return make_error(ErrorCode::bad_request,
                          "proposal " + *decision.id + " is not pending in turn " + turn);
    if (decision.policy && *decision.policy != "review" && *decision.policy != "auto")
        return make_error(ErrorCode::bad_request, "policy must be \"review\" or \"auto\"");
    const std::optional<ToolKind> pending = pending_kind();
    bool plan = pending == ToolKind::plan;
    if (!decision.comments.empty() && !plan)
        return make_error(ErrorCode::bad_request,
                          "params.comments: only a plan takes comments, not a proposed " +
                              pending_.value("kind", std::string("change")));
    if (decision.fresh && (!plan || !decision.approve))
        return make_error(ErrorCode::bad_request,
                          "params.fresh: only approving a plan can go on in a fresh context");
    if (decision.rest_of_turn && (pending != ToolKind::edit || !decision.approve))
        return make_error(ErrorCode::bad_request,
                          "params.rest_of_turn: only approving an edit can approve the turn's "
                          "other edits");
    if ((decision.unsandboxed || decision.network || decision.environment) &&
        (pending != ToolKind::command || !decision.approve))
        return make_error(ErrorCode::bad_request,
                          std::string("params.") +
                              (decision.unsandboxed ? "unsandboxed"
                               : decision.network   ? "network"
                                                    : "environment") +
                              ": only approving a command can run it without the sandbox, "
                              "with the network or with your environment");
    apply_decision(decision, out);
    return Ok{};
}

std::vector<TurnId> AgentLoop::stop(std::optional<TurnId> turn, Effects& out) {
    if (!busy() || (turn && *turn != turn_)) return {};
    abandon_pending_plan(out);
    abort_turn("interrupted: the user stopped the turn", out);
    emit(out, StoppedEvent{turn_, std::string(to_wire(StopReason::stop))});
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
    if (state_ == State::streaming || state_ == State::compacting)
        out.push_back(CancelProvider{turn_});
    if (state_ == State::running_tool || state_ == State::awaiting_decision)
        out.push_back(CancelTools{turn_});
    state_ = State::idle;
    resuming_ = false;
    conversation_.clear();
    calls_.clear();
    results_.clear();
    awaiting_.reset();
    running_sandbox_.reset();
    pending_ = nullptr;
    decided_ids_.clear();
    last_plan_.clear();
    edits_approved_.reset();
    if (plan_) { // the conversation it belonged to is gone
        plan_.reset();
        ++plan_revision_;
    }
    compaction_.reset();
    reported_.reset();
    overflow_retried_ = false;
    told_mode_ = Mode::build;
    changed_files_.clear();
}

void AgentLoop::restore(RestoredSession session, Effects& out) {
    clear(out);
    conversation_ = std::move(session.conversation);
    // Auto-accept stays as this core has it: a file is no way to hand out edit rights.
    mode_ = session.mode;
    turn_ = session.turn;
    session_ = session.header.id;
    session_problem_.clear();
    told_mode_ = told_mode_of(conversation_);
    // The session's track has the progress; a session from before tracks were kept gets
    // its approved plan's steps afresh.
    plan_ = std::move(session.plan);
    if (!plan_) {
        std::string approved = approved_plan_of(conversation_);
        if (approved.empty()) approved = std::move(session.approved_plan);
        if (!approved.empty()) plan_ = track_plan(0, "", std::move(approved));
    }
    if (plan_) plan_->open = false; // its turn ended when the core did
    plan_revision_ = 0;
    changed_files_ = std::move(session.changed_files);
    for (std::string& path : files_changed_in(conversation_))
        if (std::find(changed_files_.begin(), changed_files_.end(), path) == changed_files_.end())
            changed_files_.push_back(std::move(path));
    bool pending = resume_pending(session);
    if (!pending && !conversation_.empty() && conversation_.back()->role == Role::assistant &&
        !conversation_.back()->calls.empty()) {
        // The core stopped while these ran: each gets an answer, as a stop would have given.
        std::vector<ToolOutcome> answers;
        for (const ToolCall& call : conversation_.back()->calls)
            answers.push_back(ToolOutcome{
                call.id, "interrupted: rio stopped before this call finished", true, {}, {}});
        record(Message{Role::user, {}, {}, std::move(answers), {}, ModeNote::none});
    }
    emit(out, ResetEvent{});
    emit(out, ModeEvent{std::string(to_wire(mode_))});
    if (pending) {
        // The proposal is prepared again from the recorded call: a session file is data, so
        // what a person is shown is what the call would do, never what the file claims. Only
        // a plan's file is taken from it (its presenting filed it already).
        const ToolCall& call = current_call();
        awaiting_ = ToolStage::prepare;
        RunTool run{turn_, call, current_kind_, ToolStage::prepare, nullptr, {}, false, {}, {}, {}};
        if (current_kind_ == ToolKind::plan)
            run.proposal = Json{{"path", session.pending->proposal.value("path", "")}};
        out.push_back(std::move(run));
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
    const ToolSpec* spec = spec_of(last.calls[step.results.size()].name);
    if (!spec || spec->kind == ToolKind::read || !last.calls[step.results.size()].input.is_object())
        return false; // nothing a person could be asked about
    calls_ = last.calls;
    results_ = step.results;
    current_kind_ = spec->kind;
    offered_.clear();
    for (const ToolSpec& spec : offered())
        offered_.push_back(spec.name);
    state_ = State::running_tool;
    resuming_ = true;
    return true;
}

// A resumed step whose call cannot be proposed again (its file changed, its server is gone,
// the mode forbids it) ends there, its calls answered with why; nothing more runs until the
// person writes.
void AgentLoop::end_resumed_step(const std::string& why, Effects& out) {
    resuming_ = false;
    for (std::size_t i = results_.size(); i < calls_.size(); ++i)
        results_.push_back(ToolOutcome{calls_[i].id, why, true, {}, {}});
    record(Message{Role::user, {}, {}, results_, {}, ModeNote::none});
    state_ = State::idle;
    awaiting_.reset();
    pending_ = nullptr;
    emit_status(out);
}

void AgentLoop::set_mode(Mode mode, Effects& out) {
    if (mode == mode_) return;
    mode_ = mode;
    emit(out, ModeEvent{std::string(to_wire(mode_))});
    emit_status(out);
}

void AgentLoop::set_auto_accept(bool on, Effects& out) {
    if (on == auto_accept_) return;
    auto_accept_ = on;
    emit_status(out);
}

void AgentLoop::set_provider(std::string provider, std::string model,
                             std::optional<PlanModel> plan_model, Effects& out) {
    if (provider == provider_ && model == model_ && plan_model == plan_model_) return;
    provider_ = std::move(provider);
    model_ = std::move(model);
    plan_model_ = std::move(plan_model);
    emit_status(out);
}

void AgentLoop::set_session(std::string id, std::string problem, Effects& out) {
    if (id == session_ && problem == session_problem_) return;
    session_ = std::move(id);
    session_problem_ = std::move(problem);
    emit_status(out);
}

void AgentLoop::set_budget(ContextBudget budget, Effects& out) {
    bool changed = budget.window != budget_.window;
    if (changed) ceiling_ = 0; // another model, another limit
    budget_ = budget;
    if (changed) emit_status(out);
}

Status AgentLoop::compact(std::string instructions, Effects& out) {
    if (state_ == State::streaming || state_ == State::running_tool || state_ == State::compacting)
        return make_error(ErrorCode::busy,
                          "turn " + std::to_string(turn_) +
                              " is running; compact once it is done (or stop it first)");
    if (conversation_.empty())
        return make_error(ErrorCode::bad_request, "there is no conversation to compact");
    begin_compaction(CompactReason::request, instructions, state_, out);
    return Ok{};
}

void AgentLoop::set_sandbox(SandboxState sandbox, Effects& out) {
    sandbox_ = std::move(sandbox);
    emit_status(out);
}

SandboxUse AgentLoop::command_sandbox(const Decision* decision) const {
    if (mode_ == Mode::plan) return {"read-only", false, std::nullopt};
    std::optional<bool> environment;
    if (decision && decision->environment) environment = true;
    if (!sandbox_.available || (decision && decision->unsandboxed))
        return {"none", false, environment};
    return {"workspace-write", decision && decision->network, environment};
}

void AgentLoop::on_provider(TurnId turn, std::uint64_t step, const ProviderReport& report,
                            Effects& out) {
    if (turn != turn_ || step != step_) return; // stale
    using Kind = ProviderReport::Kind;
    if (state_ == State::compacting && compaction_) {
        switch (report.kind) {
        case Kind::delta:
            compaction_->summary += report.text;
            return;
        case Kind::usage:
            emit(out, UsageEvent{turn_, report.data.is_object() ? report.data : Json::object()});
            return;
        case Kind::done:
            finish_compaction(true, "", out);
            return;
        case Kind::error:
            finish_compaction(false, "the summary request failed: " + report.text, out);
            return;
        default:
            return; // thinking, a tool call (none was offered), kept blocks: not kept
        }
    }
    if (state_ != State::streaming) return;
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
        if (auto input = reported_input(report.data)) {
            reported_ = {{*input, sent_bytes_}};
            emit_status(out); // the meter follows each step
        }
        return;
    case Kind::done:
        overflow_retried_ = false;
        if (!streamed_.empty() || !calls_.empty()) {
            std::string model = report.data.is_object() ? report.data.value("model", "") : "";
            record(Message{Role::assistant, streamed_, calls_, {}, kept_, ModeNote::none, model});
        }
        emit(out, MessageEvent{turn_, streamed_, report.stop_reason});
        if (calls_.empty()) {
            if (edited_since_checks_ && checks_continued_ < max_checks_continued) {
                edited_since_checks_ = false;
                ending_reason_ = report.stop_reason;
                state_ = State::checking;
                out.push_back(SettleChecks{turn_});
                emit_status(out);
                return;
            }
            end_turn(report.stop_reason, out);
            return;
        }
        state_ = State::running_tool;
        run_next_call(out);
        return;
    case Kind::error:
        if (report.code == ErrorCode::context_full && streamed_.empty()) {
            // The server knows the window better than any table: what it refused is the
            // limit from now on, with a margin for the estimate's error.
            std::uint64_t refused =
                std::max(estimated_tokens(), estimate_tokens(budget_.prefix_bytes + sent_bytes_));
            std::uint64_t limit = std::max<std::uint64_t>(refused * 9 / 10, 1024);
            ceiling_ = ceiling_ ? std::min(ceiling_, limit) : limit;
            if (!overflow_retried_) {
                overflow_retried_ = true;
                begin_compaction(CompactReason::overflow, "", State::streaming, out);
                return;
            }
            emit(out, ErrorEvent{turn_, std::string(to_string(ErrorCode::context_full)),
                                 "The conversation does not fit the model's context window, "
                                 "even after compacting it (about " +
                                     std::to_string(estimated_tokens()) +
                                     " tokens; the model "
                                     "refused " +
                                     std::to_string(refused) +
                                     "). Use /compact with instructions on what to keep, or "
                                     "start a new conversation. (" +
                                     report.text + ")"});
            end_turn("error", out);
            return;
        }
        if (!streamed_.empty())
            record(Message{Role::assistant, kept_partial(streamed_), {}, {}, {}, ModeNote::none});
        emit(out, ErrorEvent{turn_, std::string(to_string(report.code)), report.text});
        end_turn("error", out);
        return;
    }
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
    if (resuming_) {
        end_resumed_step("interrupted: rio stopped before this was decided, and it could not "
                         "be proposed again: " +
                             report.content,
                         out);
        return;
    }
    ToolKind kind = current_kind_;
    std::string content = report.content;
    if (report.stage == ToolStage::run && !report.is_error &&
        current_call().name == plan_progress_name) {
        finish_call(record_progress(report, out), out);
        return;
    }
    // Drift as it happens (DESIGN §20): a file the plan does not name is said at once.
    if (report.stage == ToolStage::apply && kind == ToolKind::edit && !report.is_error && plan_ &&
        plan_->open && !applying_path_.empty()) {
        if (touch(*plan_, applying_path_))
            progress_changed(out);
        else
            ++plan_revision_;
    }
    if (report.stage == ToolStage::apply && kind == ToolKind::edit && !report.is_error)
        edited_since_checks_ = true;
    if (report.stage == ToolStage::apply && kind == ToolKind::edit && !report.is_error &&
        !applying_path_.empty() &&
        std::find(changed_files_.begin(), changed_files_.end(), applying_path_) ==
            changed_files_.end())
        changed_files_.push_back(applying_path_);
    if (report.stage == ToolStage::apply && kind == ToolKind::plan) {
        if (report.is_error) {
            restore_before_plan_approval(out); // nothing was approved after all
        } else {
            std::string text = report.detail.value("text", std::string());
            content = approved_plan_result(approval_note_, report.detail.value("edited", false),
                                           text, approval_review_);
            report_carried_plan(out); // an earlier plan of this turn is done with
            plan_ = track_plan(turn_, approved_path_, text);
            content += "\n\n" + steps_for_model(plan_->steps);
            progress_changed(out);
            if (approval_fresh_) {
                continue_fresh(std::move(content), text, out);
                return;
            }
        }
    }
    finish_call(ToolOutcome{report.call_id, std::move(content), report.is_error, report.exit,
                            report.output},
                out);
}

void AgentLoop::on_checks(TurnId turn, std::string problems, Effects& out) {
    if (turn != turn_ || state_ != State::checking) return; // stopped or overtaken meanwhile
    if (problems.empty()) {
        end_turn(ending_reason_, out);
        return;
    }
    ++checks_continued_;
    std::string note =
        "Before you finish: " + problems + "\nFix what your changes broke, or say why it stays.";
    emit(out, NoteEvent{turn_, note});
    add_user_text(std::move(note));
    start_step(out);
    emit_status(out);
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
    s.mode = std::string(to_wire(mode_));
    s.auto_accept = auto_accept_;
    s.provider = provider_;
    s.model = model_;
    s.plan_model = plan_model_;
    s.busy = busy();
    s.turn = turn_;
    s.state = std::string(to_string(state_));
    // A step stopped at a proposal is still waiting while its conversation is compacted.
    if (state_ == State::awaiting_decision || (state_ == State::compacting && compaction_ &&
                                               compaction_->resume == State::awaiting_decision))
        s.pending = proposal_event(pending_);
    s.session = session_;
    s.session_problem = session_problem_;
    s.context = context();
    s.sandbox = sandbox_;
    if (plan_) {
        s.plan = tally(plan_->steps);
        s.plan->path = plan_->path;
    }
    return s;
}

std::uint64_t AgentLoop::window() const {
    return ceiling_ ? std::min(ceiling_, budget_.window) : budget_.window;
}

std::uint64_t AgentLoop::estimated_tokens() const {
    return estimate_tokens(budget_.prefix_bytes + conversation_bytes(conversation_));
}

// The provider's count for the last request plus an estimate of what came after it; rio's
// own estimate when that is larger (a server that truncates input reports what it kept) or
// when there is no count (decision 0054).
ContextInfo AgentLoop::context() const {
    std::uint64_t estimate = estimated_tokens();
    ContextInfo info{estimate, window(), true};
    if (reported_) {
        std::size_t now = conversation_bytes(conversation_);
        std::uint64_t counted =
            reported_->first +
            estimate_tokens(now > reported_->second ? now - reported_->second : 0);
        if (counted >= estimate) info = {counted, window(), false};
    }
    return info;
}

bool AgentLoop::over_threshold() const {
    return static_cast<double>(context().used) > budget_.compact_at * static_cast<double>(window());
}

void AgentLoop::start_step(Effects& out) {
    if (over_threshold() && kept_tail(conversation_) > 0) {
        begin_compaction(CompactReason::threshold, "", State::streaming, out);
        return;
    }
    send_step(out);
}

void AgentLoop::send_step(Effects& out) {
    state_ = State::streaming;
    ++step_;
    streamed_.clear();
    calls_.clear();
    kept_.clear();
    results_.clear();
    awaiting_.reset();
    pending_ = nullptr;
    // The gate follows the mode from step to step (a plan approved mid-turn widens the very
    // next call), but every step sends every tool: a request's prefix stays the same in both
    // modes, and a call the mode does not allow is refused (decision 0053).
    offered_.clear();
    for (const ToolSpec& spec : offered())
        offered_.push_back(spec.name);
    sent_bytes_ = conversation_bytes(conversation_);
    out.push_back(CallProvider{turn_, step_, mode_, tools_, conversation_, false});
}

void AgentLoop::begin_compaction(CompactReason reason, const std::string& instructions,
                                 State resume, Effects& out) {
    Compaction c;
    c.reason = reason;
    c.resume = resume;
    c.before = context().used;
    c.keep_from = kept_tail(conversation_);
    // Down to half the window, so the next steps have room before the threshold again; on
    // request, every older output goes.
    std::size_t room = bytes_for_tokens(window() / 2);
    std::size_t target = reason == CompactReason::request || room <= budget_.prefix_bytes
                             ? 0
                             : room - budget_.prefix_bytes;
    auto clear = [&](std::size_t keep_from) {
        Cleared cleared = clear_tool_outputs(conversation_, target, keep_from);
        c.cleared += cleared.cleared;
        if (cleared.cleared == 0) return;
        conversation_ = std::move(cleared.conversation);
        ++compactions_;
        reported_.reset(); // the count was of the conversation as it was
    };
    clear(c.keep_from);
    bool fits = reason != CompactReason::request && !over_threshold();
    if (!fits && reason != CompactReason::request) {
        // The newest step alone is too much (a window smaller than it seemed): its outputs
        // go too; the model can read again, in smaller pieces.
        clear(conversation_.size());
        fits = !over_threshold();
    }
    Conversation older(conversation_.begin(), conversation_.begin() + c.keep_from);
    c.older_bytes = conversation_bytes(older);
    bool may_summarize = reason != CompactReason::threshold || !summary_declined_;
    if (!fits && !may_summarize && c.cleared == 0) { // nothing new to say: go on as it is
        resume_after_compaction(resume, out);
        return;
    }
    if (fits || older.empty() || !may_summarize) {
        compaction_ = std::move(c);
        finish_compaction(false,
                          fits            ? ""
                          : older.empty() ? "there is nothing older than the newest step to "
                                            "summarize"
                                          : "a summary already came to nothing in this turn",
                          out);
        return;
    }
    // The summary request must fit too: its transcript gets half the window.
    std::string text = summary_request_text(older, bytes_for_tokens(window()) / 2, instructions);
    state_ = State::compacting;
    ++step_;
    compaction_ = std::move(c);
    Conversation request{std::make_shared<const Message>(
        Message{Role::user, std::move(text), {}, {}, {}, ModeNote::none})};
    out.push_back(CallProvider{turn_, step_, mode_, {}, std::move(request), true});
    emit_status(out);
}

// `ok`: a summary came (it may still be unusable); else `failure` says why there is none ("" when
// clearing was enough).
void AgentLoop::finish_compaction(bool ok, const std::string& failure, Effects& out) {
    Compaction c = std::move(*compaction_);
    compaction_.reset();
    std::string note = failure;
    bool summarized = false;
    std::size_t max_summary = bytes_for_tokens(window()) / 5;
    if (ok && usable_summary(c.summary, c.older_bytes, max_summary)) {
        Conversation older(conversation_.begin(), conversation_.begin() + c.keep_from);
        CompactionKeep keep{user_messages(older), approved_plan(),
                            plan_ ? progress_text(plan_->steps) : std::string(), changed_files_};
        Message seed{Role::user, compacted_seed(c.summary, keep, bytes_for_tokens(window()) / 5),
                     {},         {},
                     {},         mode_ == Mode::plan ? ModeNote::plan : ModeNote::none};
        Conversation compacted{std::make_shared<const Message>(std::move(seed))};
        compacted.insert(compacted.end(), conversation_.begin() + c.keep_from, conversation_.end());
        if (conversation_bytes(compacted) < conversation_bytes(conversation_)) {
            told_mode_ = mode_;
            conversation_ = std::move(compacted);
            ++compactions_;
            reported_.reset();
            summarized = true;
        } else {
            note = "the conversation is already smaller than a summary of it";
        }
    } else if (ok) {
        note = c.summary.find_first_not_of(" \t\r\n") == std::string::npos
                   ? "the summary came back empty"
                   : "the summary was longer than what it was to replace";
    }
    if (!note.empty()) note += "; only old tool outputs were cleared";
    if (ok && !summarized) summary_declined_ = true;
    if (!ok && !failure.empty() && c.reason == CompactReason::threshold) summary_declined_ = true;
    emit(out, CompactedEvent{turn_, c.before, context().used, c.cleared, summarized,
                             std::string(reason_name(static_cast<int>(c.reason))), note});
    resume_after_compaction(c.resume, out);
}

void AgentLoop::resume_after_compaction(State resume, Effects& out) {
    if (resume != State::streaming) {
        state_ = resume;
        emit_status(out);
        return;
    }
    if (context().used > window()) {
        state_ = State::streaming;
        emit(out,
             ErrorEvent{turn_, std::string(to_string(ErrorCode::context_full)),
                        "The conversation does not fit the model's context window (about " +
                            std::to_string(context().used) + " of " + std::to_string(window()) +
                            " tokens), even after compacting it. Use /compact with "
                            "instructions on what to keep, or start a new conversation."});
        end_turn("error", out);
        return;
    }
    send_step(out);
    emit_status(out);
}

void AgentLoop::run_next_call(Effects& out) {
    if (results_.size() == calls_.size()) {
        record(Message{Role::user, {}, {}, results_, {}, ModeNote::none});
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
        std::string why = spec && call.name == plan_progress_name
                              ? progress_refusal()
                              : refusal(call, tools_, this->offered(), mode_);
        finish_call(ToolOutcome{call.id, std::move(why), true, {}, {}}, out);
        return;
    }
    if (!allowed_in(mode_, kind)) { // offered when the step began, not in plan mode
        finish_call(ToolOutcome{call.id, switched_refusal(call), true, {}, {}}, out);
        return;
    }
    if (!call.input.is_object()) {
        finish_call(
            ToolOutcome{
                call.id, "The input of " + call.name + " must be a JSON object.", true, {}, {}},
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
                              outcome.exit, outcome.output,
                              std::exchange(running_sandbox_, std::nullopt)});
    results_.push_back(std::move(outcome));
    awaiting_.reset();
    state_ = State::running_tool;
    run_next_call(out);
}

void AgentLoop::refuse_switched(Effects& out) {
    awaiting_.reset();
    finish_call(ToolOutcome{current_call().id, switched_refusal(current_call()), true, {}, {}},
                out);
}

void AgentLoop::propose(Json proposal, Effects& out) {
    awaiting_.reset();
    pending_ = std::move(proposal);
    state_ = State::awaiting_decision;
    emit(out, proposal_event(pending_));
    emit_status(out);
}

void AgentLoop::abandon_pending_plan(Effects& out) {
    bool waiting =
        state_ == State::awaiting_decision || (state_ == State::compacting && compaction_ &&
                                               compaction_->resume == State::awaiting_decision);
    if (waiting && pending_.is_object() && pending_kind() == ToolKind::plan &&
        !pending_.value("path", "").empty())
        out.push_back(MarkPlan{pending_["path"], PlanStatus::abandoned, {}});
}

std::optional<ToolKind> AgentLoop::pending_kind() const {
    if (!pending_.is_object()) return std::nullopt;
    return from_wire<ToolKind>(pending_.value("kind", ""));
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
    proposal["kind"] = to_wire(kind); // a proposal's kind is its tool's
    if (kind == ToolKind::plan && !proposal.value("path", "").empty())
        last_plan_ = proposal["path"];
    if (kind == ToolKind::command) proposal["sandbox"] = command_sandbox(nullptr);
    if (kind == ToolKind::edit && plan_ && plan_->open && proposal.contains("path") &&
        proposal["path"].is_string() && !plan_names(plan_->text, proposal["path"]))
        proposal["plan_note"] = "not in the plan";
    if (std::exchange(resuming_, false)) {
        // Proposed again for a person, whatever a rule or auto-accept would say now.
        if (kind == ToolKind::plan && !proposal.value("path", "").empty())
            out.push_back(MarkPlan{proposal["path"], PlanStatus::presented, {}});
        propose(std::move(proposal), out);
        return;
    }
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
    const std::string kind_name = proposal["kind"];
    const std::optional<ToolKind> kind = from_wire<ToolKind>(kind_name);
    if (decided_turn_ != turn_) decided_ids_.clear();
    decided_turn_ = turn_;
    decided_ids_.insert(id);
    DecidedEvent decided{
        turn_,
        id,
        kind_name,
        std::string(to_wire(decision.approve ? Verdict::approve : Verdict::reject)),
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
    if (decision.network) decided.network = true;
    if (decision.environment) decided.environment = true;
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
        if (kind == ToolKind::plan && !proposal.value("path", "").empty())
            out.push_back(MarkPlan{proposal["path"], PlanStatus::rejected, review});
        emit_status(out);
        std::string note = kind == ToolKind::plan ? plan_rejection_note(review)
                                                  : rejection_note(kind, decision.feedback);
        finish_call(ToolOutcome{call.id, std::move(note), true, {}, {}}, out);
        return;
    }
    if (kind == ToolKind::plan) {
        approved_path_ = proposal.value("path", "");
        approve_pending_plan(decision, out);
    } else if (kind == ToolKind::edit && decision.policy == "auto")
        auto_accept_ = true;
    emit_status(out);
    awaiting_ = ToolStage::apply;
    applying_path_ = kind == ToolKind::edit ? proposal.value("path", "") : "";
    // The person's choice holds for this one call: the next command asks again.
    if (kind == ToolKind::command) running_sandbox_ = command_sandbox(&decision);
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
    if (kind == ToolKind::plan) run.review = std::move(review);
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

void AgentLoop::end_turn(std::string_view reason, Effects& out) {
    state_ = State::idle;
    edits_approved_.reset(); // the next turn asks again
    emit(out, DoneEvent{turn_, std::string(reason)});
    report_carried_plan(out);
    emit_status(out);
}

void AgentLoop::report_carried_plan(Effects& out) {
    if (!plan_ || !plan_->open) return;
    plan_->open = false;
    ++plan_revision_;
    out.push_back(ReportPlan{plan_->turn, plan_->path, plan_->text, plan_->touched});
}

std::vector<ToolSpec> AgentLoop::offered() const {
    std::vector<ToolSpec> tools = offered_tools(tools_, mode_, sandbox_.available);
    if (!progress_open())
        std::erase_if(tools, [](const ToolSpec& t) { return t.name == plan_progress_name; });
    return tools;
}

bool AgentLoop::progress_open() const {
    return plan_ && plan_->open && plan_->turn == turn_ && mode_ == Mode::build;
}

std::string AgentLoop::progress_refusal() const {
    std::string why;
    if (!plan_)
        why = "no plan was approved in this conversation, so there is no progress to report";
    else if (mode_ == Mode::plan)
        why = "it is not available in plan mode";
    else if (!plan_->open || plan_->turn != turn_)
        why = "the turn that carried out the approved plan has ended; progress is reported "
              "only while the plan is being carried out";
    else
        why = "the plan was approved during this step; report progress from your next step on";
    return "plan_progress was refused: " + why + ". Nothing was recorded.";
}

ToolOutcome AgentLoop::record_progress(const ToolReport& report, Effects& out) {
    if (!progress_open()) return ToolOutcome{report.call_id, progress_refusal(), true, {}, {}};
    const Json& d = report.detail;
    std::optional<std::string> note;
    if (d.contains("note") && d["note"].is_string()) note = d["note"].get<std::string>();
    std::uint64_t step = d.value("step", std::uint64_t{0});
    if (auto error = set_step(*plan_, step, d.value("status", std::string()), note))
        return ToolOutcome{report.call_id, std::move(*error), true, {}, {}};
    progress_changed(out);
    PlanTally t = tally(plan_->steps);
    std::string content = "Recorded: step " + std::to_string(step) + " is " +
                          plan_->steps[step - 1].status + ". " + std::to_string(t.done) + " of " +
                          std::to_string(t.total) + " steps are done.";
    if (note && note->size() > max_step_note_bytes)
        content += " The note was clipped to " + std::to_string(max_step_note_bytes) + " bytes.";
    return ToolOutcome{report.call_id, std::move(content), false, {}, {}};
}

void AgentLoop::progress_changed(Effects& out) {
    ++plan_revision_;
    emit(out, progress_event(*plan_));
    if (!plan_->path.empty()) out.push_back(SaveProgress{plan_->path, plan_->steps});
    emit_status(out);
}

// The old conversation is closed: the new one is the user's request and the approved plan,
// and the turn goes on from there, in the mode and policy the approval set.
void AgentLoop::continue_fresh(std::string result, const std::string& plan, Effects& out) {
    const ToolCall& call = current_call();
    emit(out,
         ToolResultEvent{
             turn_, call.id, call.name, true, std::move(result), std::nullopt, {}, std::nullopt});
    std::string request;
    for (const auto& message : conversation_)
        if (message->role == Role::user && !message->text.empty())
            request += (request.empty() ? "" : "\n\n") + message->text;
    std::string seed = fresh_context_seed(request, plan, approval_note_, approval_review_);
    if (plan_) seed += "\n\n" + steps_for_model(plan_->steps);
    conversation_.clear();
    told_mode_ = mode_;
    reported_.reset();
    record(Message{Role::user, seed, {}, {}, {}, ModeNote::none});
    emit(out, FreshEvent{turn_, approved_path_, std::move(seed)});
    start_step(out);
}

void AgentLoop::abort_turn(const std::string& why, Effects& out) {
    if (state_ == State::compacting) {
        // The conversation stays as it was before the summary was asked for.
        out.push_back(CancelProvider{turn_});
        bool mid_step = compaction_ && compaction_->resume == State::awaiting_decision;
        compaction_.reset();
        state_ = mid_step ? State::awaiting_decision : State::idle;
        if (state_ == State::idle) {
            awaiting_.reset();
            pending_ = nullptr;
            edits_approved_.reset();
            return;
        }
    }
    if (state_ == State::streaming) {
        out.push_back(CancelProvider{turn_});
        if (!streamed_.empty())
            record(Message{Role::assistant, kept_partial(streamed_), {}, {}, {}, ModeNote::none});
    } else if (state_ != State::idle && state_ != State::checking) {
        out.push_back(CancelTools{turn_});
        for (std::size_t i = results_.size(); i < calls_.size(); ++i)
            results_.push_back(ToolOutcome{calls_[i].id, why, true, {}, {}});
        record(Message{Role::user, {}, {}, results_, {}, ModeNote::none});
    }
    state_ = State::idle;
    resuming_ = false;
    awaiting_.reset();
    running_sandbox_.reset();
    pending_ = nullptr;
    edits_approved_.reset();
}

// Keeps roles alternating: text after an entry that is already the user's (a stopped turn)
// joins it.
void AgentLoop::add_user_text(std::string text) {
    ModeNote note = ModeNote::none;
    if (mode_ != told_mode_) {
        note = mode_ == Mode::plan ? ModeNote::plan : ModeNote::build;
        told_mode_ = mode_;
    }
    if (!conversation_.empty() && conversation_.back()->role == Role::user) {
        Message joined = *conversation_.back();
        joined.text += joined.text.empty() ? text : "\n\n" + text;
        if (note != ModeNote::none) joined.note = note;
        conversation_.back() = std::make_shared<const Message>(std::move(joined));
        return;
    }
    record(Message{Role::user, std::move(text), {}, {}, {}, note});
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
