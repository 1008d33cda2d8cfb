// The protocol's shapes (docs/protocol.md), one struct per op's params and result and per
// event, each with its JSON mapping (protocol/fields.hpp). A params struct names its op and
// its result type, an event its name, so a request or an event is sent and read typed.
// Free-form parts (a tool's input, an MCP call's arguments) stay JSON.
#pragma once

#include "protocol/closed_sets.hpp"
#include "protocol/fields.hpp"
#include "protocol/names.hpp"
#include "protocol/plan_comments.hpp"
#include "protocol/proposal.hpp"
#include "protocol/sandbox_use.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rio {

using Json = nlohmann::json;

struct Empty {
    template <typename Visit> friend void visit_fields(Visit&&, Empty&) {}
    template <typename Visit> friend void visit_fields(Visit&&, const Empty&) {}
    friend void to_json(Json& j, const Empty&) { j = Json::object(); }
    friend void from_json(const Json&, Empty&) {}
};

// ---- session -------------------------------------------------------------------------

struct HelloResult {
    int protocol = 0;
    std::string name;
    std::string version;
    std::vector<std::string> ops;
    std::optional<std::string> root;
    std::uint64_t max_line = 0;
};
RIO_FIELDS(HelloResult, protocol, name, version, ops, root, max_line)

struct HelloParams {
    static constexpr std::string_view op = op::session_hello;
    using Result = HelloResult;
    std::optional<std::string> client;
    std::optional<std::string> token; // a TCP listener's (DESIGN §12)
};
RIO_FIELDS(HelloParams, client, token)

// ---- project -------------------------------------------------------------------------

// How the core follows the project's folders for changes other programs make: the event
// fs.watch, and project.info's `watch`.
struct WatchInfo {
    static constexpr std::string_view event = event::fs_watch;
    std::uint64_t folders = 0;          // folders watched
    bool complete = false;              // the first pass over the project is done
    std::optional<std::string> problem; // why some changes made outside rio will not be seen
};
RIO_FIELDS(WatchInfo, folders, complete, problem)

struct ProjectInfo {
    std::optional<std::string> root; // absent: no project is open
    std::optional<std::string> name;
    std::optional<std::uint64_t> buffers;
    std::optional<WatchInfo> watch; // project.info only
};
RIO_FIELDS(ProjectInfo, root, name, buffers, watch)

struct ProjectOpenParams {
    static constexpr std::string_view op = op::project_open;
    using Result = ProjectInfo;
    std::string path;
    std::optional<bool> discard;
};
RIO_FIELDS(ProjectOpenParams, path, discard)

struct ProjectCloseParams {
    static constexpr std::string_view op = op::project_close;
    using Result = Empty;
    std::optional<bool> discard;
};
RIO_FIELDS(ProjectCloseParams, discard)

struct ProjectInfoParams : Empty {
    static constexpr std::string_view op = op::project_info;
    using Result = ProjectInfo;
};

struct TrustedFile {
    std::string path;
    std::string sha256;
    bool trusted = false;
    std::string summary;
};
RIO_FIELDS(TrustedFile, path, sha256, trusted, summary)

struct ProjectTrustState {
    static constexpr std::string_view event = event::project_trust;
    bool trusted = true;
    std::vector<TrustedFile> files;
    // The user's own allow rules, which apply here only once the project is trusted (in
    // words, as the trust question shows them).
    std::vector<std::string> user_rules;
    // What waits for trust (decision 0071): the language servers and the user's MCP servers,
    // by name, that would start here; none start in a project nobody trusted.
    std::vector<std::string> language_servers;
    std::vector<std::string> mcp_servers;
};
RIO_FIELDS(ProjectTrustState, trusted, files, user_rules, language_servers, mcp_servers)

struct ProjectTrustGetParams : Empty {
    static constexpr std::string_view op = op::project_trust_get;
    using Result = ProjectTrustState;
};

// A file as a person was shown it before saying "trust": what project.trust.get listed.
struct ShownFile {
    std::string path;
    std::string sha256;
};
RIO_FIELDS(ShownFile, path, sha256)

struct ProjectTrustSetParams {
    static constexpr std::string_view op = op::project_trust_set;
    using Result = ProjectTrustState;
    bool trust = false;
    // With trust: the files exactly as shown ([] for a project that has none); the project
    // is trusted only if they are still so, else `conflict` with what they are now.
    std::optional<std::vector<ShownFile>> files;
};
RIO_FIELDS(ProjectTrustSetParams, trust, files)

// ---- files ---------------------------------------------------------------------------

struct DirEntryInfo {
    std::string name;
    Wire<EntryType> type;
    std::optional<bool> link;
    std::optional<std::uint64_t> size;
};
RIO_FIELDS(DirEntryInfo, name, type, link, size)

