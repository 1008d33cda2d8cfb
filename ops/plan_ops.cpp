// plans.list and plans.get: the history of presented plans (DESIGN §7).
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
                     {}};
        if (!info->review.empty()) out.review = info->review;
        if (!info->revises.empty()) out.revises = info->revises;
        out.touched = info->touched;
        out.unplanned = info->unplanned;
        return out;
    });
}

} // namespace rio
