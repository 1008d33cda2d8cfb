#include "protocol/params.hpp"
#include "agent_tools/tool_context.hpp"

namespace rio {

ToolReport tool_ok(const RunTool& run, std::string content, nlohmann::json detail) {
    return ToolReport{run.turn, run.call.id,        run.stage,
                      false,    std::move(content), std::move(detail)};
}

ToolReport tool_error(const RunTool& run, std::string content) {
    return ToolReport{run.turn, run.call.id, run.stage, true, std::move(content), nullptr};
}

ToolCancel run_tool(ToolContext& context, const RunTool& run, const ToolReportFn& report) {
    const std::string& name = run.call.name;
    try {
        if (name == "run_command") return run_command_tool(context, run, report);
        if (name == "list_dir")
            report(list_dir_tool(context, run));
        else if (name == "read_file")
            report(read_file_tool(context, run));
        else if (name == "search")
            report(search_tool(context, run));
        else if (name == "edit_file")
            report(edit_file_tool(context, run));
        else if (name == "create_file")
            report(create_file_tool(context, run));
        else if (name == "present_plan")
            report(present_plan_tool(context, run));
        else
            report(tool_error(run, "There is no tool named '" + name + "'."));
    } catch (const ParamError& e) {
        report(tool_error(run, "Invalid input for " + name + ": " + e.what() + "."));
    } catch (const nlohmann::json::exception& e) {
        report(tool_error(run, "Invalid input for " + name + ": " + e.what()));
    }
    return nullptr;
}

} // namespace rio