// `left_out` (fs.list, fs.files, fs.search): how many names that are not valid UTF-8 were
// left out, when any were (docs/decisions/0051).
struct FsListResult {
    std::string path;
    std::vector<DirEntryInfo> entries;
    std::optional<std::uint64_t> left_out;
};
RIO_FIELDS(FsListResult, path, entries, left_out)

struct FsListParams {
    static constexpr std::string_view op = op::fs_list;
    using Result = FsListResult;
    std::optional<std::string> path;
};
RIO_FIELDS(FsListParams, path)

struct FsReadResult {
    std::string path;
    std::string text;
    Wire<Encoding> encoding;
    Wire<Eol> eol;
    std::uint64_t size = 0;
};
RIO_FIELDS(FsReadResult, path, text, encoding, eol, size)

struct FsReadParams {
    static constexpr std::string_view op = op::fs_read;
    using Result = FsReadResult;
    std::string path;
};
RIO_FIELDS(FsReadParams, path)

// One match of fs.search, written as the array [line, column, length, start, end, text]
// (decision 0067): as an object with its path it made a reply of 100,000 matches 1.4 times
// `rg -n`'s output and twice its time.
struct SearchMatchInfo {
    static constexpr bool json_array = true; // fields.hpp: fits an array, not an object
    std::uint64_t line = 0;                  // 1-based
    std::uint64_t column = 0, length = 0;    // the match in the file's line, bytes from 0
    std::uint64_t start = 0, end = 0;        // the match in `text`, bytes
    std::string text;
};
void to_json(nlohmann::json& j, const SearchMatchInfo& m);
void from_json(const nlohmann::json& j, SearchMatchInfo& m);

// A file's matches, in line order.
struct SearchFileMatches {
    std::string path; // project-relative
    std::vector<SearchMatchInfo> matches;
};
RIO_FIELDS(SearchFileMatches, path, matches)

struct FsSearchResult {
    std::vector<SearchFileMatches> files; // in path order, only those with matches
    bool truncated = false;
    std::uint64_t files_searched = 0;
    std::uint64_t files_skipped = 0;
    std::optional<std::uint64_t> left_out;
};
RIO_FIELDS(FsSearchResult, files, truncated, files_searched, files_skipped, left_out)

// A glob parameter (fs.search, fs.files): one glob as a string or several as an array, each
// as one `rg -g` (decision 0074).
struct Globs {
    static constexpr bool json_string_or_array = true; // fields.hpp: a string or strings
    std::vector<std::string> items;

    Globs() = default;
    // Implicit, so that `params.glob = "*.cpp"` reads as it did when a glob was a string.
    Globs(std::string one) : items{std::move(one)} {} // NOLINT(google-explicit-constructor)
    Globs(std::vector<std::string> many) : items(std::move(many)) {} // NOLINT
};
void to_json(nlohmann::json& j, const Globs& g);
void from_json(const nlohmann::json& j, Globs& g);

struct FsSearchParams {
    static constexpr std::string_view op = op::fs_search;
    using Result = FsSearchResult;
    std::string pattern;
    std::optional<std::string> path;
    std::optional<Globs> glob;
    std::optional<bool> regex;
    std::optional<bool> ignore_case;
    std::optional<std::uint64_t> max_matches;
};
RIO_FIELDS(FsSearchParams, pattern, path, glob, regex, ignore_case, max_matches)

struct FsFilesResult {
    std::vector<std::string> files; // project-relative, in path order
    bool truncated = false;         // more files exist than max_files
    std::optional<std::uint64_t> left_out;
};
RIO_FIELDS(FsFilesResult, files, truncated, left_out)

struct FsFilesParams {
    static constexpr std::string_view op = op::fs_files;
    using Result = FsFilesResult;
    std::optional<std::uint64_t> max_files;
    std::optional<Globs> glob;
};
RIO_FIELDS(FsFilesParams, max_files, glob)

// ---- buffers -------------------------------------------------------------------------

struct BufferState {
    std::string path;
    std::uint64_t version = 0;
    bool dirty = false;
    Wire<Encoding> encoding;
    Wire<Eol> eol;
    std::optional<std::string> text; // buffer.open and buffer.text
};
RIO_FIELDS(BufferState, path, version, dirty, encoding, eol, text)

struct BufferOpenParams {
    static constexpr std::string_view op = op::buffer_open;
    using Result = BufferState;
    std::string path;
};
RIO_FIELDS(BufferOpenParams, path)

struct BufferTextParams {
    static constexpr std::string_view op = op::buffer_text;
    using Result = BufferState;
    std::string path;
};
RIO_FIELDS(BufferTextParams, path)

struct BufferListResult {
    std::vector<BufferState> buffers;
};
RIO_FIELDS(BufferListResult, buffers)

