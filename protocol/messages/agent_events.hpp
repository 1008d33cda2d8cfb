// The agent's events: what a turn streams to every frontend.
#pragma once

#include "protocol/messages/common.hpp"

namespace rio {

struct TextEvent { // agent.delta, agent.thinking
    std::uint64_t turn = 0;
    std::string text;
};
RIO_FIELDS(TextEvent, turn, text)
struct DeltaEvent : TextEvent {
    static constexpr std::string_view event = event::agent_delta;
};
struct ThinkingEvent : TextEvent {
    static constexpr std::string_view event = event::agent_thinking;
};

struct UsageEvent {
    static constexpr std::string_view event = event::agent_usage;
    std::uint64_t turn = 0;
    Json counts = Json::object(); // input_tokens, output_tokens, … as the provider reports them
};
void to_json(Json& j, const UsageEvent& e);
void from_json(const Json& j, UsageEvent& e);

struct MessageEvent {
    static constexpr std::string_view event = event::agent_message;
    std::uint64_t turn = 0;
    std::string text;
    std::string stop_reason;
};
RIO_FIELDS(MessageEvent, turn, text, stop_reason)

// Whether commands can run sandboxed here (agent.status): Landlock's ABI, and why not.
struct SandboxState {
    bool available = false;
    int abi = 0;        // the kernel's Landlock ABI, 0 without Landlock
    std::string reason; // why it is not available (or turned off), "" when it is
    // Where commands run sandboxed (absent otherwise, and from an older core): whether a
    // workspace-write command may make new entries at the project's top level ("writable":
    // .git/ and .rio/ are bound read-only in its own mount namespace) or not ("split",
    // decision 0041), and why not (decision 0080).
    std::optional<Wire<TopLevelWrites>> top_level = std::nullopt;
    std::optional<std::string> top_level_reason = std::nullopt;
    // What bounds a command's private TMPDIR, and each limit it runs under with what enforces
    // it and the setting that changes it, in words (issue 42).
    std::optional<std::string> tmpdir = std::nullopt;
    std::optional<std::vector<std::string>> limits = std::nullopt;
    // Where commands run sandboxed: whether a person can let a command reach some hosts only
    // ("by-host": its own network namespace, rio's proxy its one way out) or the network is
    // all or nothing here, and why (issue 45); the user's standing hosts (sandbox.hosts in
    // config.json), which every approved build-mode command may reach.
    std::optional<Wire<NetworkReach>> network = std::nullopt;
    std::optional<std::string> network_reason = std::nullopt;
    std::optional<std::vector<std::string>> hosts = std::nullopt;
};
RIO_FIELDS(SandboxState, available, abi, reason, top_level, top_level_reason, tmpdir, limits,
           network, network_reason, hosts)

struct ToolEvent {
    static constexpr std::string_view event = event::agent_tool;
    std::uint64_t turn = 0;
    std::string id;
    std::string name;
    Json input;
    Wire<ToolKind> kind;               // "unknown" for a tool the core does not have
    std::optional<SandboxUse> sandbox; // a command that runs at once (plan mode), how

