// The agent's ops: messages, modes, approvals, providers and their options.
#pragma once

#include "protocol/messages/agent_events.hpp"
#include "protocol/messages/common.hpp"

namespace rio {

struct SendResult {
    std::uint64_t turn = 0;
};
RIO_FIELDS(SendResult, turn)

struct SendParams {
    static constexpr std::string_view op = op::agent_send;
    using Result = SendResult;
    std::string text;
};
RIO_FIELDS(SendParams, text)

// The user's and the project's commands (DESIGN §23): `/NAME args` in every frontend, a
// prompt with the arguments put in. A command can force plan mode, never grant anything.
struct CommandInfo {
    std::string name;
    std::string description;
    Wire<DefinitionScope> scope;
    std::optional<std::string> hint = std::nullopt; // what its arguments are ("PATH [TEXT]")
    bool plan = false;                              // running it switches to plan mode first
};
RIO_FIELDS(CommandInfo, name, description, scope, hint, plan)

struct CommandsListResult {
    std::vector<CommandInfo> commands; // by name
    std::vector<std::string> notes;    // files skipped or fields not taken, and why
};
RIO_FIELDS(CommandsListResult, commands, notes)

struct CommandsListParams : Empty {
    static constexpr std::string_view op = op::commands_list;
    using Result = CommandsListResult;
};

// Runs it as agent.send would its text: the turn, in plan mode when the command says so.
struct CommandsRunParams {
    static constexpr std::string_view op = op::commands_run;
    using Result = SendResult;
    std::string name;
    std::optional<std::string> args = std::nullopt; // "" when absent
};
RIO_FIELDS(CommandsRunParams, name, args)

struct ApproveParams {
    static constexpr std::string_view op = op::agent_approve;
    using Result = Empty;
    std::uint64_t turn = 0;
    Wire<Verdict> decision;
    std::optional<std::string> id;
    std::optional<std::string> feedback;
    std::optional<Wire<ApprovalPolicy>> policy;
    // A plan only: with reject "request changes", with approve "approve with notes".
    std::optional<std::vector<PlanComment>> comments;
    // A plan only, with approve: go on in a new conversation of the request and the plan.
    std::optional<bool> fresh;
    // An edit only, with approve: the turn's later edits are applied without asking; its
    // commands and plans still wait, and the next turn asks again.
    std::optional<bool> rest_of_turn;
    // A command only, with approve, for this one call (DESIGN §19): run it without the
    // sandbox; or sandboxed but with the network — all of it (true), or only the hosts named
    // (["registry.npmjs.org"], through rio's proxy; issue 45).
    std::optional<bool> unsandboxed;
    std::optional<NetworkGrant> network;
    // A command only, with approve: with the user's whole environment, the variables that
    // look like secrets too (decision 0071).
    std::optional<bool> environment;
    // With network hosts: keep them for every later command too (sandbox.hosts in the
    // user's config.json), not this one alone.
    std::optional<bool> keep_hosts;

