// The agent loop (DESIGN §4–§6) as a state machine without I/O: inputs are user requests,
// provider reports, tool reports and decisions; outputs are effects — typed events to
// broadcast, a provider call to start, a tool stage to run — that the host performs.
#pragma once

#include "core/agent/context_budget.hpp"
#include "core/agent/conversation.hpp"
#include "core/agent/plan_lifecycle.hpp"
#include "core/agent/plan_track.hpp"
#include "core/agent/provider_contract.hpp"
#include "core/agent/session_record.hpp"
#include "core/agent/tools.hpp"
#include "protocol/core_event.hpp"
#include "protocol/error.hpp"
#include "protocol/messages.hpp"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

namespace rio {

using TurnId = std::uint64_t;

// A gated tool is prepared (validated, its proposal built, a plan filed), then applied once
// approved. Read tools just run.
enum class ToolStage { run, prepare, apply };

// What the loop announces: the core's events (the agent's among them).
using Event = CoreEvent;

struct EmitEvent {
    Event event;
};
struct CallProvider {
    TurnId turn = 0;
    std::uint64_t step = 0;
    Mode mode = Mode::build; // selects the prompt layers; the tools are already chosen
    std::vector<ToolSpec> tools;
    Conversation conversation;
    // A compaction's summary request: the compact prompt layer is its system prompt, and it
    // offers no tools.
    bool summary = false;
};
struct CancelProvider {
    TurnId turn = 0;
};
// A step's check to run, with the files the step names (paths or globs) to hash as evidence.
struct StepToCheck {
    std::uint64_t step = 0;
    StepCheck check;
    std::vector<std::string> files;
};
struct RunTool {
    TurnId turn = 0;
    ToolCall call;
    ToolKind kind = ToolKind::read;
    ToolStage stage = ToolStage::run;
    // apply: what prepare proposed; prepare of a resumed plan: the plan with its filed path
    std::optional<ProposalBody> proposal;
    Wire<ApprovalPolicy> policy; // apply of a plan: how it was approved (no name: not a plan)
    bool by_person = false;      // apply: a person approved it (else auto-accept or an allow rule)
    std::string revises;         // prepare of a plan: the plan presented before it, if any
    PlanReview review;           // apply of a plan: the approval's notes, for its file
    // A command that runs (plan mode's run, build mode's apply): the sandbox it runs in, as
    // the loop decided it. Never "none" in plan mode.
    std::optional<SandboxUse> sandbox;
    // apply of plan_progress: the check of the step reported done, to run under `sandbox`
    // without asking: it was approved with the plan (issue 43).
    std::optional<StepToCheck> check = std::nullopt;
    // A command or check that may change the files the approved plan's steps name: those to
    // hash again once it ended (ToolReport::files), so its changes are not taken for drift.
    std::vector<std::string> rehash = {};
    // apply of a plan: the frontend it was approved in ("rio-cli"), "" when it gave no name.
    std::string approved_in = {};
};
struct CancelTools {
    TurnId turn = 0;
};
// A plan file's front matter follows the decision: rejected, or abandoned (stopped,
// replaced by a new message, reset, the core exiting) before anyone decided.
struct MarkPlan {
    std::string path;
    PlanStatus status;
    PlanReview review; // a rejection's feedback and comments, for the file's "## Review"
};
// The turn that carried out an approved plan ended: the host compares what its tools
// changed with the paths the plan names, says so (plans.report) and records it in the file.
struct ReportPlan {
    TurnId turn = 0;
    std::string path;                 // the plan file, "" without a project
    std::string plan;                 // the approved text
    std::vector<std::string> touched; // created or edited, project-relative, in order
    // Its receipt (issue 43) as the loop knows it; the host adds the time, policy and HEAD.
    PlanReceipt receipt = {};
    bool declared = false; // the steps are the model's: unplanned comes from their files
};
// The approved plan's progress changed: the host records it in the plan file's front matter.
struct SaveProgress {
    std::string path;
    std::vector<PlanStep> steps;
};
// The model would end the turn after it changed files: the host waits, once and bounded, for
// the language servers' reports still due on them and answers with on_checks (decision 0076).
struct SettleChecks {
    TurnId turn = 0;
};
// A step's task calls (DESIGN §23), all started as soon as the step is known so that several
// subagents work at once; each call's RunTool then waits for its own subagent's answer.
struct StartSubagents {
    TurnId turn = 0;
    std::vector<ToolCall> calls;
};
using Effect = std::variant<EmitEvent, CallProvider, CancelProvider, RunTool, CancelTools, MarkPlan,
                            ReportPlan, SaveProgress, SettleChecks, StartSubagents>;
using Effects = std::vector<Effect>;

// What present_plan's apply read back: the plan as the person left it in its file.
struct PlanReadBack {
    std::string text;
    bool edited = false;
    std::vector<DeclaredStep> steps = {}; // as the model declared them with the plan
    // The files those steps name, at approval (globs expanded then), their texts where small
    // enough to show a later change, and the git HEAD ("" outside git): issue 43's baseline.
    std::vector<FileHash> files = {};
    std::map<std::string, std::string, std::less<>> texts = {};
    std::string head = "";
};
// plan_progress's input, checked, for the loop that holds the plan's steps to record.
struct StepReport {
    std::uint64_t step = 0;
    std::string status;
    std::optional<std::string> note = std::nullopt;
};
// What a stage hands the loop besides its text: prepare's proposal, or one of the above, or
// a step's check as it ran (its output is the report's `output`).
using ToolDetail = std::variant<std::monostate, ProposalBody, PlanReadBack, StepReport, CheckRun>;

// What the host reports after performing a RunTool.
struct ToolReport {
    TurnId turn = 0;
    std::string call_id;
    ToolStage stage = ToolStage::run;
    bool is_error = false;
    std::string content; // the tool result text (run/apply), or why prepare failed
    ToolDetail detail;
    std::optional<CommandExit> exit;   // run_command once the program ran
    std::optional<std::string> output; // run_command: what it printed
    std::vector<FileHash> files = {};  // RunTool::rehash, hashed once it ended
};

struct Decision {
    TurnId turn = 0;
    std::optional<std::string> id; // the proposal's id, when the client names it
    bool approve = false;
    std::string feedback;
    std::optional<Wire<ApprovalPolicy>> policy; // checked by decide: a name it knows
    std::vector<PlanComment> comments;          // a plan only
    bool fresh = false;                         // approving a plan: go on in a new conversation
    bool rest_of_turn = false;                  // approving an edit: and the turn's later edits too
    bool unsandboxed = false; // approving a command: this one runs without the sandbox
    // Approving a command: sandboxed, but with the network, all of it or some hosts (issue 45,
    // host names the ops checked and wrote as rules: "registry.npmjs.org", "*.example.com").
    NetworkGrant network = {};
    bool keep_hosts = false;   // and those hosts for every later command (the ops keep them)
    bool environment = false;  // approving a command: with secret-looking variables too
    std::string frontend = {}; // what the approving client called itself, "" if nothing
    // A plan only: its comments as filed when the decision came (issue 44), which the new
    // ones join; the ops read them, the loop does no I/O.
    std::vector<ReviewComment> threads = {};
};

// Where agent.rewind returns to (DESIGN §23): turn `turn`'s message, the entries it drops,
// and whether a running turn or a waiting proposal ends with it.
struct RewindTarget {
    TurnId turn = 0;
    std::string text;
    std::size_t dropped = 0;
    bool withdrawn = false;
};

class AgentLoop {
public:
    // What the loop is doing; agent.status says it as `state`.
    // checking: the model ended the turn; the language servers' reports on its edits are due.
    using State = AgentState;