struct BufferListParams : Empty {
    static constexpr std::string_view op = op::buffer_list;
    using Result = BufferListResult;
};

struct BufferReplaceParams {
    static constexpr std::string_view op = op::buffer_replace;
    using Result = BufferState;
    std::string path;
    std::string text;
    std::optional<std::uint64_t> start, end; // byte offsets; absent: the whole text
    std::optional<std::uint64_t> version;    // the version the edit was made against
};
RIO_FIELDS(BufferReplaceParams, path, text, start, end, version)

struct BufferSaveParams {
    static constexpr std::string_view op = op::buffer_save;
    using Result = BufferState;
    std::string path;
    std::optional<bool> force;
};
RIO_FIELDS(BufferSaveParams, path, force)

struct BufferCloseParams {
    static constexpr std::string_view op = op::buffer_close;
    using Result = Empty;
    std::string path;
    std::optional<bool> discard;
};
RIO_FIELDS(BufferCloseParams, path, discard)

struct BufferReloadParams {
    static constexpr std::string_view op = op::buffer_reload;
    using Result = BufferState;
    std::string path;
};
RIO_FIELDS(BufferReloadParams, path)

// A new file, opened: empty, or holding buffer `from`'s text (Save As).
struct BufferCreateParams {
    static constexpr std::string_view op = op::buffer_create;
    using Result = BufferState;
    std::string path;
    std::optional<std::string> from;
    std::optional<bool> overwrite; // the file may exist; its open buffer must be clean
};
RIO_FIELDS(BufferCreateParams, path, from, overwrite)

// ---- diff ----------------------------------------------------------------------------

struct DiffSpan {
    std::uint64_t start = 0, end = 0; // [start, end), UTF-8 bytes within the line
};
RIO_FIELDS(DiffSpan, start, end)

// A changed line paired with the line it replaced, and the words that differ.
struct DiffLineWords {
    std::uint64_t a_line = 0, b_line = 0; // zero-based
    std::vector<DiffSpan> removed;        // in the old line
    std::vector<DiffSpan> added;          // in the new line
};
RIO_FIELDS(DiffLineWords, a_line, b_line, removed, added)

struct DiffHunkInfo {
    std::uint64_t a_start = 0, a_count = 0, b_start = 0, b_count = 0;
    // With `words: true`, for a hunk that changes lines: its i-th old line against its i-th
    // new line, for i < min(a_count, b_count).
    std::optional<std::vector<DiffLineWords>> words;
};
RIO_FIELDS(DiffHunkInfo, a_start, a_count, b_start, b_count, words)

struct DiffLinesResult {
    std::vector<DiffHunkInfo> hunks;
    std::uint64_t added = 0, removed = 0;
    bool exact = true;
    std::uint64_t a_lines = 0, b_lines = 0;
};
RIO_FIELDS(DiffLinesResult, hunks, added, removed, exact, a_lines, b_lines)

struct DiffLinesParams {
    static constexpr std::string_view op = op::diff_lines;
    using Result = DiffLinesResult;
    Json a, b; // a text, or {path, source?: "buffer" | "disk"}
    std::optional<std::uint64_t> max_cost;
    std::optional<bool> words; // word-level changes inside changed lines
};
RIO_FIELDS(DiffLinesParams, a, b, max_cost, words)

// ---- git (decision 0092) ---------------------------------------------------------------

// What the project's repository says, common to git.status and git.diff: no repository, one
// rio cannot read (`problem`), or HEAD.
struct GitRepositoryInfo {
    bool repository = false; // the project is in a git work tree rio can read
    std::optional<Wire<GitHead>> head;
    std::string branch; // HEAD's branch, also when unborn; empty when detached
    std::string commit; // HEAD's commit, 12 hex digits; empty when unborn
    std::optional<std::string> problem;
};

struct GitFileInfo {
    std::string path;
    Wire<GitChange> change;
};
RIO_FIELDS(GitFileInfo, path, change)

struct GitStatusResult : GitRepositoryInfo {
    std::vector<GitFileInfo> files; // on disk against HEAD, sorted by path
    bool truncated = false;         // more files differ than max_files
};
RIO_FIELDS(GitStatusResult, repository, head, branch, commit, problem, files, truncated)

struct GitStatusParams {
    static constexpr std::string_view op = op::git_status;
    using Result = GitStatusResult;
    std::optional<std::uint64_t> max_files; // default 5000
};
RIO_FIELDS(GitStatusParams, max_files)

// A change of the live text against HEAD: lines [b_start, b_start+b_count) of the text replace
// HEAD's [a_start, a_start+a_count), which were `head_text` (put back, it reverts the hunk).
struct GitMarkHunk {
    std::uint64_t a_start = 0, a_count = 0, b_start = 0, b_count = 0; // zero-based lines
    std::string head_text;
};
RIO_FIELDS(GitMarkHunk, a_start, a_count, b_start, b_count, head_text)

