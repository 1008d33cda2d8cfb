// The agent loop's approved plan (DESIGN §20): its progress, the report at the end of the
// turn that carried it out, and going on in a new conversation.
#include "core/agent/loop.hpp"
#include "core/agent/plan_report.hpp"

namespace rio {

void AgentLoop::report_carried_plan(Effects& out) {
    if (!plan_ || !plan_->open) return;
    plan_->open = false;
    ++plan_revision_;
    out.push_back(ReportPlan{plan_->turn, plan_->path, plan_->text, plan_->touched});
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
    const auto* reported = std::get_if<StepReport>(&report.detail);
    const StepReport d = reported ? *reported : StepReport{};
    const std::uint64_t step = d.step;
    const std::optional<std::string>& note = d.note;
    if (auto error = set_step(*plan_, step, d.status, note))
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

} // namespace rio