    bool is(ToolKind k) const { return kind == k; }
};
void to_json(Json& j, const ToolEvent& e);
void from_json(const Json& j, ToolEvent& e);

// A call that runs on says how far it got: an MCP server's notifications/progress for it.
struct ToolProgressEvent {
    static constexpr std::string_view event = event::agent_tool_progress;
    std::uint64_t turn = 0;
    std::string id; // the tool call's
    double progress = 0;
    std::optional<double> total;
    std::optional<std::string> message;
};
RIO_FIELDS(ToolProgressEvent, turn, id, progress, total, message)

// A subagent (DESIGN §23) that a task call started says what it does, nested under that call:
// started, each tool it calls and that tool's answer, then its final text (done) or why not.
struct SubagentEvent {
    static constexpr std::string_view event = event::agent_subagent;
    std::uint64_t turn = 0;
    std::string id;    // the parent's task call
    std::string agent; // the definition it follows; "" for the general investigator
    std::string task;  // the call's short description
    Wire<SubagentState> state;
    std::string call = {};       // tool, result: the subagent's own call id
    std::string tool = {};       // tool, result: the tool it called
    Json input = Json::object(); // tool: that tool's input
    bool ok = true;              // result: whether the tool succeeded; done, failed, stopped too
    std::string text = {};       // result: the tool's answer; done: the final text; failed: why
};
RIO_FIELDS(SubagentEvent, turn, id, agent, task, state, call, tool, input, ok, text)

// How a command ended, as data (DESIGN §2a): what a frontend shows without reading prose.
struct CommandExit {
    std::optional<int> code; // when it exited normally
    std::optional<int> signal;
    bool timed_out = false;
    bool stopped = false; // by the user
    double seconds = 0;
};
RIO_FIELDS(CommandExit, code, signal, timed_out, stopped, seconds)
// "exit code 0 · 0.4 s", "killed: timed out after 30.0 s", "stopped by the user after 1.2 s",
// "killed by signal 9 after 1.0 s": the one wording, for the model and for every frontend.
std::string exit_text(const CommandExit& exit);

// A tool call's result: the event, and each answered call in agent.history.
struct ToolResultEvent {
    static constexpr std::string_view event = event::agent_tool_result;
    std::uint64_t turn = 0;
    std::string id;
    std::string name;
    bool ok = true;
    std::string content;             // what the model reads
    std::optional<CommandExit> exit; // run_command, once the program ran
    // run_command: stdout and stderr interleaved as printed, the first and last 32 KiB when
    // longer (decision 0057), for a frontend to show under the command
    std::optional<std::string> output;
    std::optional<SandboxUse> sandbox; // run_command, how it ran (or was to run)
};
void to_json(Json& j, const ToolResultEvent& e);
void from_json(const Json& j, ToolResultEvent& e);

struct DecidedEvent {
    static constexpr std::string_view event = event::agent_decided;
    std::uint64_t turn = 0;
    std::string id;
    Wire<ProposalKind> kind;
    Wire<Verdict> decision;
    std::optional<Wire<ApprovalPolicy>> policy;
    std::optional<std::string> feedback;
    std::optional<std::vector<PlanComment>> comments;
    std::optional<bool> fresh;
    std::optional<bool> rest_of_turn; // an edit approved with the turn's remaining edits
    std::optional<bool> unsandboxed;  // a command approved to run without the sandbox
    // A command approved to reach the network: all of it (true) or some hosts (issue 45).
    std::optional<NetworkGrant> network;
    std::optional<bool> environment = std::nullopt; // with the user's whole environment
    // A plan: how many of its comments were still open when it was decided (issue 44).
    std::optional<std::uint64_t> open_comments = std::nullopt;
    // A command's hosts the person kept for every later command (sandbox.hosts, issue 45).
    std::optional<bool> keep_hosts = std::nullopt;

    bool is(ProposalKind k) const { return kind == k; }
    bool approved() const { return decision == Verdict::approve; }
    bool rejected() const { return decision == Verdict::reject; }
};
RIO_FIELDS(DecidedEvent, turn, id, kind, decision, policy, feedback, comments, fresh, rest_of_turn,
           unsandboxed, network, environment, open_comments, keep_hosts)

struct ErrorEvent {
    static constexpr std::string_view event = event::agent_error;
    std::uint64_t turn = 0;
    std::string code;
    std::string message;
};
RIO_FIELDS(ErrorEvent, turn, code, message)

struct StoppedEvent {
    static constexpr std::string_view event = event::agent_stopped;
    std::uint64_t turn = 0;
    std::string reason; // stop, new message

    bool is(StopReason r) const { return wire_is(reason, r); }
};
RIO_FIELDS(StoppedEvent, turn, reason)

struct DoneEvent {
    static constexpr std::string_view event = event::agent_done;
    std::uint64_t turn = 0;
    std::string stop_reason;
};
RIO_FIELDS(DoneEvent, turn, stop_reason)

struct ModeEvent {
    static constexpr std::string_view event = event::agent_mode;
    std::string mode;