struct GitMarksResult {
    bool repository = false;
    bool in_head = false;                 // HEAD has the file (no marks for a new one)
    std::optional<std::uint64_t> version; // the open buffer's version they are for
    std::vector<GitMarkHunk> hunks;
    bool exact = true;
    std::optional<std::string> problem;
    // With `texts`: the two texts compared, for the compare view.
    std::optional<std::string> head_text, text;
};
RIO_FIELDS(GitMarksResult, repository, in_head, version, hunks, exact, problem, head_text, text)

// The margin marks of a file: its open buffer (unsaved edits included), else the disk; a file
// gone from the disk is empty (every line of HEAD's deleted).
struct GitMarksParams {
    static constexpr std::string_view op = op::git_marks;
    using Result = GitMarksResult;
    std::string path;
    std::optional<bool> texts;
};
RIO_FIELDS(GitMarksParams, path, texts)

struct GitDiffFile {
    std::string path;
    Wire<GitChange> change;
    std::string diff; // unified, 3 lines of context; a line in words for a binary file
};
RIO_FIELDS(GitDiffFile, path, change, diff)

struct GitDiffResult : GitRepositoryInfo {
    std::vector<GitDiffFile> files;
    bool truncated = false;
};
RIO_FIELDS(GitDiffResult, repository, head, branch, commit, problem, files, truncated)

// The project's changes against HEAD as unified diffs, open buffers' unsaved edits included.
struct GitDiffParams {
    static constexpr std::string_view op = op::git_diff;
    using Result = GitDiffResult;
    std::optional<std::vector<std::string>> paths; // only these; default every changed file
};
RIO_FIELDS(GitDiffParams, paths)

// ---- terminals (decision 0093) ---------------------------------------------------------

// The person's own shell on a pty the core owns, in the project folder: no sandbox, no agent.
struct TerminalOpenResult {
    std::uint64_t id = 0;
    std::string shell; // the program started ("/bin/bash")
    std::string cwd;   // where, on the core's machine
};
RIO_FIELDS(TerminalOpenResult, id, shell, cwd)

struct TerminalOpenParams {
    static constexpr std::string_view op = op::terminal_open;
    using Result = TerminalOpenResult;
    std::uint64_t cols = 80, rows = 24;
    std::optional<std::string> path; // a project folder to start in; default the root
};
RIO_FIELDS(TerminalOpenParams, cols, rows, path)

// What the person typed or pasted, as the terminal's keys encode it.
struct TerminalInputParams {
    static constexpr std::string_view op = op::terminal_input;
    using Result = Empty;
    std::uint64_t id = 0;
    std::string data;
};
RIO_FIELDS(TerminalInputParams, id, data)

struct TerminalResizeParams {
    static constexpr std::string_view op = op::terminal_resize;
    using Result = Empty;
    std::uint64_t id = 0;
    std::uint64_t cols = 80, rows = 24;
};
RIO_FIELDS(TerminalResizeParams, id, cols, rows)

// The client has shown `bytes` more of the output: the core reads the pty again once what
// is unshown drops below its window (flow control: a flood waits for the screen).
struct TerminalAckParams {
    static constexpr std::string_view op = op::terminal_ack;
    using Result = Empty;
    std::uint64_t id = 0;
    std::uint64_t bytes = 0;
};
RIO_FIELDS(TerminalAckParams, id, bytes)

// Hangs the terminal up (SIGHUP to what runs in it); terminal.exited follows.
struct TerminalCloseParams {
    static constexpr std::string_view op = op::terminal_close;
    using Result = Empty;
    std::uint64_t id = 0;
};
RIO_FIELDS(TerminalCloseParams, id)

// Output as the pty gave it, made UTF-8: a character split between two reads arrives whole in
// the later one, and bytes that are not UTF-8 come as U+FFFD each.
struct TerminalOutputEvent {
    static constexpr std::string_view event = event::terminal_output;
    std::uint64_t id = 0;
    std::string data;
};
RIO_FIELDS(TerminalOutputEvent, id, data)

struct TerminalExitedEvent {
    static constexpr std::string_view event = event::terminal_exited;
    std::uint64_t id = 0;
    std::optional<std::int64_t> code;   // exited with it
    std::optional<std::int64_t> signal; // killed by it
};
RIO_FIELDS(TerminalExitedEvent, id, code, signal)

// ---- the agent: events ---------------------------------------------------------------

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
    std::string call = {}; // tool, result: the subagent's own call id
    std::string tool = {}; // tool, result: the tool it called
    Json input = Json::object(); // tool: that tool's input
    bool ok = true;        // result: whether the tool succeeded; done, failed, stopped too
    std::string text = {}; // result: the tool's answer; done: the final text; failed: why
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
    std::string state; // idle, streaming, running_tool, awaiting_decision
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

