// plans.list and plans.get: the history of presented plans (DESIGN §7).
#include "protocol/params.hpp"
#include "ops/agent_ops.hpp"
#include "agent_tools/plan_store.hpp"

namespace rio {

void register_plan_ops(Dispatcher& dispatcher, Workspace& workspace) {
    dispatcher.add("plans.list",
                   [&workspace](const Call&) -> Result<Json> { return list_plans(workspace); });
    dispatcher.add("plans.get", [&workspace](const Call& call) -> Result<Json> {
        std::string path = require_string(call.params, "path");
        if (!workspace.root) return make_error(ErrorCode::no_project, "no project is open");
        auto info = read_plan(workspace, path);
        if (!info) return info.error();
        return Json{{"path", path},
                    {"title", info->title},
                    {"status", info->status},
                    {"created", info->presented},
                    {"decided", info->decided},
                    {"policy", info->policy},
                    {"body", info->body}};
    });
}

} // namespace rio
