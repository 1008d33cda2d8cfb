// The allow-list rules in force (DESIGN §6, §12): the user's own always, the project's
// .rio/allow only once the user trusted it as it is now, or a cloned repository could approve
// its own commands. A rule names a program's argv prefix, or an MCP tool (mcp__server__tool).
#pragma once

#include "agent_tools/tool_context.hpp"
#include "core/agent/allow_list.hpp"

namespace rio {

std::vector<AllowRule> allow_rules(const ToolContext& context);

} // namespace rio
