// Registers the protocol ops that join the workspace to the filesystem. Each area lives in
// its own file; register_all_ops adds them all.
#pragma once

#include "core/dispatch.hpp"
#include "core/workspace.hpp"
#include "io/user_dirs.hpp"
#include "protocol/core_event.hpp"

#include <asio/io_context.hpp>
#include <functional>
#include <map>
#include <string>

namespace rio {

struct OpContext {
    Workspace& workspace;
    Emit emit;
    UserDirs dirs;
    // After project.open or project.close changed the project: what follows the project
    // (the watcher, the agent's conversation) moves with it.
    std::function<void()> project_changed = {};
    // The project, or what the user trusts of it, changed: the MCP servers it may start too.
    std::function<void()> project_power_changed = [] {};
    // The core's loop, for work done on another thread and answered later (diff.lines);
    // without one such ops answer at once, on the caller's thread.
    asio::io_context* io = nullptr;
    // The language and MCP servers that wait for the open project's trust (decision 0071).
    std::function<void(ProjectTrustState&)> waiting_for_trust = [](ProjectTrustState&) {};
    // What each connected client called itself in session.hello ("rio-cli", "rio-acp"): a
    // plan's receipt says where it was approved (issue 43).
    std::map<ClientId, std::string> client_names = {};
    // Before project.open or project.close replaces the project, while its root still is
    // the old one: the agent's turn and conversation leave it (issue 46).
    std::function<void()> project_leaving = [] {};
};

void register_session_ops(Dispatcher& dispatcher, OpContext& context);
void register_project_ops(Dispatcher& dispatcher, OpContext& context);
void register_fs_ops(Dispatcher& dispatcher, OpContext& context);
void register_search_ops(Dispatcher& dispatcher, OpContext& context);
void register_buffer_ops(Dispatcher& dispatcher, OpContext& context);
void register_diff_ops(Dispatcher& dispatcher, OpContext& context);
void register_git_ops(Dispatcher& dispatcher, OpContext& context);
void register_trust_ops(Dispatcher& dispatcher, OpContext& context);

// project.trust's params: what trust.json says of the open project's files now.

// Emits project.trust and tells project_power_changed.
void announce_trust(const OpContext& context);

// Files of the project changed (by the core or anything else; "." for all): when one of them
// grants power (.rio/allow, .mcp.json, a program a project server runs), project.trust
// follows at once, and the servers with it.
void paths_changed(const OpContext& context, const std::vector<std::string>& paths);

class AgentRuntime;
class EditorReader;
class LspServers;
class McpServers;
class Terminals;
void register_terminal_ops(Dispatcher& dispatcher, Terminals& terminals);
void register_mcp_ops(Dispatcher& dispatcher, McpServers& servers);
void register_lsp_ops(Dispatcher& dispatcher, LspServers& servers);
void register_editor_ops(Dispatcher& dispatcher, EditorReader& reader);

// Every op the core serves, registered from here (docs/protocol.md lists them).
void register_all_ops(Dispatcher& dispatcher, OpContext& context, AgentRuntime& agent,
                      McpServers& mcp, EditorReader& editor, LspServers& lsp, Terminals& terminals);

} // namespace rio
