// A plan step's check (issue 43): the command the model declared with the step and the person
// approved with the plan, run when the model reports the step done — sandboxed as the loop
// decided, without a shell, under the user's check timeout — and what it ran on: the hashes of
// the files the step names, its globs expanded.
#pragma once

#include "agent_tools/tool_context.hpp"

namespace rio {

// Reports once, through `report`, a ToolReport whose detail is the CheckRun (its output in the
// report's `output`): a check that cannot run is a CheckRun with `failure`, never an error.
ToolCancel run_step_check(ToolContext& context, const RunTool& run, const ToolReportFn& report);

} // namespace rio
