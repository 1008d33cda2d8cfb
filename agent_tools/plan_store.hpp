// Plans on disk (DESIGN §7): filing a presented plan under .rio/plans/, reading it back as
// the user left it (open buffer first), recording decisions, and the history for plans.*.
#pragma once

#include "core/agent/plan_file.hpp"
#include "core/workspace.hpp"
#include "protocol/messages.hpp"
#include "protocol/wire.hpp"

#include <ctime>
#include <string>

namespace rio {

// Writes the plan file and returns its project-relative path; "" when no project is open.
Result<std::string> file_plan(Workspace& workspace, const Emit& emit, std::string_view title,
                              std::string_view plan, WallTime now);

// The plan as it is now: the open buffer's text if the file is open, else the file's.
Result<PlanFileInfo> read_plan(const Workspace& workspace, std::string_view rel);

// Rewrites the front matter (status, decision time, policy), through the open buffer when
// there is one, and saves.
Status mark_plan(Workspace& workspace, const Emit& emit, std::string_view rel,
                 std::string_view status, std::string_view policy, WallTime now);

// {plans: [{path, title, status, created}]}, newest first by the time presented.
Result<PlansListResult> list_plans(const Workspace& workspace);

} // namespace rio