// ---- the agent: ops ------------------------------------------------------------------

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

// ---- plans ---------------------------------------------------------------------------

struct PlanInfo {
    std::string path;
    std::string title;
    std::string status; // presented, approved, rejected, abandoned
    std::string created;
    std::optional<std::string> revises;  // the plan this one revises: chains of revisions
    std::optional<std::string> progress; // once approved: "5/8", its steps done of all

    bool is(PlanStatus st) const { return wire_is(status, st); }
};
RIO_FIELDS(PlanInfo, path, title, status, created, revises, progress)

struct PlansListResult {
    std::vector<PlanInfo> plans;
};
RIO_FIELDS(PlansListResult, plans)

struct PlansListParams : Empty {
    static constexpr std::string_view op = op::plans_list;
    using Result = PlansListResult;
};

// A file a step names, as it was when its check ran: sha256 of its bytes, "" when it is missing.
struct FileHash {
    std::string path;
    std::string sha256;
};
RIO_FIELDS(FileHash, path, sha256)

// A step's check, run (issue 43): the evidence its status rests on. It passed only when it
// ran to exit 0; `failure` says why it did not run to an exit ("timed out after 300 s", "the
// sandbox is unavailable: …"). `output` is the tail of what it printed, keys redacted and
// control characters taken out.
struct CheckRun {
    std::vector<std::string> argv;
    std::string cwd;     // project-relative, "." for the root
    std::string sandbox; // the profile it ran under: read-only or workspace-write
    std::optional<int> exit = std::nullopt;
    std::string failure = "";
    double seconds = 0;
    std::string output = "";
    std::vector<FileHash> files = {}; // the step's files then, its globs expanded
    std::string at = "";              // when it ended (ISO 8601)

    bool passed() const { return exit == 0 && failure.empty(); }
};
RIO_FIELDS(CheckRun, argv, cwd, sandbox, exit, failure, seconds, output, files, at)

// A step of an approved plan (DESIGN §20): declared with it, or a top-level list item of its
// "Changes", numbered from 1. Once done, `verified` says whether a check proved it (false: the
// step has no check); `check` is its last check's run.
struct PlanStep {
    std::uint64_t n = 0;
    std::string text;
    std::string status; // pending, in_progress, done, failed, skipped
    std::optional<std::string> note;
    std::optional<bool> verified = std::nullopt;
    std::optional<CheckRun> check = std::nullopt;

    bool is(StepStatus st) const { return wire_is(status, st); }
};
RIO_FIELDS(PlanStep, n, text, status, note, verified, check)

struct PlanFull {
    std::string path;
    std::string title;
    std::string status;
    std::string created;
    std::string decided;
    std::string policy;
    std::string body;                   // the file below its front matter
    std::string plan;                   // the body without its "## Review" section
    std::optional<std::string> review;  // that section, when the decision added one
    std::optional<std::string> revises; // the plan this one revises
    std::optional<std::vector<std::string>> touched, unplanned; // once its work ended
    std::optional<std::vector<PlanStep>> steps;                 // once approved
    // The progress in the front matter did not fit the plan (edited by hand): the steps are
    // shown as pending, and this says why.
    std::optional<std::string> warning;
    // The steps the model declared, with their files and checks (DESIGN §20); absent when it
    // declared none and `steps` come from the plan's "Changes" list.
    std::optional<std::vector<DeclaredStep>> declared = std::nullopt;
    // The receipt section (Markdown, last in `body`) once a turn carried the plan out.
    std::optional<std::string> receipt = std::nullopt;
    // Its review comments with their replies and states (issue 44); absent when it has none.
    std::optional<std::vector<ReviewComment>> comments = std::nullopt;
};
RIO_FIELDS(PlanFull, path, title, status, created, decided, policy, body, plan, review, revises,
           touched, unplanned, steps, warning, declared, receipt, comments)

struct PlansGetParams {
    static constexpr std::string_view op = op::plans_get;
    using Result = PlanFull;
    std::string path;
};
RIO_FIELDS(PlansGetParams, path)

// A person's comment on a plan's passage, a reply to a comment, a comment resolved (issue
// 44): each answers with the comment as it now is, and plans.comments tells every client.
struct PlansCommentAddParams {
    static constexpr std::string_view op = op::plans_comment_add;
    using Result = ReviewComment;
    std::string path;
    std::string quote;
    std::optional<std::uint64_t> line, end_line;
    std::string text;
};
RIO_FIELDS(PlansCommentAddParams, path, quote, line, end_line, text)

