#include "agent_tools/tool_table.hpp"
#include "protocol/params.hpp"

namespace rio {

ToolReport tool_ok(const RunTool& run, std::string content, nlohmann::json detail) {
    return ToolReport{run.turn,           run.call.id,       run.stage, false,
                      std::move(content), std::move(detail), {},        {}};
}

ToolReport tool_error(const RunTool& run, std::string content) {
    return ToolReport{run.turn, run.call.id, run.stage, true, std::move(content), nullptr, {}, {}};
}

ToolRun sync_tool(ToolReport (*stage)(ToolContext&, const RunTool&)) {
    return [stage](ToolContext& context, const RunTool& run, const ToolReportFn& report) {
        report(stage(context, run));
        return ToolCancel();
    };
}

ToolCancel run_tool(ToolContext& context, const RunTool& run, const ToolReportFn& report) {
    const std::string& name = run.call.name;
    try {
        if (is_mcp_tool(name)) return run_mcp_tool(context, run, report);
        for (const AgentTool& tool : tool_table())
            if (tool.spec.name == name) return tool.run(context, run, report);
        report(tool_error(run, "There is no tool named '" + name + "'."));
    } catch (const ParamError& e) {
        report(tool_error(run, "Invalid input for " + name + ": " + e.what() + "."));
    } catch (const nlohmann::json::exception& e) {
        report(tool_error(run, "Invalid input for " + name + ": " + e.what()));
    }
    return nullptr;
}

} // namespace rio
