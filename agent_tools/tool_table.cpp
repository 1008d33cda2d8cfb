#include "agent_tools/tool_table.hpp"

namespace rio {

AgentTool list_dir_tool();
AgentTool read_file_tool();
AgentTool search_tool();
AgentTool edit_file_tool();
AgentTool create_file_tool();
AgentTool run_command_tool();
AgentTool present_plan_tool();
AgentTool diagnostics_tool();
AgentTool plan_progress_tool();
AgentTool task_tool();

const std::vector<AgentTool>& tool_table() {
    static const std::vector<AgentTool> table{
        // immutable, built once
        list_dir_tool(),      read_file_tool(),   search_tool(),      diagnostics_tool(),
        edit_file_tool(),     create_file_tool(), run_command_tool(), present_plan_tool(),
        plan_progress_tool(), task_tool()};
    return table;
}

std::vector<ToolSpec> tool_specs() {
    std::vector<ToolSpec> specs;
    for (const AgentTool& tool : tool_table())
        specs.push_back(tool.spec);
    return specs;
}

} // namespace rio