    // `tools`: every tool there is (agent_tools/'s table); each step offers the mode's.
    explicit AgentLoop(std::vector<ToolSpec> tools);

    // agent.send: aborts a running turn (dangling calls answered "interrupted"), starts a
    // new one and returns its id.
    TurnId send(std::string text, Effects& out);
    Status decide(const Decision& decision, Effects& out);
    // Returns the turns stopped (none when idle or `turn` is not the running one).
    std::vector<TurnId> stop(std::optional<TurnId> turn, Effects& out);
    void reset(Effects& out);
    void set_mode(Mode mode, Effects& out);
    void set_auto_accept(bool on, Effects& out);
    // This loop is a subagent's (DESIGN §23): it only investigates, in every mode — the read
    // tools and read-only sandboxed commands (it runs in plan mode), never an edit, a plan or
    // another subagent; `only`, when not empty, narrows that to the tools its definition names.
    void investigate_only(std::vector<std::string> only);
    bool is_subagent() const { return subagent_; }
    // Which provider and model the turns go to, and who answers in plan mode when the
    // person chose another (DESIGN §20), for agent.status.
    void set_provider(std::string provider, std::string model, std::optional<PlanModel> plan_model,
                      Effects& out);
    // The session the conversation is saved in, and why it is not being saved ("" when it is).
    void set_session(std::string id, std::string problem, Effects& out);
    // The window the conversation is held to, the threshold for compacting, and the size of
    // the prompt and tool list sent before the conversation (DESIGN §18).
    void set_budget(ContextBudget budget, Effects& out);
    // agent.compact: clears old tool outputs and asks for a summary; agent.compacted says how
    // it went. busy while a turn streams or runs a tool; a pending proposal stays pending.
    Status compact(std::string instructions, Effects& out);
    // Whether commands run sandboxed (DESIGN §19): when they do, plan mode offers them as
    // read tools under read-only, and build mode runs them under workspace-write.
    void set_sandbox(SandboxState sandbox, Effects& out);
    // agent.session.resume: whatever runs is stopped as by reset; the session's conversation,
    // mode and turn count come back, dangling tool calls are answered as interrupted, and a
    // pending proposal is proposed again.
    void restore(RestoredSession session, Effects& out);

