// What the agent's tools work with: the workspace (open project and buffers), the event
// sink, the turns' checkpoints and applied changes, the event loop for commands, the user's folders
// (allow-list), a clock, the MCP servers, the editor's text and the language servers.
#pragma once

#include "core/agent/applied_changes.hpp"
#include "core/agent/checkpoints.hpp"
#include "core/agent/loop.hpp"
#include "core/agent/plan_file.hpp"
#include "core/workspace.hpp"
#include "io/user_dirs.hpp"
#include "protocol/core_event.hpp"

#include <asio/io_context.hpp>
#include <ctime>
#include <functional>

namespace rio {

class EditChecks;
class EditorReader;
class LspServers;
class McpServers;

using ToolReportFn = std::function<void(ToolReport)>;
using ToolCancel = std::function<void()>;

struct ToolContext {
    Workspace& workspace;
    Emit emit;
    Checkpoints& checkpoints; // what each turn's writes replaced, for agent.undo
    AppliedChanges& changes;  // what each applied edit did, for agent.change
    asio::io_context& io;
    UserDirs dirs;
    std::function<WallTime()> now;
    std::vector<std::string> hidden_env; // variables commands do not inherit: provider keys
    McpServers* mcp = nullptr;           // the MCP servers whose tools the agent may call
    EditorReader* editor = nullptr;      // the editor's unsaved text, when a frontend holds it
    LspServers* lsp = nullptr;           // language servers: a file's diagnostics
    EditChecks* checks = nullptr;        // their reports on the files the agent writes
    // The most one call's output may take, a share of the model's window (decision 0056).
    std::size_t output_cap = std::size_t{64} * 1024;
    // Whether commands can run sandboxed (Landlock is there and the user left it on).
    bool commands_sandboxed = false;
    // Whether they run in a mount namespace of their own, .git/ and .rio/ bound read-only
    // (decision 0080); else the project's top level is split (decision 0041).
    bool commands_in_namespace = false;
    // Runs a task call's subagent, or answers with the one a StartSubagents began (DESIGN
    // §23); unset where there are no subagents (a subagent's own tools).
    std::function<ToolCancel(const RunTool&, const ToolReportFn&)> subagent = nullptr;
};

} // namespace rio
