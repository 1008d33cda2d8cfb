
#include "core/agent/loop.hpp"

#include "core/agent/loop_shared.hpp"
#include "text/utf8.hpp"

#include <algorithm>
#include <utility>

namespace rio {
namespace {

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

// Output tokens of a step, from a usage report; 0 when it has none.
std::uint64_t reported_output(const Json& counts) {
    auto it = counts.find("output_tokens");
    return it != counts.end() && it->is_number_unsigned() ? it->get<std::uint64_t>() : 0;
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

} // namespace

namespace loop_shared {

std::string switched_refusal(const ToolCall& call) {
    return call.name +
           " was not run: the user switched to plan mode, so nothing was changed or run. "
           "Investigate with the read tools, then call present_plan; changes are possible only "
           "after the user approves the plan.";
}

Wire<ToolKind> kind_of(const ToolSpec* spec) {
    return spec ? Wire<ToolKind>(spec->kind) : Wire<ToolKind>::named("unknown");
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

} // namespace loop_shared

AgentLoop::AgentLoop(std::vector<ToolSpec> tools) : tools_(std::move(tools)) {}

TurnId AgentLoop::send(std::string text, Effects& out) {
    if (busy()) {
        abandon_pending_plan(out);
        abort_turn("interrupted: the user sent a new message before this finished", out);
        emit(out, StoppedEvent{turn_, std::string(to_wire(StopReason::new_message))});
        report_carried_plan(out);
    }
    TurnStart start{turn_ + 1, conversation_.size(), std::nullopt, text};
    if (!conversation_.empty() && conversation_.back()->role == Role::user) {
        start.index = conversation_.size() - 1; // the text joins a stopped turn's results
        start.joined = *conversation_.back();
    }
    add_user_text(std::move(text));
    turn_starts_.push_back(std::move(start));
    ++turn_;
    edited_since_checks_ = false;
    checks_continued_ = 0;
    overflow_retried_ = false;
    summary_declined_ = false;
    start_step(out);
    emit_status(out);
    return turn_;
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
    checking_.reset();
    pending_.reset();
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
    turn_starts_.clear();
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

void AgentLoop::investigate_only(std::vector<std::string> only) {
    subagent_ = true;
    subagent_tools_ = std::move(only);
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

void AgentLoop::set_sandbox(SandboxState sandbox, Effects& out) {
    sandbox_ = std::move(sandbox);
    emit_status(out);
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
        if (plan_ && plan_->open && plan_->turn == turn_ && report.data.is_object())
            record_usage(*plan_, reported_input(report.data).value_or(0),
                         reported_output(report.data), model_);
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
        start_subagents(out);
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
        std::holds_alternative<StepReport>(report.detail)) {
        record_progress(report, out);
        return;
    }
    if (report.stage == ToolStage::apply && checking_) {
        if (plan_ && !report.files.empty()) expect_files(*plan_, report.files); // a check's too
        const auto* ran = std::get_if<CheckRun>(&report.detail);
        // A report without the run (the tool failed before it): a failure, never a pass.
        finish_check(
            ran ? *ran
                : CheckRun{{},
                           {},
                           {},
                           std::nullopt,
                           report.content.empty() ? "the check reported nothing" : report.content},
            report.output, report.exit, out);
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
    if (report.stage == ToolStage::apply && kind == ToolKind::edit && !report.is_error) {
        edited_since_checks_ = true;
        if (plan_ && applying_after_) {
            expect_text(*plan_, applying_path_, *applying_after_);
            record_edit(*plan_, applying_path_, applying_diff_);
        }
    }
    // A command the plan's work ran, for the receipt: how it ran and how it ended.
    if (report.stage == ToolStage::apply && kind == ToolKind::command && plan_ && plan_->open &&
        !applying_argv_.empty()) {
        std::optional<int> code = report.exit ? report.exit->code : std::nullopt;
        plan_->commands.push_back(
            {std::exchange(applying_argv_, {}),
             std::string(running_sandbox_ ? running_sandbox_->profile.name() : "none"), code});
    }
    // An approved command's changes to the files the steps name are the plan's own work.
    if (plan_ && !report.files.empty()) expect_files(*plan_, report.files);
    if (report.stage == ToolStage::apply && kind == ToolKind::edit && !report.is_error &&
        !applying_path_.empty() &&
        std::find(changed_files_.begin(), changed_files_.end(), applying_path_) ==
            changed_files_.end())
        changed_files_.push_back(applying_path_);
    if (report.stage == ToolStage::apply && kind == ToolKind::plan) {
        if (report.is_error) {
            restore_before_plan_approval(out); // nothing was approved after all
        } else {
            const auto* read = std::get_if<PlanReadBack>(&report.detail);
            std::string text = read ? read->text : std::string();
            content =
                approved_plan_result(approval_note_, read && read->edited, text, approval_review_);
            report_carried_plan(out, true); // an earlier plan of this turn is done with
            plan_ = track_plan(turn_, approved_path_, text,
                               read ? read->steps : std::vector<DeclaredStep>{});
            if (read) {
                plan_->expected = read->files;
                plan_->approved_texts = read->texts;
                plan_->head = read->head;
            }
            content += "\n\n" + steps_for_model(*plan_);
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

void AgentLoop::on_checks(TurnId turn, const std::string& problems, Effects& out) {
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

AgentStatus AgentLoop::status() const {
    AgentStatus s;
    s.mode = std::string(to_wire(mode_));
    s.auto_accept = auto_accept_;
    s.provider = provider_;
    s.model = model_;
    s.plan_model = plan_model_;
    s.busy = busy();
    s.turn = turn_;
    s.state = state_;
    // A step stopped at a proposal is still waiting while its conversation is compacted.
    bool waiting =
        state_ == State::awaiting_decision || (state_ == State::compacting && compaction_ &&
                                               compaction_->resume == State::awaiting_decision);
    if (waiting && pending_) s.pending = pending_->brief();
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

void AgentLoop::start_step(Effects& out) {
    if (over_threshold() && loop_shared::kept_tail(conversation_) > 0) {
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
    announced_.clear();
    kept_.clear();
    results_.clear();
    awaiting_.reset();
    pending_.reset();
    // The gate follows the mode from step to step (a plan approved mid-turn widens the very
    // next call), but every step sends every tool: a request's prefix stays the same in both
    // modes, and a call the mode does not allow is refused (decision 0053).
    offered_.clear();
    for (const ToolSpec& spec : offered())
        offered_.push_back(spec.name);
    sent_bytes_ = conversation_bytes(conversation_);
    out.push_back(CallProvider{turn_, step_, mode_, tools_, conversation_, false});
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
    // A task call that started with its step's others was announced then.
    if (std::find(announced_.begin(), announced_.end(), call.id) == announced_.end())
        emit(out, ToolEvent{turn_, call.id, call.name, call.input, loop_shared::kind_of(spec),
                            running_sandbox_});
    if (!spec || !offered) {
        std::string why = subagent_ ? subagent_refusal(call)
                          : spec && spec->while_carrying_out_a_plan
                              ? progress_refusal()
                              : refusal(call, tools_, this->offered(), mode_);
        finish_call(ToolOutcome{call.id, std::move(why), true, {}, {}}, out);
        return;
    }
    if (!allowed_in(mode_, kind)) { // offered when the step began, not in plan mode
        finish_call(ToolOutcome{call.id, loop_shared::switched_refusal(call), true, {}, {}}, out);
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
    RunTool run{turn_, call, kind, *awaiting_, {}, {}, false, {}, {}, running_sandbox_};
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

void AgentLoop::end_turn(std::string_view reason, Effects& out) {
    state_ = State::idle;
    edits_approved_.reset(); // the next turn asks again
    // The receipt (plans.report) comes before agent.done: a frontend that ends its prompt on
    // done (ACP, rio-cli -p) has it to show.
    report_carried_plan(out);
    emit(out, DoneEvent{turn_, std::string(reason)});
    emit_status(out);
}

std::vector<ToolSpec> AgentLoop::offered() const {
    std::vector<ToolSpec> tools = offered_tools(tools_, mode_, sandbox_.available);
    if (!progress_open())
        std::erase_if(tools, [](const ToolSpec& t) { return t.while_carrying_out_a_plan; });
    if (subagent_)
        std::erase_if(tools, [this](const ToolSpec& t) {
            const bool listed = subagent_tools_.empty() ||
                                std::find(subagent_tools_.begin(), subagent_tools_.end(), t.name) !=
                                    subagent_tools_.end();
            return t.kind == ToolKind::plan || t.kind == ToolKind::edit || t.starts_subagent ||
                   !listed;
        });
    return tools;
}

void AgentLoop::start_subagents(Effects& out) {
    StartSubagents start{turn_, {}};
    for (const ToolCall& call : calls_) {
        const ToolSpec* spec = spec_of(call.name);
        if (spec && spec->starts_subagent && call.input.is_object() &&
            std::find(offered_.begin(), offered_.end(), call.name) != offered_.end())
            start.calls.push_back(call);
    }
    if (start.calls.empty()) return;
    // Each is announced as it starts, so its subagent's steps follow its agent.tool.
    for (const ToolCall& call : start.calls) {
        emit(out, ToolEvent{turn_, call.id, call.name, call.input,
                            loop_shared::kind_of(spec_of(call.name)), std::nullopt});
        announced_.push_back(call.id);
    }
    out.push_back(std::move(start));
}

std::string AgentLoop::subagent_refusal(const ToolCall& call) const {
    const ToolSpec* spec = spec_of(call.name);
    std::string names = read_tool_names(offered());
    if (spec && spec->starts_subagent)
        return "A subagent cannot start another subagent; nothing was started. Investigate with "
               "your own tools (" +
               names + ") and answer.";
    if (!spec) return "There is no tool named '" + call.name + "'. Your tools: " + names + ".";
    return call.name +
           " is not available to a subagent, so nothing was changed or run: a subagent only "
           "investigates, with " +
           names + ", and answers with what it found.";
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
            pending_.reset();
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
    checking_.reset();
    pending_.reset();
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
