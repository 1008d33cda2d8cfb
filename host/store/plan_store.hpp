// Plans on disk (DESIGN §7, §13): filing a presented plan under .rio/plans/, reading it back
// as the user left it (open buffer first), recording decisions, reviews and what the work
// changed, and the history for plans.*.
#pragma once

#include "core/agent/plan_file.hpp"
#include "core/agent/plan_review.hpp"
#include "core/workspace.hpp"
#include "protocol/core_event.hpp"
#include "protocol/messages.hpp"

#include <ctime>
#include <functional>
#include <string>
#include <vector>

namespace rio {

// Whether `rel` names a file the core files plans in: .rio/plans/<name>.md. The core writes
// decisions into no other file, whatever a proposal (or a session file) says.
bool is_plan_path(std::string_view rel);

// Writes the plan file and returns its project-relative path; "" when no project is open.
// `revises`: the plan presented before it in the same conversation; `steps`: those the model
// declared, kept in the front matter.
Result<std::string> file_plan(Workspace& workspace, const Emit& emit, std::string_view title,
                              std::string_view plan, WallTime now, std::string_view revises = {},
                              const std::vector<DeclaredStep>& steps = {});

// The plan as it is now: the open buffer's text if the file is open, else the file's.
Result<PlanFileInfo> read_plan(const Workspace& workspace, std::string_view rel);

// Rewrites the front matter (status, decision time, policy) and, for a decision with
// feedback or comments, appends its "## Review"; through the open buffer when there is one
// (whose text is the body: a review shows up as an edit at its end), and saves.
Status mark_plan(Workspace& workspace, const Emit& emit, std::string_view rel, PlanStatus status,
                 std::string_view policy, WallTime now, const PlanReview& review = {},
                 std::string_view approved_in = {});

// Records the approved plan's progress (one status word per step) and the steps' evidence in
// the front matter.
Status record_plan_progress(Workspace& workspace, const Emit& emit, std::string_view rel,
                            std::string_view progress, std::string_view checks = {});

// Records `touched` and `unplanned` in the front matter, once the plan's work ended.
// Writes the plan's receipt section (issue 43), its `approved` filled from the front matter.
Status record_plan_receipt(Workspace& workspace, const Emit& emit, std::string_view rel,
                           PlanReceipt& receipt);

Status record_plan_outcome(Workspace& workspace, const Emit& emit, std::string_view rel,
                           const std::vector<std::string>& touched,
                           const std::vector<std::string>& unplanned);

// {plans: [{path, title, status, created, revises?}]}, newest first by the time presented.
Result<PlansListResult> list_plans(const Workspace& workspace);

} // namespace rio
