// mcp.list and mcp.restart (DESIGN §16): the servers' state and tools, and starting one
// again after its config was fixed or it failed.
#include "host/mcp/mcp_servers.hpp"
#include "ops/ops.hpp"

namespace rio {

void register_mcp_ops(Dispatcher& dispatcher, McpServers& servers) {
    dispatcher.on<McpListParams>(
        [&servers](const McpListParams&) -> Result<McpListResult> { return servers.list(); });
    dispatcher.on<McpEditorSetParams>(
        [&servers](const McpEditorSetParams& p) -> Result<McpListResult> {
            return servers.set_editor_servers(p.mcpServers);
        });
    dispatcher.on<McpRestartParams>([&servers](const McpRestartParams& p) -> Result<McpListResult> {
        return servers.restart(p.name);
    });
}

} // namespace rio