struct PlansCommentReplyParams {
    static constexpr std::string_view op = op::plans_comment_reply;
    using Result = ReviewComment;
    std::string path;
    std::string id;
    std::string text;
};
RIO_FIELDS(PlansCommentReplyParams, path, id, text)

struct PlansCommentResolveParams {
    static constexpr std::string_view op = op::plans_comment_resolve;
    using Result = ReviewComment;
    std::string path;
    std::string id;
};
RIO_FIELDS(PlansCommentResolveParams, path, id)

// A person runs a step's check again (issue 43): a step of the plan approved in this
// conversation, while no turn runs. The result is the step as it now is, its `check` this run;
// plans.progress follows.
struct PlansCheckParams {
    static constexpr std::string_view op = op::plans_check;
    using Result = PlanStep;
    std::uint64_t step = 0;
};
RIO_FIELDS(PlansCheckParams, step)

// ---- other events --------------------------------------------------------------------

struct BufferChangedEvent {
    static constexpr std::string_view event = event::buffer_changed;
    std::string path;
    std::string reason; // opened, edited, saved, reloaded, disk_changed, closed
    std::uint64_t version = 0;
    bool dirty = false;
    std::optional<std::uint64_t> start, end; // edited: the byte range replaced
    std::optional<std::string> text;         // edited: what replaced it
    std::optional<bool> deleted;             // disk_changed: the file is gone

    bool is(BufferChange r) const { return wire_is(reason, r); }
};
RIO_FIELDS(BufferChangedEvent, path, reason, version, dirty, start, end, text, deleted)

struct FsChangedEvent {
    static constexpr std::string_view event = event::fs_changed;
    std::vector<std::string> paths;
};
RIO_FIELDS(FsChangedEvent, paths)

struct PlansChangedEvent {
    static constexpr std::string_view event = event::plans_changed;
    std::string path;
};
RIO_FIELDS(PlansChangedEvent, path)

// A plan's comments changed (issue 44): added, replied to, resolved, answered by a revision,
// or carried to one. All of them, as they now are.
struct PlanCommentsEvent {
    static constexpr std::string_view event = event::plans_comments;
    std::string path;
    std::vector<ReviewComment> comments;
};
RIO_FIELDS(PlanCommentsEvent, path, comments)

// Planned vs actual (DESIGN §13), when the turn that carried out an approved plan ended:
// the files its tools created or edited, those of them the plan does not name, and the
// project paths the plan names that none of them is.
// A plan's receipt (issue 43): what carrying it out did, at the end of each turn that did.
struct ReceiptEdit {
    std::string path;
    std::uint64_t added = 0, removed = 0; // lines
};
RIO_FIELDS(ReceiptEdit, path, added, removed)
struct ReceiptCommand {
    std::vector<std::string> argv;
    std::string sandbox;                    // the profile it ran under, "none" unsandboxed
    std::optional<int> exit = std::nullopt; // absent: it did not run to an exit
};
RIO_FIELDS(ReceiptCommand, argv, sandbox, exit)
struct PlanReceipt {
    std::string approved; // when, and the policy: "2026-12-05T04:00:00Z (auto)"
    std::vector<PlanStep> steps;
    std::vector<ReceiptEdit> edits;
    std::vector<ReceiptCommand> commands;
    std::vector<std::string> unplanned, drift;
    std::string head_at_approval, head_now; // git commits, "" outside git
    std::uint64_t input_tokens = 0, output_tokens = 0;
    std::vector<std::string> models;
    bool final = false; // every step is done, failed or skipped, or the plan was superseded
};
RIO_FIELDS(PlanReceipt, approved, steps, edits, commands, unplanned, drift, head_at_approval,
           head_now, input_tokens, output_tokens, models, final)

struct PlanReportEvent {
    static constexpr std::string_view event = event::plans_report;
    std::uint64_t turn = 0;
    std::string path;
    std::vector<std::string> touched;
    std::vector<std::string> unplanned;
    std::vector<std::string> untouched;
    // What the plan file's "## Receipt" section says, and the same as data.
    std::optional<PlanReceipt> receipt = std::nullopt;
    std::optional<std::string> receipt_text = std::nullopt;
};
RIO_FIELDS(PlanReportEvent, turn, path, touched, unplanned, untouched, receipt, receipt_text)

// The approved plan as a contract (DESIGN §20), on every change: a step's status, or a file
// created or edited that no step names (`unplanned`, as it happens).
struct PlanProgressEvent {
    static constexpr std::string_view event = event::plans_progress;
    std::uint64_t turn = 0;
    std::string path; // the plan file, "" without a project
    std::vector<PlanStep> steps;
    std::vector<std::string> unplanned;
    // The steps are the ones the model declared (with files and checks), not the plan's
    // "Changes" list: headless ends with 10 when one of them is not verified (issue 43).
    // Absent when they are not.
    std::optional<bool> declared = std::nullopt;
    // Files the steps name that something other than the agent's work changed since the
    // approval (issue 43); absent when none did.
    std::optional<std::vector<std::string>> drift = std::nullopt;
};
RIO_FIELDS(PlanProgressEvent, turn, path, steps, unplanned, declared, drift)

