// The words every frontend shows for the agent's work: what a tool call is about ("src/app.cpp",
// "\"TODO\" in src", "make test"), what became of it (a command's exit from its data, a
// failure's first line) and how a decision reads. Painters add their own styling.
#pragma once

#include "protocol/messages.hpp"

#include <cstddef>
#include <string>
#include <string_view>

namespace rio::client {

struct TurnUsage; // session.hpp, which shows outcomes in these words

// The verb a built-in tool reads as ("read", "run", "plan"); other tools keep their name.
std::string tool_verb(std::string_view tool);

// What the call is about: a command line, a search pattern and where, a plan's title in
// quotes, a path ("the project" for the root). "" when none of these is in the input.
std::string tool_detail(const ToolEvent& tool);

// What the agent is doing while the call runs, for a "busy" line: "reading src/app.cpp",
// "running make test", "searching \"TODO\" in src"; "using <name>" for other tools.
std::string tool_activity(const ToolEvent& tool);

// A command line from the JSON a proposal or tool input carries.
std::string argv_text(const Json& argv);

// A plan's declared steps as Markdown, for the person approving it (DESIGN §20): a numbered
// list, each step with the files it may change and the check that proves it. "" for none.
std::string declared_steps_text(const std::vector<DeclaredStep>& steps);

// Where a comment is in the plan: "line 3", "lines 9-10", or "" when the frontend did not
// know its lines.
std::string comment_lines(std::optional<std::uint64_t> line, std::optional<std::uint64_t> end_line);

// A plan's review threads in words (issue 44), for a frontend that shows plain text:
// "c1 (answered, passage gone) on line 3 «quote…»: text" and under it each reply, "  model:
// reply". Every text on one line. "" for none.
std::string review_threads_text(const std::vector<ReviewComment>& threads);
// How many of them are still open.
std::size_t open_comment_count(const std::vector<ReviewComment>& threads);

// What an MCP proposal asks to do, for the person approving it: "fs · write_file
// {"content":"…","path":"/p/a.txt"}", the arguments cut to `max_chars`.
std::string mcp_call_text(const McpProposal& call, std::size_t max_chars = 600);

// How a call that runs at once runs, when it is a sandboxed command: "sandboxed: read-only,
// no network" (plan mode, DESIGN §19); "" otherwise.
std::string tool_sandbox(const ToolEvent& tool);

// How approving a proposed command would run it: "sandboxed: workspace-write, no network",
// "not sandboxed"; "" for other proposals.
std::string proposal_sandbox(const Proposal& proposal);
// The hosts a proposed command asks to reach (issue 45): "asks for the network to
// registry.npmjs.org, github.com"; "" when it asks for none.
std::string asked_hosts_text(const Proposal& proposal);

// What agent.status's `sandbox` says, a line each: whether commands are sandboxed (and why
// not), whether a build may make new entries at the project's top level, what bounds TMPDIR,
// and the limits with what enforces each.
std::string sandbox_status_text(const SandboxState& sandbox);

struct ToolOutcome {
    // A command's exit and how it ran ("exit code 0 · 0.4 s · sandboxed: read-only, no
    // network"), a failure's first line, or "".
    std::string text;
    bool failed = false;
    bool rejected = false; // the person said no: `text` is their words, and it is no failure
};
ToolOutcome tool_outcome(const ToolResultEvent& result);

// How far a call that runs on got, from its agent.tool_progress: "3 of 5", "0.5 of 1",
// "12" without a total, then " · " and the server's message (its first line), if any.
std::string progress_text(const ToolProgressEvent& progress);

// A subagent's step, for a line under its task call (DESIGN §23): "started · notes",
// "read greet.py", "✗ edit_file not available to a subagent…" (a failed tool's first line),
// "answered", "failed: why", "stopped"; "" for a tool that succeeded (its call said it).
std::string subagent_text(const SubagentEvent& event);

// "Plan approved — review each edit", "Edit rejected: too broad", "Command allowed to run",
// "Command allowed to run without the sandbox",
// "Changes requested (2 comments)", "Plan approved with notes (1 comment) — in a fresh context".
std::string decision_text(const DecidedEvent& decided);

// What a rejected call's line says, in the person's own words rather than the tool result's
// words for the model: "You asked for changes: keep main()", "You asked for changes (2
// comments)", "You rejected it".
std::string rejection_words(const DecidedEvent& decided);

// What a turn took, from its agent.usage counts: "1,234 tokens in · 56 out", "12.3k tokens
// in · 9.8k cached · 456 out"; "" when no call reported counts.
std::string usage_text(const TurnUsage& usage);
// How full the window is: "12.3k / 200k tokens (6%)", "≈" before it when estimated.
std::string context_text(const ContextInfo& context);
// The share of the window used, 0–100 (a meter's value).
int context_percent(const ContextInfo& context);
// agent.compacted as one line: "Context compacted: 150k → 41.2k tokens (12 tool outputs
// cleared, older turns summarized)".
std::string compacted_text(const CompactedEvent& event);
// What rio told the model on its own, as a note in the transcript.
std::string note_text(const NoteEvent& event);

// "Changed but not named in the plan: a.py, b.py"; "" when every change is in the plan.
std::string plan_report_text(const PlanReportEvent& report);
// The receipt's one-line summary, from its Markdown (the line after its heading); "" without.
std::string receipt_summary_line(const PlanReportEvent& report);

// The approved plan's progress (DESIGN §20) in one line: "3/8 ▸ the step at hand" (the first
// in progress, else failed, else pending); "3/3 done" once none is left; then "· greet.py
// changed since approval" when something else changed a file the steps name.
std::string plan_progress_line(const PlanProgressEvent& progress);
// As the plan's turn ends: "plan: 7/8 done (2 unverified), 1 failed, 1 skipped · 1 file
// outside the plan".
std::string plan_summary_text(const PlanProgressEvent& progress);
// The steps as a checklist, one a line: "[x] 1. text (verified)", "[x] … (unverified)", "[!]"
// failed (with how its check ended), "[>]" in progress, "[ ]" pending, "[-]" skipped, a note
// after " — ".
std::string plan_steps_text(const std::vector<PlanStep>& steps);
// How a step's last check ended: "check passed: make test, exit 0, 2.1 s", "check failed: pytest,
// exit 3"; "" without one.
std::string step_check_text(const PlanStep& step);
// plans.check's answer as every frontend says it: "Step 2 (text): check passed: make test,
// exit 0, 2.1 s. Step 2 is done, verified."
std::string recheck_text(const PlanStep& step);
// Headless's exit 10 (issue 43): the model declared steps, and one of them failed, or is done
// unverified, or was left pending or in progress. Skipped steps are the model's noted choice.
bool declared_step_unverified(const PlanProgressEvent& progress);

// The first non-blank line of `text`, trimmed, cut to `max_chars` characters with "…".
std::string first_line(std::string_view text, std::size_t max_chars = 200);

} // namespace rio::client
