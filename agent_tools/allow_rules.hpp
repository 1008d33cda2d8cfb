// The allow-list rules in force (DESIGN §6, §12; decision 0047): none at all in a project the
// user has not trusted, so a cloned repository's Makefile or scripts never run unasked, even
// through the user's own `make test`. In a trusted project: the user's rules, and the
// project's .rio/allow as it was trusted. A rule names a program's argv prefix and the folder
// it runs in, or an MCP tool (mcp__server__tool).
#pragma once

#include "agent_tools/tool_context.hpp"
#include "core/agent/allow_list.hpp"

namespace rio {

std::vector<AllowRule> allow_rules(const ToolContext& context);

} // namespace rio
