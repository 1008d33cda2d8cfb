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

// The step's files as they are now: each path, and each file a glob matches (at most
// max_hashed_files in all), with the sha256 of its bytes ("" for a named file that is missing).
inline constexpr std::size_t max_hashed_files = 200;
std::vector<FileHash> step_file_hashes(const Workspace& workspace,
                                       const std::vector<std::string>& files);

} // namespace rio
