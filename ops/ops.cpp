#include "ops/ops.hpp"

#include "ops/agent_ops.hpp"

namespace rio {

void register_all_ops(Dispatcher& dispatcher, OpContext& context, AgentRuntime& agent,
                      McpServers& mcp, EditorReader& editor, LspServers& lsp,
                      Terminals& terminals) {
    register_session_ops(dispatcher, context);
    register_project_ops(dispatcher, context);
    register_trust_ops(dispatcher, context);
    register_fs_ops(dispatcher, context);
    register_search_ops(dispatcher, context);
    register_buffer_ops(dispatcher, context);
    register_diff_ops(dispatcher, context);
    register_git_ops(dispatcher, context);
    register_agent_ops(dispatcher, agent, context);
    register_plan_ops(dispatcher, context);
    register_provider_ops(dispatcher, agent);
    register_command_ops(dispatcher, agent, context);
    register_mcp_ops(dispatcher, mcp);
    register_lsp_ops(dispatcher, lsp);
    register_editor_ops(dispatcher, editor);
    register_terminal_ops(dispatcher, terminals);
}

} // namespace rio
