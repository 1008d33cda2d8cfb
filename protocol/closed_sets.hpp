// The protocol's closed sets (docs/protocol.md) as enums, each with its wire names in one
// table: a kind, a status or a decision is compared as an enum everywhere, and its spelling
// lives here once. A message's closed-set field is a Wire<E> (decision 0077): set and compared
// as the enum, holding the name as it arrived, so a newer core's new name reaches an older
// frontend as "unknown" (value() is nullopt) rather than as an event it refuses (DESIGN §3).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace rio {

// The agent's two modes: build asks before changing anything, plan only reads and presents.
enum class Mode { build, plan };
// What a tool does (agent.tool's `kind`, agent.tools): read runs at once in every mode; edit,
// command and mcp (an MCP server's tool not admitted as read, DESIGN §16) ask, and only in
// build mode; plan is present_plan.
enum class ToolKind { read, edit, command, plan, mcp };
// What a proposal (agent.propose) asks for.
enum class ProposalKind { edit, command, plan, mcp };
// agent.approve's and agent.decided's `decision`.
enum class Verdict { approve, reject };
// A plan file's status (plans.list, plans.get).
enum class PlanStatus { presented, approved, rejected, abandoned };
// A comment on a plan (issue 44): open until the model answers it in a revision, or a person
// resolves it; who wrote a comment or a reply.
enum class CommentState { open, answered, resolved };
enum class CommentAuthor { person, model };
// An approved plan's step (DESIGN §20). `failed` is the core's, never the model's: the step's
// check did not pass (issue 43).
enum class StepStatus { pending, in_progress, done, failed, skipped };
// agent.stopped's `reason`: the person stopped the turn, or sent a new message into it.
enum class StopReason { stop, new_message };
// buffer.changed's `reason`.
enum class BufferChange { opened, edited, saved, reloaded, disk_changed, closed };
// The HTTP API a provider speaks (providers.list's `format`, the user's config).
enum class WireFormat { anthropic, openai, responses };
// How a command runs (DESIGN §19): under a sandbox profile, or none.
enum class SandboxProfile {
    none,
    read_only,       // plan mode: nothing writable but the private TMPDIR and /dev/null
    workspace_write, // build mode: the project too, except .git/, .rio/ and rio's own folders
};
// How workspace-write keeps .git/ and .rio/ read-only (agent.status's sandbox.top_level,
// decision 0080): bound read-only in the command's own mount namespace, the top level
// writable; or decision 0041's split, where nothing new can be made at the top level.
enum class TopLevelWrites { writable, split };
// How a sandboxed command's network can be allowed here (agent.status's sandbox.network, issue
// 45): by host, through rio's proxy in the command's own network namespace; or only all or
// nothing, where there is no namespace to hold it.
enum class NetworkReach { by_host, all_or_nothing };

// How a person approved (agent.approve's `policy`): review each later edit, or accept them.
enum class ApprovalPolicy { review, automatic };
// What a folder entry is (fs.list's `type`); a symlink counts as what it points to.
enum class EntryType { dir, file, other };
// A diagnostic's severity (lsp.diagnostics), most severe first, as LSP numbers them.
enum class Severity { error, warning, information, hint };
// A language server's or an MCP server's state (lsp.list, mcp.list). idle, not found and
// disabled are language servers' only.
// What the agent is doing (agent.status's state): nothing, a model's answer coming, a tool
// running, a proposal waiting for a person, the conversation being compacted, or the
// language servers being waited on after an edit.
enum class AgentState { idle, streaming, running_tool, awaiting_decision, compacting, checking };
enum class ServerState { idle, starting, ready, failed, stopped, not_found, disabled, untrusted };

// A text file's encoding and line ends (fs.read, buffer.*): mixed is both LF and CRLF.
enum class Encoding { utf8, utf8_bom };
enum class Eol { none, lf, crlf, mixed };
// Where a provider's key comes from (providers.list's `key`).
enum class KeySource { env, file, none, not_needed };
// A side of diff.lines that names a file: the open buffer if there is one else the disk
// (auto), or either one.
enum class DiffSource { automatic, buffer, disk, head };
// A project file against the commit HEAD names (git.status, git.diff): untracked is on disk
// and in no commit or index; added is in the index.
enum class GitChange { added, modified, deleted, untracked };
// What HEAD is: a branch, a commit (detached), or a branch with no commit yet (unborn).
enum class GitHead { branch, detached, unborn };
// What a subagent (DESIGN §23) did, as agent.subagent says it: began, called a tool, had its
// answer, ended with its final text, failed, or was stopped.
enum class SubagentState { started, tool, result, done, failed, stopped };
// Whose a definition is (a command, a subagent): the user's own (~/.config/rio) or the open
// project's (.rio/, .claude/).
enum class DefinitionScope { user, project };
// What agent.rewind does to a file the agent's edits wrote: puts its earlier text back, or
// deletes it (the agent created it).
enum class RewindAction { restore, remove };

template <typename E> struct WireName {
    E value;
    std::string_view name;
};

