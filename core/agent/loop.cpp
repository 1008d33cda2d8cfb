#include "core/agent/loop.hpp"

#include "core/text_format.hpp"

#include <algorithm>

namespace rio {
namespace {

using Json = nlohmann::json;

std::string with_feedback(const std::string& feedback) {
    return feedback.empty() ? std::string() : " Their feedback: " + feedback;
}

std::string rejection(std::string_view kind, const std::string& feedback) {
    if (kind == "plan")
        return "The user rejected the plan." + with_feedback(feedback) +
               " Do not start the work and do not change anything. Ask the user what should "
               "change, or revise the plan and present it again with present_plan.";
    if (kind == "edit")
        return "The user rejected this change; the file is unchanged." + with_feedback(feedback) +
               " Do not retry the same change: adjust it or ask the user.";
    return "The user declined to run this command." + with_feedback(feedback);
}

std::string switched_refusal(const ToolCall& call) {
    return call.name +
           " was not run: the user switched to plan mode, so nothing was changed or run. "
           "Investigate with the read tools, then call present_plan; changes are possible only "
           "after the user approves the plan.";
}

std::string refusal(const ToolCall& call, Mode mode) {
    if (!find_tool(call.name)) {
        std::string names;
        for (const ToolSpec& spec : offered_tools(mode))
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

// Full proposals carry both texts for agent.proposal; events stay small.
Json without_texts(Json proposal) {
    proposal.erase("before");
    proposal.erase("after");
    return proposal;
}

} // namespace

TurnId AgentLoop::send(std::string text, Effects& out) {
    if (busy()) {
        abandon_pending_plan(out);
        abort_turn("interrupted: the user sent a new message before this finished", out);
        emit(out, "agent.stopped", {{"turn", turn_}, {"reason", "new message"}});
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
    if (pending_.is_null() || decision.turn != turn_) {
        if (this_turn && !decision.id)
            return make_error(ErrorCode::conflict, "turn " + turn + " was already decided");
        return make_error(ErrorCode::bad_request, "nothing is pending for turn " + turn);
    }
    if (decision.id && *decision.id != pending_["id"])
        return make_error(ErrorCode::bad_request,
                          "proposal " + *decision.id + " is not pending in turn " + turn);
    if (decision.policy && *decision.policy != "review" && *decision.policy != "auto")
        return make_error(ErrorCode::bad_request, "policy must be \"review\" or \"auto\"");
    apply_decision(decision, out);
    return Ok{};
}

std::vector<TurnId> AgentLoop::stop(std::optional<TurnId> turn, Effects& out) {
    if (!busy() || (turn && *turn != turn_)) return {};
    abandon_pending_plan(out);
    abort_turn("interrupted: the user stopped the turn", out);
    emit(out, "agent.stopped", {{"turn", turn_}, {"reason", "stop"}});
    emit_status(out);
    return {turn_};
}

void AgentLoop::reset(Effects& out) {
    abandon_pending_plan(out);
    if (phase_ == Phase::provider) out.push_back(CancelProvider{turn_});
    if (phase_ == Phase::tools) out.push_back(CancelTools{turn_});
    phase_ = Phase::idle;
    conversation_.clear();
    calls_.clear();
    results_.clear();
    awaiting_.reset();
    pending_ = nullptr;
    decided_ids_.clear();
    emit(out, "agent.reset", Json::object());
    emit_status(out);
}

void AgentLoop::set_mode(Mode mode, Effects& out) {
    if (mode == mode_) return;
    mode_ = mode;
    emit(out, "agent.mode", {{"mode", to_string(mode_)}});
    emit_status(out);
}

void AgentLoop::set_auto_accept(bool on, Effects& out) {
    if (on == auto_accept_) return;
    auto_accept_ = on;
    emit_status(out);
}

void AgentLoop::on_provider(TurnId turn, std::uint64_t step, const ProviderReport& report,
                            Effects& out) {
    if (phase_ != Phase::provider || turn != turn_ || step != step_) return; // stale
    using Kind = ProviderReport::Kind;
    switch (report.kind) {
    case Kind::delta:
        streamed_ += report.text;
        emit(out, "agent.delta", {{"turn", turn_}, {"text", report.text}});
        return;
    case Kind::thinking:
        emit(out, "agent.thinking", {{"turn", turn_}, {"text", report.text}});
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
    case Kind::usage: {
        Json usage = report.data.is_object() ? report.data : Json::object();
        usage["turn"] = turn_;
        emit(out, "agent.usage", std::move(usage));
        return;
    }
    case Kind::done:
        if (!streamed_.empty() || !calls_.empty())
            record(Message{Role::assistant, streamed_, calls_, {}, kept_});
        emit(out, "agent.message",
             {{"turn", turn_}, {"text", streamed_}, {"stop_reason", report.stop_reason}});
        if (calls_.empty()) {
            end_turn(report.stop_reason, out);
            return;
        }
        phase_ = Phase::tools;
        run_next_call(out);
        return;
    case Kind::error:
        if (!streamed_.empty())
            record(Message{Role::assistant, kept_partial(streamed_), {}, {}, {}});
        emit(out, "agent.error",
             {{"turn", turn_}, {"code", to_string(report.code)}, {"message", report.text}});
        end_turn("error", out);
        return;
    }
}

bool AgentLoop::may_run(const RunTool& run, Effects& out) {
    if (!expects(run.turn, run.call.id, run.stage)) return false;
    if (!allowed_now(run.kind)) {
        refuse_switched(out);
        return false;
    }
    if (run.stage == ToolStage::apply && run.kind == ToolKind::edit && !run.by_person &&
        !auto_accept_) {
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
    bool plan = find_tool(calls_[results_.size()].name)->kind == ToolKind::plan;
    if (report.stage == ToolStage::apply && report.is_error && plan) {
        // Nothing was approved after all (the user emptied the plan): back to how it was.
        auto [mode, auto_accept] = before_plan_approval_;
        auto_accept_ = auto_accept;
        if (mode != mode_) {
            mode_ = mode;
            emit(out, "agent.mode", {{"mode", to_string(mode_)}});
        }
        emit_status(out);
    }
    std::string content = report.content;
    if (report.stage == ToolStage::apply && !report.is_error && plan) {
        content = approval_note_;
        if (report.detail.value("edited", false))
            content += "\n\nThe user edited the plan before approving it. This is the approved "
                       "plan; follow it rather than your original text:\n\n" +
                       report.detail.value("text", std::string());
    }
    finish_call(ToolOutcome{report.call_id, std::move(content), report.is_error}, out);
}

bool AgentLoop::expects(TurnId turn, const std::string& call_id, ToolStage stage) const {
    return phase_ == Phase::tools && turn == turn_ && awaiting_ == stage &&
           results_.size() < calls_.size() && calls_[results_.size()].id == call_id;
}

Json AgentLoop::proposal() const {
    return pending_;
}

Json AgentLoop::status() const {
    return Json{{"mode", to_string(mode_)},
                {"auto_accept", auto_accept_},
                {"busy", busy()},
                {"turn", turn_},
                {"pending", pending_.is_null() ? Json(nullptr) : without_texts(pending_)}};
}

void AgentLoop::start_step(Effects& out) {
    phase_ = Phase::provider;
    ++step_;
    streamed_.clear();
    calls_.clear();
    kept_.clear();
    results_.clear();
    awaiting_.reset();
    pending_ = nullptr;
    // Recomposed every step: a plan approved mid-turn widens the very next call.
    std::vector<ToolSpec> tools = offered_tools(mode_);
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
    const ToolCall& call = calls_[results_.size()];
    const ToolSpec* spec = find_tool(call.name);
    emit(out, "agent.tool",
         {{"turn", turn_},
          {"id", call.id},
          {"name", call.name},
          {"input", call.input},
          {"kind", spec ? to_string(spec->kind) : "unknown"}});
    bool offered = std::find(offered_.begin(), offered_.end(), call.name) != offered_.end();
    if (!spec || !offered) {
        finish_call(ToolOutcome{call.id, refusal(call, mode_), true}, out);
        return;
    }
    if (!allowed_now(spec->kind)) { // offered when the step began, but not in plan mode
        finish_call(ToolOutcome{call.id, switched_refusal(call), true}, out);
        return;
    }
    if (!call.input.is_object()) {
        finish_call(
            ToolOutcome{call.id, "The input of " + call.name + " must be a JSON object.", true},
            out);
        return;
    }
    awaiting_ = spec->kind == ToolKind::read ? ToolStage::run : ToolStage::prepare;
    out.push_back(RunTool{turn_, call, spec->kind, *awaiting_, nullptr, {}, false});
}

void AgentLoop::finish_call(ToolOutcome outcome, Effects& out) {
    const ToolCall& call = calls_[results_.size()];
    emit(out, "agent.tool_result",
         {{"turn", turn_},
          {"id", call.id},
          {"name", call.name},
          {"ok", !outcome.is_error},
          {"content", outcome.content}});
    results_.push_back(std::move(outcome));
    awaiting_.reset();
    run_next_call(out);
}

bool AgentLoop::allowed_now(ToolKind kind) const {
    return mode_ == Mode::build || kind == ToolKind::read || kind == ToolKind::plan;
}

void AgentLoop::refuse_switched(Effects& out) {
    awaiting_.reset();
    finish_call(
        ToolOutcome{calls_[results_.size()].id, switched_refusal(calls_[results_.size()]), true},
        out);
}

void AgentLoop::propose(Json proposal, Effects& out) {
    awaiting_.reset();
    pending_ = std::move(proposal);
    emit(out, "agent.propose", without_texts(pending_));
    emit_status(out);
}

void AgentLoop::abandon_pending_plan(Effects& out) {
    if (pending_.is_object() && pending_.value("kind", "") == "plan" &&
        !pending_.value("path", "").empty())
        out.push_back(MarkPlan{pending_["path"], "abandoned"});
}

void AgentLoop::gate(const ToolReport& report, Effects& out) {
    const ToolCall& call = calls_[results_.size()];
    ToolKind kind = find_tool(call.name)->kind;
    if (!allowed_now(kind)) { // the mode changed while it was being prepared
        refuse_switched(out);
        return;
    }
    Json proposal = report.detail.is_object() ? report.detail : Json::object();
    proposal["turn"] = turn_;
    proposal["id"] = call.id;
    proposal["kind"] = to_string(kind);
    // Auto-accept covers edits only; a command needs a human-written allow rule; a plan
    // always waits for a person.
    bool go = (kind == ToolKind::edit && auto_accept_) ||
              (kind == ToolKind::command && proposal.value("allowed", false));
    if (go) {
        awaiting_ = ToolStage::apply;
        out.push_back(RunTool{turn_, call, kind, ToolStage::apply, std::move(proposal), {}, false});
        return;
    }
    propose(std::move(proposal), out);
}

void AgentLoop::apply_decision(const Decision& decision, Effects& out) {
    Json proposal = std::move(pending_);
    pending_ = nullptr;
    std::string id = proposal["id"];
    std::string kind = proposal["kind"];
    if (decided_turn_ != turn_) decided_ids_.clear();
    decided_turn_ = turn_;
    decided_ids_.insert(id);
    Json decided{{"turn", turn_},
                 {"id", id},
                 {"kind", kind},
                 {"decision", decision.approve ? "approve" : "reject"}};
    if (decision.policy) decided["policy"] = *decision.policy;
    if (!decision.feedback.empty()) decided["feedback"] = decision.feedback;
    emit(out, "agent.decided", std::move(decided));

    const ToolCall& call = calls_[results_.size()];
    if (!decision.approve) {
        if (kind == "plan" && !proposal.value("path", "").empty())
            out.push_back(MarkPlan{proposal["path"], "rejected"});
        emit_status(out);
        finish_call(ToolOutcome{call.id, rejection(kind, decision.feedback), true}, out);
        return;
    }
    if (kind == "plan") {
        // The policy and the mode change land together with the approval, before the tool
        // result, so the very next provider call is offered the write tools.
        before_plan_approval_ = {mode_, auto_accept_};
        if (decision.policy) auto_accept_ = *decision.policy == "auto";
        approval_note_ = "The user approved the plan.";
        if (mode_ == Mode::plan) {
            mode_ = Mode::build;
            emit(out, "agent.mode", {{"mode", to_string(mode_)}});
            approval_note_ += " Plan mode has ended: the editing tools are available now.";
        }
        approval_note_ += auto_accept_ ? " Your edits will be applied without further review."
                                       : " The user will review each edit before it is applied.";
        approval_note_ += " Carry out the plan step by step, then verify the result.";
    } else if (kind == "edit" && decision.policy == "auto") {
        auto_accept_ = true;
    }
    emit_status(out);
    awaiting_ = ToolStage::apply;
    out.push_back(RunTool{turn_, call, find_tool(call.name)->kind, ToolStage::apply,
                          std::move(proposal), decision.policy.value_or(""), true});
}

void AgentLoop::end_turn(std::string_view reason, Effects& out) {
    phase_ = Phase::idle;
    emit(out, "agent.done", {{"turn", turn_}, {"stop_reason", reason}});
    emit_status(out);
}

void AgentLoop::abort_turn(const std::string& why, Effects& out) {
    if (phase_ == Phase::provider) {
        out.push_back(CancelProvider{turn_});
        if (!streamed_.empty())
            record(Message{Role::assistant, kept_partial(streamed_), {}, {}, {}});
    } else if (phase_ == Phase::tools) {
        out.push_back(CancelTools{turn_});
        for (std::size_t i = results_.size(); i < calls_.size(); ++i)
            results_.push_back(ToolOutcome{calls_[i].id, why, true});
        record(Message{Role::user, {}, {}, results_, {}});
    }
    phase_ = Phase::idle;
    awaiting_.reset();
    pending_ = nullptr;
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

void AgentLoop::emit(Effects& out, std::string name, Json params) {
    // in_place_type: GCC 12 reports a false maybe-uninitialized for push_back of a temporary.
    out.emplace_back(std::in_place_type<EmitEvent>, EmitEvent{std::move(name), std::move(params)});
}

void AgentLoop::emit_status(Effects& out) {
    emit(out, "agent.status", status());
}

} // namespace rio