    void on_provider(TurnId turn, std::uint64_t step, const ProviderReport& report, Effects& out);
    // agent.rewind: where turn `turn`'s message is, or why the conversation cannot return to
    // it (no such message now; a compaction or a fresh context since made it a summary).
    Result<RewindTarget> rewind_target(TurnId turn) const;
    // Returns the conversation to just before that message: a running turn stops, a waiting
    // proposal is withdrawn (a plan's file marked abandoned), a plan approved after it is
    // forgotten, and agent.rewound says so. The files are the host's (the undo records).
    void rewind(TurnId turn, Effects& out);
    // The turn the user entry at `index` of history() began, if one did (agent.history).
    std::optional<TurnId> turn_begun_at(std::size_t index) const;
    // The turns' messages still in the conversation, and the turn before which none can be
    // returned to: for the session recorder.
    const std::vector<TurnStart>& turn_starts() const { return turn_starts_; }
    TurnId rewind_floor() const { return rewind_floor_; }

    // Asked right before a RunTool is performed: the gate holds at the moment a tool runs
    // (DESIGN §5). False when it must not run: it was overtaken (stop, new message), the
    // mode became plan (the call is refused), or auto-accept went off before an
    // auto-accepted edit was applied (it is proposed instead).
    bool may_run(const RunTool& run, Effects& out);
    void on_tool(const ToolReport& report, Effects& out);
    // SettleChecks' answer: the problems the language servers found in the files the turn
    // changed ("" when none). With some, the model is told and the turn goes on; else it ends.
    void on_checks(TurnId turn, const std::string& problems, Effects& out);

