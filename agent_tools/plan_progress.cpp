// plan_progress: the model reports how far it is with the approved plan (DESIGN §20). The
// input is checked here; the loop, which holds the plan's steps, records it (or says which
// steps exist). A read tool: it changes nothing but the plan's progress, so no gate. A step
// reported done that has a check is done when its check passes: the loop then asks for an
// apply stage, which runs the check (issue 43).
#include "agent_tools/step_check.hpp"
#include "agent_tools/tool_table.hpp"
#include "core/agent/plan_track.hpp"

namespace rio {
namespace {

ToolReport read_report(const RunTool& run) {
    const nlohmann::json& in = run.call.input;
    auto step = in.find("step");
    if (step == in.end() || !step->is_number_integer() || step->get<std::int64_t>() < 1)
        return tool_error(run, "plan_progress needs `step`: the number of a step of the approved "
                               "plan, from 1. Nothing was recorded.");
    auto status = in.find("status");
    if (status == in.end() || !status->is_string() || !is_step_status(status->get<std::string>()))
        return tool_error(run, "plan_progress needs `status`: one of " + step_status_list() +
                                   ". Nothing was recorded.");
    StepReport detail{step->get<std::uint64_t>(), status->get<std::string>()};
    if (auto note = in.find("note"); note != in.end() && !note->is_null()) {
        if (!note->is_string())
            return tool_error(run, "plan_progress's `note` must be a string. Nothing was "
                                   "recorded.");
        detail.note = note->get<std::string>();
    }
    // What the model reads is the loop's: the step may not exist.
    return tool_ok(run, "", std::move(detail));
}

ToolCancel plan_progress(ToolContext& context, const RunTool& run, const ToolReportFn& report) {
    if (run.stage == ToolStage::apply && run.check) return run_step_check(context, run, report);
    report(read_report(run));
    return nullptr;
}

} // namespace

AgentTool plan_progress_tool() {
    nlohmann::json status = string_prop("pending, in_progress (you are working on it), done, or "
                                        "skipped (left out; say why in the note).");
    status["enum"] = nlohmann::json::array();
    for (const auto& row : all_wire_names<StepStatus>())
        if (row.value != StepStatus::failed) status["enum"].push_back(row.name);
    return {ToolSpec{std::string(tool_words::plan_progress.name), ToolKind::read,
                     "Report progress on the approved plan: set a step's status as you work "
                     "through it. Available only after the user approved a plan, while you "
                     "carry it out; the user sees the steps tick.",
                     object_schema({{"step",
                                     {{"type", "integer"},
                                      {"description", "The step's number, from 1, as "
                                                      "listed when the plan was "
                                                      "approved."}}},
                                    {"status", std::move(status)},
                                    {"note", string_prop("Optional: a short note on the step (why "
                                                         "it was skipped, what changed).")}},
                                   {"step", "status"}),
                     nullptr, /*while_carrying_out_a_plan=*/true},
            plan_progress};
}

} // namespace rio