// The tables: the one place each name is spelled.
inline constexpr WireName<Mode> mode_names[] = {{Mode::build, "build"}, {Mode::plan, "plan"}};
inline constexpr WireName<ToolKind> tool_kind_names[] = {
    {ToolKind::read, "read"}, {ToolKind::edit, "edit"}, {ToolKind::command, "command"},
    {ToolKind::plan, "plan"}, {ToolKind::mcp, "mcp"},
};
inline constexpr WireName<ProposalKind> proposal_kind_names[] = {
    {ProposalKind::edit, "edit"},
    {ProposalKind::command, "command"},
    {ProposalKind::plan, "plan"},
    {ProposalKind::mcp, "mcp"},
};
inline constexpr WireName<Verdict> verdict_names[] = {{Verdict::approve, "approve"},
                                                      {Verdict::reject, "reject"}};
inline constexpr WireName<PlanStatus> plan_status_names[] = {
    {PlanStatus::presented, "presented"},
    {PlanStatus::approved, "approved"},
    {PlanStatus::rejected, "rejected"},
    {PlanStatus::abandoned, "abandoned"},
};
inline constexpr WireName<CommentState> comment_state_names[] = {
    {CommentState::open, "open"},
    {CommentState::answered, "answered"},
    {CommentState::resolved, "resolved"},
};
inline constexpr WireName<CommentAuthor> comment_author_names[] = {
    {CommentAuthor::person, "person"},
    {CommentAuthor::model, "model"},
};
inline constexpr WireName<StepStatus> step_status_names[] = {
    {StepStatus::pending, "pending"}, {StepStatus::in_progress, "in_progress"},
    {StepStatus::done, "done"},       {StepStatus::failed, "failed"},
    {StepStatus::skipped, "skipped"},
};
inline constexpr WireName<StopReason> stop_reason_names[] = {
    {StopReason::stop, "stop"},
    {StopReason::new_message, "new message"},
};
inline constexpr WireName<BufferChange> buffer_change_names[] = {
    {BufferChange::opened, "opened"},
    {BufferChange::edited, "edited"},
    {BufferChange::saved, "saved"},
    {BufferChange::reloaded, "reloaded"},
    {BufferChange::disk_changed, "disk_changed"},
    {BufferChange::closed, "closed"},
};
inline constexpr WireName<WireFormat> wire_format_names[] = {
    {WireFormat::anthropic, "anthropic"},
    {WireFormat::openai, "openai"},
    {WireFormat::responses, "responses"},
};
inline constexpr WireName<SandboxProfile> sandbox_profile_names[] = {
    {SandboxProfile::none, "none"},
    {SandboxProfile::read_only, "read-only"},
    {SandboxProfile::workspace_write, "workspace-write"},
};
inline constexpr WireName<TopLevelWrites> top_level_writes_names[] = {
    {TopLevelWrites::writable, "writable"},
    {TopLevelWrites::split, "split"},
};

inline constexpr WireName<NetworkReach> network_reach_names[] = {
    {NetworkReach::by_host, "by-host"},
    {NetworkReach::all_or_nothing, "all-or-nothing"},
};

inline constexpr WireName<ApprovalPolicy> approval_policy_names[] = {
    {ApprovalPolicy::review, "review"},
    {ApprovalPolicy::automatic, "auto"},
};
inline constexpr WireName<EntryType> entry_type_names[] = {
    {EntryType::dir, "dir"},
    {EntryType::file, "file"},
    {EntryType::other, "other"},
};
inline constexpr WireName<Severity> severity_names[] = {
    {Severity::error, "error"},
    {Severity::warning, "warning"},
    {Severity::information, "information"},
    {Severity::hint, "hint"},
};
inline constexpr WireName<AgentState> agent_state_names[] = {
    {AgentState::idle, "idle"},
    {AgentState::streaming, "streaming"},
    {AgentState::running_tool, "running_tool"},
    {AgentState::awaiting_decision, "awaiting_decision"},
    {AgentState::compacting, "compacting"},
    {AgentState::checking, "checking"},
};
inline constexpr WireName<ServerState> server_state_names[] = {
    {ServerState::idle, "idle"},         {ServerState::starting, "starting"},
    {ServerState::ready, "ready"},       {ServerState::failed, "failed"},
    {ServerState::stopped, "stopped"},   {ServerState::not_found, "not found"},
    {ServerState::disabled, "disabled"}, {ServerState::untrusted, "untrusted"},
};

inline constexpr WireName<Encoding> encoding_names[] = {{Encoding::utf8, "utf-8"},
                                                        {Encoding::utf8_bom, "utf-8-bom"}};
inline constexpr WireName<Eol> eol_names[] = {
    {Eol::none, "none"}, {Eol::lf, "lf"}, {Eol::crlf, "crlf"}, {Eol::mixed, "mixed"}};
inline constexpr WireName<KeySource> key_source_names[] = {{KeySource::env, "env"},
                                                           {KeySource::file, "file"},
                                                           {KeySource::none, "none"},
                                                           {KeySource::not_needed, "not needed"}};
