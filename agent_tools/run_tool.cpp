#include "agent_tools/plan_files.hpp"
#include "agent_tools/tool_table.hpp"
#include "protocol/params.hpp"

namespace rio {

std::string capped_output(std::string text, std::size_t cap, const std::string& how) {
    if (text.size() <= cap) return text;
    std::size_t end = text.rfind('\n', cap);
    end = end == std::string::npos ? cap : end + 1;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80)
        --end;
    std::size_t left = text.size() - end;
    text.resize(end);
    return text + "[… " + std::to_string(left) + " more bytes not shown; " + how + "]\n";
}

ToolReport tool_ok(const RunTool& run, std::string content, ToolDetail detail) {
    return ToolReport{run.turn,           run.call.id,       run.stage, false,
                      std::move(content), std::move(detail), {},        {}};
}

ToolReport tool_error(const RunTool& run, std::string content) {
    return ToolReport{run.turn, run.call.id, run.stage, true, std::move(content), {}, {}, {}};
}

ToolRun sync_tool(ToolReport (*stage)(ToolContext&, const RunTool&)) {
    return [stage](ToolContext& context, const RunTool& run, const ToolReportFn& report) {
        report(stage(context, run));
        return ToolCancel();
    };
}

ToolCancel run_tool(ToolContext& context, const RunTool& run, const ToolReportFn& given) {
    // A command that may have changed the files the approved plan's steps name says what
    // they hold now, so its changes are the plan's own work and not drift (issue 43).
    ToolReportFn report = given;
    if (!run.rehash.empty())
        report = [&context, paths = run.rehash, given](ToolReport r) {
            r.files = named_files(context.workspace, paths).files;
            given(std::move(r));
        };
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