// MCP servers (DESIGN §16). A tool's kind is "read" when the server says it only reads and
// the user admitted the server's read-only tools in plan mode; otherwise "mcp": gated like a
// command and withheld in plan mode.
struct McpToolInfo {
    std::string name;    // as the model sees it: mcp__<server>__<tool>
    Wire<ToolKind> kind; // read, mcp

    bool is(ToolKind k) const { return kind == k; }
};
RIO_FIELDS(McpToolInfo, name, kind)

struct McpServerInfo {
    std::string name;
    std::string source;      // user, project, editor
    Wire<ServerState> state; // starting, ready, failed, stopped, untrusted
    std::optional<std::string> error;
    bool plan = false; // its read-only tools are admitted in plan mode
    std::vector<McpToolInfo> tools;
};
RIO_FIELDS(McpServerInfo, name, source, state, error, plan, tools)

struct McpListResult {
    std::vector<McpServerInfo> servers;
    std::vector<std::string> problems; // config files that could not be used, in words
};
RIO_FIELDS(McpListResult, servers, problems)

struct McpListParams : Empty {
    static constexpr std::string_view op = op::mcp_list;
    using Result = McpListResult;
};

// Stops the server if it runs and starts it again, reading the config files anew.
struct McpRestartParams {
    static constexpr std::string_view op = op::mcp_restart;
    using Result = McpListResult;
    std::string name;
};
RIO_FIELDS(McpRestartParams, name)

// The servers an editor brings (ACP session/new): `mcpServers` in the files' shape,
// replacing the ones it set before. Kept while the core runs; {} removes them.
struct McpEditorSetParams {
    static constexpr std::string_view op = op::mcp_editor_set;
    using Result = McpListResult;
    Json mcpServers = Json::object();
};
RIO_FIELDS(McpEditorSetParams, mcpServers)

// After any server's state, error or tools changed: the whole list, as mcp.list returns it.
struct McpChangedEvent : McpListResult {
    static constexpr std::string_view event = event::mcp_changed;
};

// Language servers (DESIGN §21). Positions are rio's: `line` from 1, `column` in UTF-8 bytes
// from 0 (where an editor puts the cursor), as fs.search gives them; the core converts to and
// from the servers' UTF-16.
struct LspServerInfo {
    std::string name;
    std::string source; // built-in, user, project
    // idle (configured, no file of its language opened yet), starting, ready, failed,
    // stopped, not found (its program is not on PATH), disabled, untrusted
    Wire<ServerState> state;
    std::string words;                // the state in words: "failed: …", "not found: install …"
    std::optional<std::string> error; // failed: why; ready: the last problem
    std::optional<std::string> hint;  // not found: how to install it
    std::vector<std::string> command;
    std::vector<std::string> files; // the globs it serves
    std::uint64_t documents = 0;    // open in it
    std::string stderr_tail;        // the end of what it wrote to stderr (at most 16 KB)
};
RIO_FIELDS(LspServerInfo, name, source, state, words, error, hint, command, files, documents,
           stderr_tail)

struct LspListResult {
    std::vector<LspServerInfo> servers;
    std::vector<std::string> problems; // config files that could not be used, in words
};
RIO_FIELDS(LspListResult, servers, problems)

struct LspListParams : Empty {
    static constexpr std::string_view op = op::lsp_list;
    using Result = LspListResult;
};

// Reads the config files again, stops the server (for the open project) and starts it.
struct LspRestartParams {
    static constexpr std::string_view op = op::lsp_restart;
    using Result = LspListResult;
    std::string name;
};
RIO_FIELDS(LspRestartParams, name)

struct DiagnosticInfo {
    std::uint64_t line = 0, column = 0, end_line = 0, end_column = 0;
    Wire<Severity> severity;
    std::string message;
    std::string source; // the tool inside the server: "clang", "pyflakes", …
    std::string code;   // "" when it gave none
};
RIO_FIELDS(DiagnosticInfo, line, column, end_line, end_column, severity, message, source, code)

struct FileDiagnostics {
    std::string path; // project-relative; absolute for a file outside the project
    std::string server;
    std::vector<DiagnosticInfo> diagnostics; // errors first, then by position
};
RIO_FIELDS(FileDiagnostics, path, server, diagnostics)

struct LspDiagnosticsResult {
    std::vector<FileDiagnostics> files; // by path; files without diagnostics left out
};
RIO_FIELDS(LspDiagnosticsResult, files)

