// task: starts a subagent (DESIGN §23) — a helper with a fresh context that investigates one
// question with the read tools and read-only commands and answers with one text. A read tool
// in every mode: the subagent can change nothing. A step's task calls start together
// (StartSubagents); this call's stage waits for its own subagent's answer.
#include "agent_tools/tool_table.hpp"
#include "protocol/params.hpp"

namespace rio {
namespace {

ToolCancel run_task(ToolContext& context, const RunTool& run, const ToolReportFn& report) {
    const Json& input = run.call.input;
    for (const char* field : {"description", "prompt"})
        if (!input.contains(field) || !input[field].is_string() ||
            input[field].get_ref<const std::string&>().empty()) {
            report(tool_error(run, std::string("task needs a non-empty string `") + field +
                                       "`; no subagent was started."));
            return nullptr;
        }
    if (input.contains("agent") && !input["agent"].is_string()) {
        report(tool_error(run, "task's `agent` must be the name of a subagent definition; no "
                               "subagent was started."));
        return nullptr;
    }
    if (!context.subagent) {
        report(tool_error(run, "A subagent cannot start another subagent; nothing was started."));
        return nullptr;
    }
    return context.subagent(run, report);
}

std::string asked_as(const nlohmann::json& input) {
    std::string what = input.is_object() ? input.value("description", "") : "";
    return "asked a subagent: " + (what.empty() ? std::string("a task") : what);
}

} // namespace

AgentTool task_tool() {
    ToolSpec spec{
        std::string(tool_words::task.name), ToolKind::read,
        "Hand one question to a subagent: a fresh context that investigates with the read "
        "tools and read-only commands and answers with one report, this call's result. Good "
        "for broad searches whose digging you need not see; task calls in one step run at "
        "once. It cannot edit, plan or start subagents, and does not see this conversation: "
        "put all it needs in `prompt`.",
        object_schema({{"description", string_prop("A title of 3-6 words.")},
                       {"prompt", string_prop("The whole task: what to find out and report.")},
                       {"agent", string_prop("Optional: a subagent definition to follow.")}},
                      {"description", "prompt"}),
        asked_as};
    spec.starts_subagent = true;
    return {std::move(spec), run_task};
}

} // namespace rio