    bool is(Verdict v) const { return decision == v; }
};
RIO_FIELDS(ApproveParams, turn, decision, id, feedback, policy, comments, fresh, rest_of_turn,
           unsandboxed, network, environment, keep_hosts)

struct StopResult {
    std::vector<std::uint64_t> stopped;
};
RIO_FIELDS(StopResult, stopped)

struct StopParams {
    static constexpr std::string_view op = op::agent_stop;
    using Result = StopResult;
    std::optional<std::uint64_t> turn;
};
RIO_FIELDS(StopParams, turn)

struct ResetParams : Empty {
    static constexpr std::string_view op = op::agent_reset;
    using Result = Empty;
};

// agent.compact: make the conversation smaller now; agent.compacted says how it went.
struct CompactParams {
    static constexpr std::string_view op = op::agent_compact;
    using Result = Empty;
    std::optional<std::string> instructions;
};
RIO_FIELDS(CompactParams, instructions)

struct ModeSetParams {
    static constexpr std::string_view op = op::agent_mode_set;
    using Result = ModeEvent;
    std::string mode;
};
RIO_FIELDS(ModeSetParams, mode)

struct AutoAcceptResult {
    bool on = false;
};
RIO_FIELDS(AutoAcceptResult, on)

struct AutoAcceptSetParams {
    static constexpr std::string_view op = op::agent_autoaccept_set;
    using Result = AutoAcceptResult;
    bool on = false;
};
RIO_FIELDS(AutoAcceptSetParams, on)

struct StatusParams : Empty {
    static constexpr std::string_view op = op::agent_status;
    using Result = AgentStatus;
};

struct ProposalResult {
    std::optional<Proposal> proposal; // with an edit's whole texts; null when none is pending
};
void to_json(Json& j, const ProposalResult& r);
void from_json(const Json& j, ProposalResult& r);

struct ProposalParams : Empty {
    static constexpr std::string_view op = op::agent_proposal;
    using Result = ProposalResult;
};

struct CallInfo {
    std::string id;
    std::string name;
    Json input;
};
RIO_FIELDS(CallInfo, id, name, input)

struct ResultInfo {
    std::string id;
    bool ok = true;
    std::string content;
    std::optional<CommandExit> exit;
    std::optional<std::string> output;
};
RIO_FIELDS(ResultInfo, id, ok, content, exit, output)

struct HistoryMessage {
    std::string role; // user, assistant
    std::string text;
    std::optional<std::vector<CallInfo>> calls;     // assistant entries with tool calls
    std::optional<std::vector<ResultInfo>> results; // user entries answering them
    std::optional<std::string> model;               // assistant entries: who answered
    // A user entry a turn began with: that turn, which agent.rewind can return to.
    std::optional<std::uint64_t> turn = std::nullopt;
};
RIO_FIELDS(HistoryMessage, role, text, calls, results, model, turn)

struct HistoryResult {
    std::uint64_t turn = 0;
    std::vector<HistoryMessage> messages;
};
RIO_FIELDS(HistoryResult, turn, messages)

struct HistoryParams : Empty {
    static constexpr std::string_view op = op::agent_history;
    using Result = HistoryResult;
};

// agent.sessions.list: the saved conversations, most recently updated first.
struct SessionInfo {
    std::string id;
    std::string project;          // "" for a core without a project
    std::string title;            // the first request's first line
    std::string created, updated; // ISO 8601, UTC
    std::uint64_t turns = 0;
    bool pending = false; // a proposal (a plan, say) waits for a decision
};
RIO_FIELDS(SessionInfo, id, project, title, created, updated, turns, pending)

struct SessionsListResult {
    std::vector<SessionInfo> sessions;
};
RIO_FIELDS(SessionsListResult, sessions)

// Without `all`, the open project's sessions only.
struct SessionsListParams {
    static constexpr std::string_view op = op::agent_sessions_list;
    using Result = SessionsListResult;
    std::optional<bool> all;
};
RIO_FIELDS(SessionsListParams, all)

struct SessionResumeResult {
    SessionInfo session;
    std::uint64_t messages = 0;
    std::optional<std::string> warning; // a torn last line was dropped, say
};
RIO_FIELDS(SessionResumeResult, session, messages, warning)

struct SessionResumeParams {
    static constexpr std::string_view op = op::agent_session_resume;
    using Result = SessionResumeResult;
    std::string id;
};
RIO_FIELDS(SessionResumeParams, id)

struct SessionNewResult {
    std::string id;
};
RIO_FIELDS(SessionNewResult, id)

struct SessionNewParams : Empty {
    static constexpr std::string_view op = op::agent_session_new;
    using Result = SessionNewResult;
};

struct CheckpointsParams : Empty {
    static constexpr std::string_view op = op::agent_checkpoints;
    using Result = CheckpointsState;
};

// agent.undo's result, and the event every client gets.
struct UndoneEvent {
    static constexpr std::string_view event = event::agent_undone;
    std::uint64_t turn = 0;
    std::vector<std::string> restored; // files given back what they held before the turn
    std::vector<std::string> deleted;  // files the turn had created
};
RIO_FIELDS(UndoneEvent, turn, restored, deleted)

// Without `path`, every file the turn wrote.
struct UndoParams {
    static constexpr std::string_view op = op::agent_undo;
    using Result = UndoneEvent;
    std::uint64_t turn = 0;
    std::optional<std::string> path;
};
RIO_FIELDS(UndoParams, turn, path)

// agent.rewind (DESIGN §23): a file the agent's edits after that point wrote, and what the
// rewind does to it; `changed`: how it changed since the agent wrote it (then only
// `overwrite` puts it back).
struct RewindFile {
    std::string path;
    Wire<RewindAction> action;
    std::optional<std::string> changed = std::nullopt;
};
RIO_FIELDS(RewindFile, path, action, changed)

// A file that changed after that point other than through the agent's edits (a command's
// writes, or outside rio): a rewind cannot put it back.
struct RewindKept {
    std::string path;
    std::string why;
};
RIO_FIELDS(RewindKept, path, why)

struct RewindResult {
    std::uint64_t turn = 0;        // the turn whose message the conversation returns to
    std::string text;              // that message, to send again or change
    std::uint64_t messages = 0;    // the conversation's entries dropped
    std::vector<RewindFile> files; // put back, or to be
    std::vector<RewindKept> kept;
    bool withdrawn = false; // a turn running or a proposal waiting (a plan) is ended
    bool rewound = false;   // false: a preview, nothing changed
};
RIO_FIELDS(RewindResult, turn, text, messages, files, kept, withdrawn, rewound)

// Returns the conversation to just before turn `turn`'s message and puts back the files the
// agent's edits changed since; `preview` only says what would change; `files: false` leaves
// the files; `overwrite` puts back files changed since the agent wrote them too.
struct RewindParams {
    static constexpr std::string_view op = op::agent_rewind;
    using Result = RewindResult;
    std::uint64_t turn = 0;
    std::optional<bool> preview = std::nullopt;
    std::optional<bool> files = std::nullopt;
    std::optional<bool> overwrite = std::nullopt;
};
RIO_FIELDS(RewindParams, turn, preview, files, overwrite)

// The conversation was rewound: every frontend reads it again (agent.history).
struct RewoundEvent {
    static constexpr std::string_view event = event::agent_rewound;
    std::uint64_t turn = 0;
    std::string text;
};
RIO_FIELDS(RewoundEvent, turn, text)

// What one applied edit_file or create_file call did to its file, whole (agent.change).
struct ChangeResult {
    std::uint64_t turn = 0;
    std::string id;
    std::string path;
    bool created = false;
    std::string before, after;
};
RIO_FIELDS(ChangeResult, turn, id, path, created, before, after)

struct ChangeParams {
    static constexpr std::string_view op = op::agent_change;
    using Result = ChangeResult;
    std::uint64_t turn = 0;
    std::string id; // the tool call's, as agent.edit_applied names it
};
RIO_FIELDS(ChangeParams, turn, id)

struct ToolInfo {
    std::string name;
    Wire<ToolKind> kind;
    std::string description;
    Json input_schema;