inline constexpr WireName<DiffSource> diff_source_names[] = {
    {DiffSource::automatic, "auto"},
    {DiffSource::buffer, "buffer"},
    {DiffSource::disk, "disk"},
    {DiffSource::head, "head"},
};
inline constexpr WireName<GitChange> git_change_names[] = {
    {GitChange::added, "added"},
    {GitChange::modified, "modified"},
    {GitChange::deleted, "deleted"},
    {GitChange::untracked, "untracked"},
};
inline constexpr WireName<GitHead> git_head_names[] = {
    {GitHead::branch, "branch"}, {GitHead::detached, "detached"}, {GitHead::unborn, "unborn"}};
inline constexpr WireName<RewindAction> rewind_action_names[] = {{RewindAction::restore, "restore"},
                                                                 {RewindAction::remove, "delete"}};
inline constexpr WireName<DefinitionScope> definition_scope_names[] = {
    {DefinitionScope::user, "user"}, {DefinitionScope::project, "project"}};
inline constexpr WireName<SubagentState> subagent_state_names[] = {
    {SubagentState::started, "started"}, {SubagentState::tool, "tool"},
    {SubagentState::result, "result"},   {SubagentState::done, "done"},
    {SubagentState::failed, "failed"},   {SubagentState::stopped, "stopped"},
};

namespace wire_detail {
template <typename E> struct Table;
#define RIO_WIRE_TABLE(E, table)                                                                   \
    template <> struct Table<E> { static constexpr const auto& names = table; };
RIO_WIRE_TABLE(Mode, mode_names)
RIO_WIRE_TABLE(ToolKind, tool_kind_names)
RIO_WIRE_TABLE(ProposalKind, proposal_kind_names)
RIO_WIRE_TABLE(Verdict, verdict_names)
RIO_WIRE_TABLE(PlanStatus, plan_status_names)
RIO_WIRE_TABLE(StepStatus, step_status_names)
RIO_WIRE_TABLE(CommentState, comment_state_names)
RIO_WIRE_TABLE(CommentAuthor, comment_author_names)
RIO_WIRE_TABLE(StopReason, stop_reason_names)
RIO_WIRE_TABLE(BufferChange, buffer_change_names)
RIO_WIRE_TABLE(WireFormat, wire_format_names)
RIO_WIRE_TABLE(SandboxProfile, sandbox_profile_names)
RIO_WIRE_TABLE(ApprovalPolicy, approval_policy_names)
RIO_WIRE_TABLE(EntryType, entry_type_names)
RIO_WIRE_TABLE(Severity, severity_names)
RIO_WIRE_TABLE(AgentState, agent_state_names)
RIO_WIRE_TABLE(ServerState, server_state_names)
RIO_WIRE_TABLE(TopLevelWrites, top_level_writes_names)
RIO_WIRE_TABLE(NetworkReach, network_reach_names)
RIO_WIRE_TABLE(Encoding, encoding_names)
RIO_WIRE_TABLE(Eol, eol_names)
RIO_WIRE_TABLE(KeySource, key_source_names)
RIO_WIRE_TABLE(DiffSource, diff_source_names)
RIO_WIRE_TABLE(GitChange, git_change_names)
RIO_WIRE_TABLE(GitHead, git_head_names)
RIO_WIRE_TABLE(SubagentState, subagent_state_names)
RIO_WIRE_TABLE(DefinitionScope, definition_scope_names)
RIO_WIRE_TABLE(RewindAction, rewind_action_names)
#undef RIO_WIRE_TABLE
} // namespace wire_detail

template <typename E>
concept ClosedSet = requires {
    wire_detail::Table<E>::names;
};

// Every table row's name, in table order.
template <ClosedSet E> constexpr const auto& all_wire_names() {
    return wire_detail::Table<E>::names;
}

template <ClosedSet E> constexpr std::string_view to_wire(E value) {
    for (const WireName<E>& row : wire_detail::Table<E>::names)
        if (row.value == value) return row.name;
    return {};
}

// The value a name stands for; nullopt for a name not in the set.
template <ClosedSet E> constexpr std::optional<E> from_wire(std::string_view name) {
    for (const WireName<E>& row : wire_detail::Table<E>::names)
        if (row.name == name) return row.value;
    return std::nullopt;
}

// Whether a name as it arrived is `value`'s.
template <ClosedSet E> constexpr bool wire_is(std::string_view name, E value) {
    return name == to_wire(value);
}

// A closed-set field of a message (decision 0077): compared and set as its enum, written as
// its name, and holding the name as it arrived, so a newer peer's value this build does not
// know reaches it as "unknown" (value() is nullopt) instead of a message it refuses (DESIGN §3).
template <ClosedSet E> class Wire {
public:
    Wire() = default;
    Wire(E value)
        : name_(to_wire(value)) {
    } // NOLINT(google-explicit-constructor): a field is set from its enum
    static Wire named(std::string name) {
        Wire w;
        w.name_ = std::move(name);
        return w;
    }
    std::optional<E> value() const { return from_wire<E>(name_); }
    const std::string& name() const { return name_; }
    friend bool operator==(const Wire& w, E value) { return w.name_ == to_wire(value); }
    friend bool operator==(const Wire& a, const Wire& b) = default;

private:
    std::string name_;
};

} // namespace rio
