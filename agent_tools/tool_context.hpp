// What the agent's tools work with: the workspace (open project and buffers), the event
// sink, the event loop for commands, the user's folders (allow-list) and a clock.
#pragma once

#include "core/agent/loop.hpp"
#include "core/agent/plan_file.hpp"
#include "protocol/wire.hpp"
#include "core/workspace.hpp"
#include "host/user_dirs.hpp"

#include <asio/io_context.hpp>
#include <ctime>
#include <functional>

namespace rio {

struct ToolContext {
    Workspace& workspace;
    Emit emit;
    asio::io_context& io;
    UserDirs dirs;
    std::function<WallTime()> now;
    std::vector<std::string> hidden_env; // variables commands do not inherit: provider keys
};

using ToolReportFn = std::function<void(ToolReport)>;
using ToolCancel = std::function<void()>;

// Every tool stage reports exactly once through `report`. Stages that finish at once report
// before returning; run_command reports later and returns a way to stop it.
ToolCancel run_tool(ToolContext& context, const RunTool& run, const ToolReportFn& report);

// The tools, one file each; they report through ToolReport values.
ToolReport list_dir_tool(ToolContext& context, const RunTool& run);
ToolReport read_file_tool(ToolContext& context, const RunTool& run);
ToolReport search_tool(ToolContext& context, const RunTool& run);
ToolReport edit_file_tool(ToolContext& context, const RunTool& run);
ToolReport create_file_tool(ToolContext& context, const RunTool& run);
ToolReport present_plan_tool(ToolContext& context, const RunTool& run);
ToolCancel run_command_tool(ToolContext& context, const RunTool& run, const ToolReportFn& report);

// Reports shaped for the stage being answered.
ToolReport tool_ok(const RunTool& run, std::string content, nlohmann::json detail = nullptr);
ToolReport tool_error(const RunTool& run, std::string content);

} // namespace rio