struct LspDiagnosticsParams {
    static constexpr std::string_view op = op::lsp_diagnostics;
    using Result = LspDiagnosticsResult;
    // One file (listed even when it has none), once its server reported on it; else every
    // file, as known now.
    std::optional<std::string> path;
};
RIO_FIELDS(LspDiagnosticsParams, path)

struct SourceLocation {
    std::string path; // project-relative; absolute outside the project (never opened for writing)
    std::uint64_t line = 0, column = 0, end_line = 0, end_column = 0;
    std::string text;      // the line, without its end, clipped to about 240 bytes
    bool external = false; // outside the project
};
RIO_FIELDS(SourceLocation, path, line, column, end_line, end_column, text, external)

struct LspLocationsResult {
    std::vector<SourceLocation> locations;
};
RIO_FIELDS(LspLocationsResult, locations)

struct LspHoverResult {
    std::string text; // "" when the server has nothing to say there
    bool markdown = false;
};
RIO_FIELDS(LspHoverResult, text, markdown)

// A place in a file, for hover, definition and references.
#define RIO_LSP_POSITION_PARAMS(Type, Op, R)                                                       \
    struct Type {                                                                                  \
        static constexpr std::string_view op = Op;                                                 \
        using Result = R;                                                                          \
        std::string path;                                                                          \
        std::uint64_t line = 0, column = 0;                                                        \
    };                                                                                             \
    RIO_FIELDS(Type, path, line, column)
RIO_LSP_POSITION_PARAMS(LspHoverParams, op::lsp_hover, LspHoverResult)
RIO_LSP_POSITION_PARAMS(LspDefinitionParams, op::lsp_definition, LspLocationsResult)
RIO_LSP_POSITION_PARAMS(LspReferencesParams, op::lsp_references, LspLocationsResult)
#undef RIO_LSP_POSITION_PARAMS

struct SymbolInfo {
    std::string name;
    std::string kind; // function, class, method, variable, …
    std::string detail, container;
    std::uint64_t depth = 0; // nesting in a document's outline
    std::string path;
    std::uint64_t line = 0, column = 0;
    bool external = false;
};
RIO_FIELDS(SymbolInfo, name, kind, detail, container, depth, path, line, column, external)

struct LspSymbolsResult {
    std::vector<SymbolInfo> symbols;
};
RIO_FIELDS(LspSymbolsResult, symbols)

// A file's outline (path), or the project's symbols matching `query` (every ready server).
struct LspSymbolsParams {
    static constexpr std::string_view op = op::lsp_symbols;
    using Result = LspSymbolsResult;
    std::optional<std::string> path;
    std::optional<std::string> query;
};
RIO_FIELDS(LspSymbolsParams, path, query)

struct LspChangedEvent : LspListResult {
    static constexpr std::string_view event = event::lsp_changed;
};

// A file's diagnostics changed (an empty list clears them).
struct LspDiagnosticsEvent : FileDiagnostics {
    static constexpr std::string_view event = event::lsp_diagnostics;
};

// The editor's text (DESIGN §15). A frontend that holds files the core has no buffer of —
// rio-acp, when its editor offers fs/read_text_file — becomes the core's reader of them;
// the agent's read_file then asks it (editor.read) for a file no core buffer holds, and
// reads the disk when it says it has none or does not answer within 5 seconds.
struct EditorReaderResult {
    bool enabled = false; // this client is the reader
};
RIO_FIELDS(EditorReaderResult, enabled)

struct EditorReaderSetParams {
    static constexpr std::string_view op = op::editor_reader_set;
    using Result = EditorReaderResult;
    bool enabled = true;
};
RIO_FIELDS(EditorReaderSetParams, enabled)

// To every client; only the reader answers, with editor.read.reply.
struct EditorReadEvent {
    static constexpr std::string_view event = event::editor_read;
    std::uint64_t request = 0;
    std::string path; // absolute
};
RIO_FIELDS(EditorReadEvent, request, path)

// `text` is the editor's, unsaved changes and all; `error` (or neither) sends the read to
// the disk.
struct EditorReadReplyParams {
    static constexpr std::string_view op = op::editor_read_reply;
    using Result = Empty;
    std::uint64_t request = 0;
    std::optional<std::string> text;
    std::optional<std::string> error;
};
RIO_FIELDS(EditorReadReplyParams, request, text, error)

struct ProjectChangedEvent : ProjectInfo {
    static constexpr std::string_view event = event::project_changed;
};
// root and name always, null when no project is open.
void to_json(Json& j, const ProjectChangedEvent& e);

// Every op that has a params struct above, in the order of docs/protocol.md: the test that
// keeps session.hello, this list and the reference in step reads it.
std::vector<std::string_view> typed_ops();

} // namespace rio