    State state() const { return state_; }
    Mode mode() const { return mode_; }
    bool auto_accept() const { return auto_accept_; }
    bool busy() const { return state_ != State::idle; }
    TurnId turn() const { return turn_; }
    const Conversation& history() const { return conversation_; }
    const std::vector<ToolSpec>& tools() const { return tools_; }
    // Every tool there is, again: MCP servers came, went or changed their lists. The running
    // step keeps what it was offered; a call of a tool that is gone is answered as unknown.
    void set_tools(std::vector<ToolSpec> tools) { tools_ = std::move(tools); }
    // What the gate allows now: the mode's tools; plan_progress only while the turn that
    // approved a plan carries it out, in build mode.
    std::vector<ToolSpec> offered() const;
    // Whether a RunTool is still wanted: a stop or a new message may have overtaken it.
    bool expects(TurnId turn, const std::string& call_id, ToolStage stage) const;
    // The pending proposal, full (with before/after texts for edits), if one waits.
    const std::optional<Proposal>& proposal() const { return pending_; }
    // While a proposal waits: it and the calls of its step answered before it.
    std::optional<PendingStep> pending_step() const;
    AgentStatus status() const;
    ContextInfo context() const;
    // Counts the times the conversation was rewritten (compacted), for the session recorder.
    std::uint64_t compactions() const { return compactions_; }
    // The plan approved last in this conversation, verbatim ("" when none): what compaction
    // carries over whole.
    std::string approved_plan() const { return plan_ ? plan_->text : std::string(); }
    // That plan's steps and progress, and the files changed outside it.
    const std::optional<PlanTrack>& plan() const { return plan_; }
    // Counts the changes of plan(), for the session recorder.
    std::uint64_t plan_revision() const { return plan_revision_; }
    // plans.check (issue 43): a person runs a step's check again, while no turn runs. What to
    // run (a RunTool with the step's check, sandboxed as when the model reports the step
    // done), or why it cannot run.
    std::variant<RunTool, std::string> recheck(std::uint64_t step) const;
    // Its run, as evidence on the step: a done or failed step follows the result (passed:
    // done, verified; else failed), any other keeps its status. plans.progress follows.
    // Returns the step as it now is (nullopt when the plan, `plan_path`, went meanwhile).
    std::optional<PlanStep> rechecked(const std::string& plan_path, std::uint64_t step,
                                      ToolReport report, Effects& out);
    // Files the agent created or edited in this conversation, in order.
    const std::vector<std::string>& changed_files() const { return changed_files_; }
    // Changes since approval, seen as they happen (issue 43): the files the approved plan's
    // steps name, to hash when the project watcher reports them changed — none unless its
    // turn runs and none of its own work (an edit, a command, a check) is in flight, whose
    // changes the loop learns of from the tool's report.
    std::vector<std::string> drift_watched() const;
    // What those files hold now: one the plan's work did not leave so is drift, recorded
    // once, and plans.progress says so.
    void observe_files(const std::vector<FileHash>& now, Effects& out);

private:
    enum class CompactReason { threshold, overflow, request };
    struct Compaction {
        CompactReason reason = CompactReason::threshold;
        State resume = State::idle; // streaming: the step goes on once it is done
        std::uint64_t before = 0;
        std::size_t cleared = 0;
        std::size_t keep_from = 0;   // entries from here on stay whole
        std::size_t older_bytes = 0; // of the entries the summary stands for
        std::string summary;
    };
    void send_step(Effects& out);
    // The step's task calls start their subagents together (StartSubagents).
    void start_subagents(Effects& out);
    // What a subagent is told of a tool it may not call.
    std::string subagent_refusal(const ToolCall& call) const;
    // Starts compacting; false when nothing could change.
    void begin_compaction(CompactReason reason, const std::string& instructions, State resume,
                          Effects& out);
    void finish_compaction(bool ok, const std::string& failure, Effects& out);
    void resume_after_compaction(State resume, Effects& out);
    bool over_threshold() const;
    std::uint64_t window() const;
    std::uint64_t estimated_tokens() const;
    void start_step(Effects& out);
    void run_next_call(Effects& out);
    void finish_call(ToolOutcome outcome, Effects& out);
    void gate(const ToolReport& report, Effects& out);
    Proposal proposal_of(const ToolReport& report) const;
    void apply_decision(const Decision& decision, Effects& out);
    void approve_pending_plan(const Decision& decision, const PlanReview& review, Effects& out);
    void restore_before_plan_approval(Effects& out);
    void end_turn(std::string_view reason, Effects& out);
    // Ends the running turn early, answering its dangling calls with `why`.
    void abort_turn(const std::string& why, Effects& out);
    void refuse_switched(Effects& out);
    void propose(Proposal proposal, Effects& out);
    void abandon_pending_plan(Effects& out);
    // The kind of the proposal awaiting a decision; nullopt when none is.
    std::optional<ToolKind> pending_kind() const;
    void clear(Effects& out);
    bool resume_pending(const RestoredSession& session);
    void end_resumed_step(const std::string& why, Effects& out);
    // The plan carried out in this turn is done with: ReportPlan. `superseded`: another plan
    // was approved after it.
    void report_carried_plan(Effects& out, bool superseded = false);
    // Whether plan_progress may run now, and what the model is told when it may not.
    bool progress_open() const;
    std::string progress_refusal() const;
    // plan_progress reported its input: the step's status changes, or its check runs, or the
    // model is told why not.
    void record_progress(const ToolReport& report, Effects& out);
    void run_check(const StepReport& report, const DeclaredStep& step, Effects& out);
    // The check of the step reported done ran (or could not): done or failed, with evidence.
    void finish_check(CheckRun run, std::optional<std::string> output,
                      std::optional<CommandExit> exit, Effects& out);
    // The track changed: plans.progress, the file's front matter, agent.status.
    void progress_changed(Effects& out);
    // The approved plan goes on in a new conversation; `result` is its tool result.
    void continue_fresh(std::string result, const std::string& plan, Effects& out);
    void follow_plan(RunTool& run);
    // How a command approved, allowed or run in plan mode runs.
    Status hosts_problem(const Decision& decision) const;
    SandboxUse command_sandbox(const Decision* decision) const;
    void add_user_text(std::string text);
    void record(Message message);
    void emit(Effects& out, Event event);
    void emit_status(Effects& out);
    const ToolCall& current_call() const { return calls_[results_.size()]; }
    const ToolSpec* spec_of(std::string_view name) const { return find_tool(tools_, name); }

