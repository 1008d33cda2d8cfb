// plans.list and plans.get: the history of presented plans (DESIGN §7).
#include "core/agent/plan_track.hpp"
#include "host/store/plan_store.hpp"
#include "ops/agent_ops.hpp"

namespace rio {

void register_plan_ops(Dispatcher& dispatcher, Workspace& workspace) {
    dispatcher.on<PlansListParams>([&workspace](const PlansListParams&) -> Result<PlansListResult> {
        return list_plans(workspace);
    });
    dispatcher.on<PlansGetParams>([&workspace](const PlansGetParams& p) -> Result<PlanFull> {
        if (!workspace.root) return make_error(ErrorCode::no_project, "no project is open");
        auto info = read_plan(workspace, p.path);
        if (!info) return info.error();
        PlanFull out{p.path,
                     info->title,
                     info->status,
                     info->presented,
                     info->decided,
                     info->policy,
                     info->body,
                     info->plan,
                     {},
                     {},
                     {},
                     {},
                     {},
                     {}};
        if (!info->review.empty()) out.review = info->review;
        if (!info->revises.empty()) out.revises = info->revises;
        out.touched = info->touched;
        out.unplanned = info->unplanned;
        if (!info->steps.empty()) out.declared = info->steps;
        if (!info->receipt.empty()) out.receipt = info->receipt;
        // The steps are the declared ones, else come from the plan as it is on file; their
        // statuses from the front matter; a progress field edited out of shape leaves them
        // pending, and says so.
        if (info->progress) {
            std::vector<PlanStep> steps = plan_checklist(info->plan, info->steps);
            if (!read_progress_field(*info->progress, steps))
                out.warning = "the plan's progress (\"progress: " + *info->progress +
                              "\" in its front matter) does not fit its " +
                              std::to_string(steps.size()) + " steps; they are shown as pending";
            else if (info->checks && !read_checks_field(*info->checks, steps))
                out.warning = "the steps' evidence (\"checks\" in the plan's front matter) does "
                              "not fit its " +
                              std::to_string(steps.size()) + " steps; it is not shown";
            out.steps = std::move(steps);
        }
        return out;
    });
}

} // namespace rio
