// The agent's tools (DESIGN §5), one file each, listed in one table: a tool's spec (what the
// model sees, its kind, how a cleared output names its call) and how its stages run. Adding a
// read tool is its file, its line in tool_table.cpp and its row of display words in
// protocol/tool_words.hpp (frontends never link this library); a gated tool of a new kind
// adds its proposal struct to protocol/proposal.hpp and a branch where frontends show one.
#pragma once

#include "agent_tools/tool_context.hpp"
#include "protocol/tool_words.hpp"

#include <functional>
#include <vector>

namespace rio {

// Every stage reports exactly once through `report`. A stage that finishes at once reports
// before returning; one that runs on (a command) returns a way to stop it.
using ToolRun = std::function<ToolCancel(ToolContext&, const RunTool&, const ToolReportFn&)>;

struct AgentTool {
    ToolSpec spec;
    ToolRun run;
};

const std::vector<AgentTool>& tool_table();
std::vector<ToolSpec> tool_specs();

// A tool whose every stage finishes at once.
ToolRun sync_tool(ToolReport (*stage)(ToolContext&, const RunTool&));

// An MCP server's tool (mcp__…), run through ToolContext::mcp rather than the table.
bool is_mcp_tool(std::string_view name);
ToolCancel run_mcp_tool(ToolContext& context, const RunTool& run, const ToolReportFn& report);

// Runs `run` with the tool its call names; malformed input becomes an error result.
ToolCancel run_tool(ToolContext& context, const RunTool& run, const ToolReportFn& report);

// Reports shaped for the stage being answered.
ToolReport tool_ok(const RunTool& run, std::string content, ToolDetail detail = {});
ToolReport tool_error(const RunTool& run, std::string content);
// An output held to `cap` bytes (decision 0056): cut after a whole line, with `how` saying
// how to get the rest.
std::string capped_output(std::string text, std::size_t cap, const std::string& how);

} // namespace rio
