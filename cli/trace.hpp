// How rio-cli shows the agent's work in a terminal: one line per tool call, what became of
// it, proposals (a plan rendered from Markdown, a coloured diff, a command). The words come
// from client/trace_words; this adds the terminal's styling.
#pragma once

#include "client/trace_words.hpp"
#include "protocol/messages.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rio {

// "• read_file greet.py", from an agent.tool event.
std::string tool_line(const ToolEvent& tool, bool color);
// What became of a call, in the words `outcome` has for it (client::Session::outcome,
// or client::tool_outcome where no person decides): "  ✓ [exit code 0 · 0.4 s]" for a command
// that ran, "  ✗ <first line of the error>" for a failed call, "  ✗ You asked for changes: …"
// for one the person rejected; "" for other successful calls.
std::string tool_result_line(const ToolResultEvent& result, const client::ToolOutcome& outcome,
                             bool color);

// Markdown from the model or a file, rendered for the terminal (made safe before parsing).
std::string markdown_text(std::string_view markdown, int width, bool color);
// "  … 3 of 5 · indexing", dim: how far a call that runs on got (agent.tool_progress).
std::string tool_progress_line(const ToolProgressEvent& progress, bool color);
// A subagent's step, indented under its task call: "    ↳ a: read greet.py"; "" for none.
std::string subagent_line(const SubagentEvent& event, bool color);
// What a command printed, under its line: each line after a dim "  │ ", escape sequences
// and progress-bar rewrites resolved (text/command_output) and made safe for the terminal.
// With `max_lines`, only the last ones, after "  ⋮ N earlier lines: /output INDEX" when
// some are left out (INDEX names the command for /output). "" for no output.
std::string command_output_text(const std::string& output, std::optional<std::size_t> max_lines,
                                std::optional<std::size_t> index, bool color);

// "Plan — <title> · <path>" and the plan rendered for the terminal.
std::string plan_text(const PlanProposal& plan, int width, bool color);
// A unified diff, + lines green, - lines red, @@ lines cyan; a line wider than `width` goes
// on in the next with a dim "↪ " (never cut, never left to the terminal's wrapping, which
// marks nothing).
std::string diff_text(std::string_view diff, int width, bool color);
// The proposal's unified diff, so.
std::string diff_text(const EditProposal& edit, int width, bool color);
// "$ make test   (in src)"; a command whose argv holds control characters one argument per
// line, each shown visibly, under a line that says so.
std::string command_text(const CommandProposal& command, bool color);
// The steps as a checklist (client::plan_steps_text), each step's text and note on its own
// line whatever they hold: "[x] 1. text — note", filled to `width` columns between words
// (the terminal's own wrapping cut words, issue 46).
std::string plan_steps_lines(std::vector<PlanStep> steps, int width);
// "the edit of greet.py", "the command `make test`", "the plan "Title"".
std::string proposal_words(const Proposal& proposal);

// /mcp: each server with its state, why it is not ready, and its tools ("asks" for those
// that need approval; none are offered in plan mode unless marked "read").
std::string mcp_servers_text(const McpListResult& list, bool color);

} // namespace rio
