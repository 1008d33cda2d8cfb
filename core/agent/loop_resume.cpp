// The agent loop taking up a saved session (agent.session.resume): its conversation, mode
// and plan, and a pending proposal proposed again.
#include "core/agent/loop.hpp"
#include "core/agent/loop_shared.hpp"

#include <algorithm>
#include <map>

namespace rio {
namespace {

// Calls `visit(call, kind, result)` for each call of `c` that succeeded, in order, with its
// tool's kind (calls of tools `tools` does not hold are skipped).
template <typename Visit>
void for_each_answered_call(const Conversation& c, const std::vector<ToolSpec>& tools,
                            Visit visit) {
    std::map<std::string, const ToolCall*> calls;
    for (const auto& entry : c) {
        for (const ToolCall& call : entry->calls)
            calls[call.id] = &call;
        for (const ToolOutcome& r : entry->results) {
            auto it = calls.find(r.call_id);
            const ToolSpec* spec = it == calls.end() ? nullptr : find_tool(tools, it->second->name);
            if (!r.is_error && spec) visit(*it->second, spec->kind, r);
        }
    }
}

// The plan a restored conversation approved last, verbatim: the user's version when they
// edited it, else what the model presented.
std::string approved_plan_of(const Conversation& c, const std::vector<ToolSpec>& tools) {
    constexpr std::string_view edited =
        "This is the approved plan; follow it rather than your original text:\n\n";
    std::string plan;
    for_each_answered_call(
        c, tools, [&](const ToolCall& call, ToolKind kind, const ToolOutcome& r) {
            if (kind != ToolKind::plan || r.content.rfind("The user approved the plan.", 0) != 0)
                return;
            if (auto at = r.content.find(edited); at != std::string::npos) {
                plan = r.content.substr(at + edited.size());
                for (std::string_view end :
                     {"\n\nThe user's notes: ", "\n\nThe user approved the plan with comments"})
                    if (auto stop = plan.find(end); stop != std::string::npos) plan.resize(stop);
            } else {
                plan = call.input.value("plan", std::string());
            }
        });
    return plan;
}

// Files a conversation's edits (edit_file, create_file: the edit tools) changed, in order.
std::vector<std::string> files_changed_in(const Conversation& c,
                                          const std::vector<ToolSpec>& tools) {
    std::vector<std::string> files;
    for_each_answered_call(c, tools, [&](const ToolCall& call, ToolKind kind, const ToolOutcome&) {
        if (kind != ToolKind::edit) return;
        std::string path = call.input.value("path", std::string());
        if (!path.empty() && std::find(files.begin(), files.end(), path) == files.end())
            files.push_back(std::move(path));
    });
    return files;
}

} // namespace

Mode loop_shared::told_mode_of(const Conversation& c) {
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

void AgentLoop::restore(RestoredSession session, Effects& out) {
    clear(out);
    conversation_ = std::move(session.conversation);
    // Auto-accept stays as this core has it: a file is no way to hand out edit rights.
    mode_ = session.mode;
    turn_ = session.turn;
    session_ = session.header.id;
    session_problem_.clear();
    told_mode_ = loop_shared::told_mode_of(conversation_);
    // The session's track has the progress; a session from before tracks were kept gets
    // its approved plan's steps afresh.
    plan_ = std::move(session.plan);
    if (!plan_) {
        std::string approved = approved_plan_of(conversation_, tools_);
        if (approved.empty()) approved = std::move(session.approved_plan);
        if (!approved.empty()) plan_ = track_plan(0, "", std::move(approved));
    }
    if (plan_) plan_->open = false; // its turn ended when the core did
    plan_revision_ = 0;
    changed_files_ = std::move(session.changed_files);
    turn_starts_ = std::move(session.turn_starts);
    rewind_floor_ = session.rewritten_at;
    for (std::string& path : files_changed_in(conversation_, tools_))
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
    emit(out, ResetEvent{session_});
    emit(out, ModeEvent{std::string(to_wire(mode_))});
    if (pending) {
        // The proposal is prepared again from the recorded call: a session file is data, so
        // what a person is shown is what the call would do, never what the file claims. Only
        // a plan's file is taken from it (its presenting filed it already).
        const ToolCall& call = current_call();
        awaiting_ = ToolStage::prepare;
        RunTool run{turn_, call, current_kind_, ToolStage::prepare, {}, {}, false, {}, {}, {}};
        if (current_kind_ == ToolKind::plan)
            run.proposal = PlanProposal{{}, {}, session.pending->proposal.path(), {}, {}};
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
        step.proposal.id != last.calls[step.results.size()].id)
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
    pending_.reset();
    emit_status(out);
}

} // namespace rio