    std::vector<ToolSpec> tools_;
    bool subagent_ = false;
    std::vector<std::string> subagent_tools_; // investigate_only's `only`
    Mode mode_ = Mode::build;
    bool auto_accept_ = false;
    std::string provider_, model_;
    std::optional<PlanModel> plan_model_;
    std::string session_, session_problem_;
    SandboxState sandbox_;
    Conversation conversation_;

    State state_ = State::idle;
    TurnId turn_ = 0;
    std::uint64_t step_ = 0;
    std::vector<std::string> offered_;          // tool names offered in the current step
    std::string streamed_;                      // assistant text of the current step so far
    std::vector<ToolCall> calls_;               // of the current step, in order
    std::vector<std::string> announced_;        // its task calls, announced as they started
    std::vector<nlohmann::json> kept_;          // provider blocks of the current step
    std::vector<ToolOutcome> results_;          // answered calls of the current step
    std::optional<ToolStage> awaiting_;         // stage of the call being worked on, if a tool runs
    ToolKind current_kind_ = ToolKind::read;    // of that call, as it was when it started
    std::optional<SandboxUse> running_sandbox_; // a command of that call: how it runs
    std::optional<Proposal> pending_;           // awaiting_decision: the proposal, with its texts
    std::optional<StepReport> checking_;        // plan_progress whose step's check runs
    std::string approval_note_;                 // what the model is told when its plan is approved
    PlanReview approval_review_;                // and the notes that came with the approval
    bool approval_fresh_ = false;               // and whether it goes on in a new conversation
    std::string last_plan_;                     // the plan presented last in this conversation
    std::string approved_path_;                 // the file of the plan being approved
    std::string applying_path_;                 // the file an edit being applied writes
    std::optional<std::string> applying_after_; // and its text after, while a plan is carried out
    std::string applying_diff_;                 // and its diff, for the receipt
    std::vector<std::string> applying_argv_;    // a command being applied, for the receipt
    // The plan approved last in this conversation: its steps, progress and drift; open while
    // the turn that approved it runs (which ends in a ReportPlan).
    std::optional<PlanTrack> plan_;
    std::uint64_t plan_revision_ = 0;
    // The plan's turn runs and none of its own work is in flight (drift_watched).
    bool watching_drift() const;
    // The gate before a plan's approval changed it, restored if the approved plan turns out
    // unusable (emptied by the user).
    GateSettings before_plan_approval_;
    // The turn whose remaining edits a person approved with one of them: they apply without
    // asking until the turn ends (commands and plans still wait).
    std::optional<TurnId> edits_approved_;
    bool edits_approved() const { return edits_approved_ == turn_; }
    // A restored session's pending call is being prepared again, to be proposed to a person.
    bool resuming_ = false;
    TurnId decided_turn_ = 0;
    std::set<std::string> decided_ids_; // proposals of decided_turn_ already decided

    Mode told_mode_ = Mode::build; // the mode the model was last told of
    ContextBudget budget_;
    std::uint64_t ceiling_ = 0; // learned from a context-length refusal: the window is smaller
    // The input tokens the provider reported for the last step, and the conversation's bytes
    // as that step sent them.
    std::optional<std::pair<std::uint64_t, std::size_t>> reported_;
    std::size_t sent_bytes_ = 0;
    bool overflow_retried_ = false; // this step was already compacted after a refusal
    std::optional<Compaction> compaction_;
    // A summary this turn came to nothing: the threshold only clears until the next message,
    // rather than asking for a summary at every step.
    bool summary_declined_ = false;
    std::uint64_t compactions_ = 0;
    std::vector<std::string> changed_files_;
    // The turns' messages still in the conversation, oldest first, and the turn before which
    // it cannot be rewound (a compaction or a fresh context rewrote it then), with why.
    std::vector<TurnStart> turn_starts_;
    TurnId rewind_floor_ = 0;
    // The conversation was rewritten wholesale (compaction, fresh context) during the turn
    // running now: what came before is a summary, no rewind goes there.
    void rewritten();
    // Since the turn's last SettleChecks, an edit was applied; and how often the servers'
    // problems already sent the model back to work this turn (bounded: a model that cannot
    // fix them must still end its turn).
    bool edited_since_checks_ = false;
    int checks_continued_ = 0;
    std::string ending_reason_; // checking: the stop reason the turn ends with
};

} // namespace rio