    bool is(ToolKind k) const { return kind == k; }
};
RIO_FIELDS(ToolInfo, name, kind, description, input_schema)

struct ToolsResult {
    std::string mode;
    std::vector<ToolInfo> tools;
};
RIO_FIELDS(ToolsResult, mode, tools)

struct ToolsParams : Empty {
    static constexpr std::string_view op = op::agent_tools;
    using Result = ToolsResult;
};

struct PromptLayerInfo {
    std::string name;
    std::string source;
    std::string origin;
    bool active = true;
    std::uint64_t chars = 0;
    std::optional<std::string> warning;
    std::optional<std::string> text; // agent.prompt.get with a layer
};
RIO_FIELDS(PromptLayerInfo, name, source, origin, active, chars, warning, text)

struct PromptListResult {
    std::string mode;
    std::vector<PromptLayerInfo> layers;
};
RIO_FIELDS(PromptListResult, mode, layers)

struct PromptListParams : Empty {
    static constexpr std::string_view op = op::agent_prompt_list;
    using Result = PromptListResult;
};

// One layer with its text, or without `layer` the composed prompt.
struct PromptGetResult {
    std::optional<std::string> mode, composed; // without a layer
    std::optional<std::string> name, source, origin, text, warning;
    std::optional<bool> active;
    std::optional<std::uint64_t> chars;
};
RIO_FIELDS(PromptGetResult, mode, composed, name, source, origin, text, warning, active, chars)

struct PromptGetParams {
    static constexpr std::string_view op = op::agent_prompt_get;
    using Result = PromptGetResult;
    std::optional<std::string> layer;
};
RIO_FIELDS(PromptGetParams, layer)

struct PromptEditResult {
    std::string layer;
    std::string path;
};
RIO_FIELDS(PromptEditResult, layer, path)

struct PromptEditParams {
    static constexpr std::string_view op = op::agent_prompt_edit;
    using Result = PromptEditResult;
    std::string layer;
    std::string text;
    std::optional<std::string> scope; // user, project
};
RIO_FIELDS(PromptEditParams, layer, text, scope)

struct ProviderInfo {
    std::string name;
    std::string description;
    Wire<KeySource> key;
    std::optional<std::string> key_variable; // the environment variable a key is read from
    bool ready = true; // false: a hosted endpoint without a key, where no call can be made
    bool active = false;
};
RIO_FIELDS(ProviderInfo, name, description, key, key_variable, ready, active)

struct ProvidersResult {
    std::string current;
    std::string model;
    std::vector<ProviderInfo> providers;
    // echo stands in because no provider was named or configured and none was found
    bool fallback = false;
    std::optional<PlanModel> plan_model; // who answers in plan mode, when not the builder
};
RIO_FIELDS(ProvidersResult, current, model, providers, fallback, plan_model)

struct ProvidersParams : Empty {
    static constexpr std::string_view op = op::agent_providers;
    using Result = ProvidersResult;
};

struct ProviderSetParams {
    static constexpr std::string_view op = op::agent_provider_set;
    using Result = ProvidersResult;
    std::string name;
    std::optional<bool> remember;
};
RIO_FIELDS(ProviderSetParams, name, remember)

// Sets who answers in plan mode (DESIGN §20); without a provider, the builder plans too.
struct PlanModelSetParams {
    static constexpr std::string_view op = op::agent_plan_model_set;
    using Result = ProvidersResult;
    std::optional<std::string> provider;
    std::optional<std::string> model; // "" or absent: that provider's model option
};
RIO_FIELDS(PlanModelSetParams, provider, model)

struct ProviderTestResult {
    bool ok = false;
    std::optional<std::string> code; // when not ok: auth, rate_limit, server, network, …
    std::string message;             // what happened, in the person's words
};
RIO_FIELDS(ProviderTestResult, ok, code, message)

struct ProviderTestParams {
    static constexpr std::string_view op = op::agent_provider_test;
    using Result = ProviderTestResult;
    std::optional<std::string> provider;
};
RIO_FIELDS(ProviderTestParams, provider)

struct OptionInfo {
    std::string name;
    std::string value;
    bool set = false;
    std::string description;
    std::optional<std::vector<std::string>> choices;
};
RIO_FIELDS(OptionInfo, name, value, set, description, choices)

struct OptionsResult {
    std::string provider;
    std::vector<OptionInfo> options;
};
RIO_FIELDS(OptionsResult, provider, options)

struct OptionsListParams {
    static constexpr std::string_view op = op::agent_options_list;
    using Result = OptionsResult;
    std::optional<std::string> provider;
};
RIO_FIELDS(OptionsListParams, provider)

struct OptionsSetParams {
    static constexpr std::string_view op = op::agent_options_set;
    using Result = OptionsResult;
    std::optional<std::string> provider;
    std::string name;
    Json value; // "" returns the option to its default
};
RIO_FIELDS(OptionsSetParams, provider, name, value)

struct KeyResult {
    std::string provider;
    bool stored = false;
};
RIO_FIELDS(KeyResult, provider, stored)

struct KeySetParams {
    static constexpr std::string_view op = op::agent_key_set;
    using Result = KeyResult;
    std::string provider;
    std::string key;
};
RIO_FIELDS(KeySetParams, provider, key)

struct KeyClearParams {
    static constexpr std::string_view op = op::agent_key_clear;
    using Result = KeyResult;
    std::string provider;
};
RIO_FIELDS(KeyClearParams, provider)

struct ModelsResult {
    std::vector<std::string> models;
};
RIO_FIELDS(ModelsResult, models)

struct ModelsParams {
    static constexpr std::string_view op = op::agent_models;
    using Result = ModelsResult;
    std::optional<std::string> provider;
};
RIO_FIELDS(ModelsParams, provider)

} // namespace rio