    bool is(Mode m) const { return wire_is(mode, m); }
};
RIO_FIELDS(ModeEvent, mode)

struct ResetEvent {
    static constexpr std::string_view event = event::agent_reset;
    // The saved session the conversation now continues (agent.history has it): a resume, or
    // another project's latest conversation (issue 46). Absent: a new, empty conversation.
    std::optional<std::string> resumed;
};
RIO_FIELDS(ResetEvent, resumed)

// A plan approved with `fresh`: the conversation was replaced by one user message, `text`
// (the user's request and the approved plan), and the turn goes on from it.
struct FreshEvent {
    static constexpr std::string_view event = event::agent_fresh;
    std::uint64_t turn = 0;
    std::string path; // the approved plan's file, "" without a project
    std::string text;
};
RIO_FIELDS(FreshEvent, turn, path, text)

// An edit_file or create_file call was applied: what an edit card shows. `added` and
// `removed` count lines of this call's change; `diff` is that change as a unified diff with
// three lines of context, numbered as in the file.
struct EditAppliedEvent {
    static constexpr std::string_view event = event::agent_edit_applied;
    std::uint64_t turn = 0;
    std::string id; // the tool call's
    std::string path;
    bool created = false;
    std::uint64_t added = 0, removed = 0;
    std::string diff;
};
RIO_FIELDS(EditAppliedEvent, turn, id, path, created, added, removed, diff)

struct CheckpointFile {
    std::string path;
    bool created = false; // undoing it deletes the file
};
RIO_FIELDS(CheckpointFile, path, created)

struct TurnCheckpoint {
    std::uint64_t turn = 0;
    std::vector<CheckpointFile> files;
};
RIO_FIELDS(TurnCheckpoint, turn, files)

// What agent.undo can still put back, oldest turn first: the op's result and the event sent
// whenever it changes.
struct CheckpointsState {
    static constexpr std::string_view event = event::agent_checkpoints;
    std::vector<TurnCheckpoint> turns;
};
RIO_FIELDS(CheckpointsState, turns)

// How full the model's context window is (DESIGN §18), in tokens. `estimated`: no provider
// count stands behind it yet (before the first answer, or a provider that reports none), so
// it is rio's estimate and frontends mark it "≈".
struct ContextInfo {
    std::uint64_t used = 0;
    std::uint64_t window = 0;
    bool estimated = true;
};
RIO_FIELDS(ContextInfo, used, window, estimated)

// The conversation was made smaller (DESIGN §18): `before`/`after` are its estimated size in
// tokens, `cleared` the tool outputs replaced by a note, `summarized` whether a summary now
// stands for the older part. `reason`: threshold, overflow or request.
struct CompactedEvent {
    static constexpr std::string_view event = event::agent_compacted;
    std::uint64_t turn = 0;
    std::uint64_t before = 0;
    std::uint64_t after = 0;
    std::uint64_t cleared = 0;
    bool summarized = false;
    std::string reason;
    std::string note; // why no summary was made when one was wanted, "" otherwise
};
RIO_FIELDS(CompactedEvent, turn, before, after, cleared, summarized, reason, note)

// What rio told the model on its own within a turn (decision 0076): the problems the language
// servers found in the files the turn changed, when the model would have ended the turn.
struct NoteEvent {
    static constexpr std::string_view event = event::agent_note;
    std::uint64_t turn = 0;
    std::string text;
};
RIO_FIELDS(NoteEvent, turn, text)

// How far the current plan has come (DESIGN §20): its steps done of all of them.
struct PlanTally {
    std::uint64_t done = 0;
    std::uint64_t total = 0;
    std::string path; // its file, "" without a project
};
RIO_FIELDS(PlanTally, done, total, path)

// The provider and model that answer in plan mode (DESIGN §20), when the person chose one;
// `model` "" is that provider's own model option. The builder is the current provider.
struct PlanModel {
    std::string provider;
    std::string model;
    bool operator==(const PlanModel&) const = default;
};
RIO_FIELDS(PlanModel, provider, model)

struct AgentStatus {
    static constexpr std::string_view event = event::agent_status;
    std::string mode;
    bool auto_accept = false;
    std::string provider;
    std::string model;
    bool busy = false;
    std::uint64_t turn = 0;
    Wire<AgentState> state = AgentState::idle;
    std::optional<Proposal> pending;
    std::string session;         // the id of the conversation's session file (DESIGN §14)
    std::string session_problem; // why it is not being saved, "" while it is (left out then)
    std::optional<ContextInfo> context;
    SandboxState sandbox;                // whether commands run sandboxed (DESIGN §19)
    std::optional<PlanTally> plan;       // the plan approved last in this conversation
    std::optional<PlanModel> plan_model; // who answers in plan mode, when not the builder

    bool is(Mode m) const { return wire_is(mode, m); }
};
void to_json(Json& j, const AgentStatus& s);
void from_json(const Json& j, AgentStatus& s);

} // namespace rio
