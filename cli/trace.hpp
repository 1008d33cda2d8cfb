// How rio-cli shows the agent's work in a terminal: one line per tool call, failures,
// proposals (a plan rendered from Markdown, a coloured diff, a command). Pure formatting.
#pragma once

#include "protocol/wire.hpp"

#include <string>

namespace rio {

// "• read_file greet.py", from an agent.tool event.
std::string tool_line(const Json& tool, bool color);
// "  ✗ <first line of the error>" for a failed call, "  ✓ [exit code 0 · 0.4 s]" for a
// command that ran; "" for other successful calls.
std::string tool_failure_line(const Json& result, bool color);

// "Plan — <title> · <path>" and the plan rendered for the terminal.
std::string plan_text(const Json& proposal, int width, bool color);
// The proposal's unified diff, + lines green, - lines red, @@ lines cyan.
std::string diff_text(const Json& proposal, bool color);
// "$ make test   (in src)".
std::string command_text(const Json& proposal, bool color);

} // namespace rio
