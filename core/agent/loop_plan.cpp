// The agent loop's approved plan (DESIGN §20): its progress, the report at the end of the
// turn that carried it out, and going on in a new conversation.
#include "core/agent/loop.hpp"
#include "core/agent/plan_report.hpp"

namespace rio {

void AgentLoop::report_carried_plan(Effects& out, bool superseded) {
    if (!plan_ || !plan_->open) return;
    plan_->open = false;
    ++plan_revision_;
    out.push_back(ReportPlan{plan_->turn, plan_->path, plan_->text, plan_->touched,
                             receipt_of(*plan_, superseded), !plan_->declared.empty()});
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

void AgentLoop::record_progress(const ToolReport& report, Effects& out) {
    const std::string& id = report.call_id;
    if (!progress_open())
        return finish_call(ToolOutcome{id, progress_refusal(), true, {}, {}}, out);
    const auto* reported = std::get_if<StepReport>(&report.detail);
    const StepReport d = reported ? *reported : StepReport{};
    if (auto refused = refused_report(*plan_, d.step, d.status))
        return finish_call(ToolOutcome{id, std::move(*refused), true, {}, {}}, out);
    const DeclaredStep* declared = declared_step(*plan_, d.step);
    if (wire_is(d.status, StepStatus::done) && declared && declared->check)
        return run_check(d, *declared, out);
    (void)set_step(*plan_, d.step, d.status, d.note);
    progress_changed(out);
    PlanTally t = tally(plan_->steps);
    const PlanStep& step = plan_->steps[d.step - 1];
    std::string content = "Recorded: step " + std::to_string(d.step) + " is " + step.status +
                          (step.verified == false ? " (unverified: it has no check)" : "") + ". " +
                          std::to_string(t.done) + " of " + std::to_string(t.total) +
                          " steps are done.";
    if (d.note && d.note->size() > max_step_note_bytes)
        content += " The note was clipped to " + std::to_string(max_step_note_bytes) + " bytes.";
    finish_call(ToolOutcome{id, std::move(content), false, {}, {}}, out);
}

// The check was approved with the plan: it runs now, without asking, sandboxed (read-only, or
// workspace-write when the step said it writes), never with the network. Without a sandbox it
// does not run, and the step fails saying so: a check that cannot run never passes.
void AgentLoop::run_check(const StepReport& report, const DeclaredStep& step, Effects& out) {
    checking_ = report;
    const StepCheck& check = *step.check;
    if (!sandbox_.available)
        return finish_check(CheckRun{check.argv,
                                     check.cwd.empty() ? "." : check.cwd,
                                     {},
                                     std::nullopt,
                                     "not run: commands cannot run sandboxed here (" +
                                         sandbox_.reason + "), and a check runs only sandboxed"},
                            std::nullopt, std::nullopt, out);
    awaiting_ = ToolStage::apply;
    running_sandbox_ =
        SandboxUse{check.writes ? SandboxProfile::workspace_write : SandboxProfile::read_only,
                   false, std::nullopt};
    RunTool run{turn_, current_call(),  ToolKind::read, ToolStage::apply, {}, {}, false, {},
                {},    running_sandbox_};
    run.check = StepToCheck{report.step, check, step.files};
    run.rehash = expected_paths(*plan_);
    out.push_back(std::move(run));
}

void AgentLoop::finish_check(CheckRun run, std::optional<std::string> output,
                             std::optional<CommandExit> exit, Effects& out) {
    const StepReport d = *std::exchange(checking_, std::nullopt);
    if (output) run.output = evidence_output(*output);
    bool passed = run.passed();
    set_checked(*plan_, d.step, std::move(run), d.note);
    progress_changed(out);
    finish_call(ToolOutcome{current_call().id, check_result_text(*plan_, d.step), !passed, exit,
                            std::move(output)},
                out);
}

std::variant<RunTool, std::string> AgentLoop::recheck(std::uint64_t step) const {
    if (busy()) return std::string("the agent is working; run the check again once its turn ends");
    if (!plan_) return std::string("no plan was approved in this conversation");
    if (step == 0 || step > plan_->steps.size())
        return "the approved plan has " + std::to_string(plan_->steps.size()) +
               (plan_->steps.size() == 1 ? " step, not " : " steps, not ") + std::to_string(step);
    const DeclaredStep* declared = declared_step(*plan_, step);
    if (!declared || !declared->check)
        return "step " + std::to_string(step) + " has no check: the plan did not declare one";
    const StepCheck& check = *declared->check;
    if (check.writes && mode_ == Mode::plan)
        return "step " + std::to_string(step) +
               "'s check writes (writes: true), and plan mode runs nothing that writes; switch "
               "to build mode to run it";
    if (!sandbox_.available)
        return "commands cannot run sandboxed here (" + sandbox_.reason +
               "), and a check runs only sandboxed";
    RunTool run{
        turn_,
        ToolCall{"recheck-" + std::to_string(step), "plan_progress", {}},
        ToolKind::read,
        ToolStage::apply,
        {},
        {},
        true,
        {},
        {},
        SandboxUse{check.writes ? SandboxProfile::workspace_write : SandboxProfile::read_only,
                   false, std::nullopt}};
    run.check = StepToCheck{step, check, declared->files};
    run.rehash = expected_paths(*plan_);
    return run;
}

std::optional<PlanStep> AgentLoop::rechecked(const std::string& plan_path, std::uint64_t step,
                                             ToolReport report, Effects& out) {
    const auto* ran = std::get_if<CheckRun>(&report.detail);
    if (!ran || !plan_ || plan_->path != plan_path || step == 0 || step > plan_->steps.size())
        return std::nullopt;
    if (!report.files.empty()) expect_files(*plan_, report.files);
    CheckRun run = *ran;
    if (report.output) run.output = evidence_output(*report.output);
    PlanStep& s = plan_->steps[step - 1];
    if (s.is(StepStatus::done) || s.is(StepStatus::failed)) {
        std::optional<std::string> note = s.note;
        set_checked(*plan_, step, std::move(run), note);
    } else {
        s.check = std::move(run);
    }
    progress_changed(out);
    return plan_->steps[step - 1];
}

bool AgentLoop::watching_drift() const {
    return plan_ && plan_->open && state_ != State::running_tool;
}

std::vector<std::string> AgentLoop::drift_watched() const {
    return watching_drift() ? expected_paths(*plan_) : std::vector<std::string>{};
}

void AgentLoop::observe_files(const std::vector<FileHash>& now, Effects& out) {
    if (!watching_drift()) return; // the work went on while they were read
    bool news = false;
    for (const FileHash& file : now)
        news = drift_seen(*plan_, file) || news;
    if (news) progress_changed(out);
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
    if (plan_) seed += "\n\n" + steps_for_model(*plan_);
    conversation_.clear();
    rewritten();
    told_mode_ = mode_;
    reported_.reset();
    record(Message{Role::user, seed, {}, {}, {}, ModeNote::none});
    emit(out, FreshEvent{turn_, approved_path_, std::move(seed)});
    start_step(out);
}

} // namespace rio
