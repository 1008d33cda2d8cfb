// project.trust.get and project.trust.set (DESIGN §12): what the open project's
// power-granting files would grant, and the user's decision to trust them as they are.
#include "protocol/params.hpp"
#include "host/trust_store.hpp"
#include "ops/ops.hpp"

namespace rio {

Json trust_json(const OpContext& context) {
    ProjectTrust trust = current_trust(context.dirs, context.workspace);
    Json files = Json::array();
    for (const PowerFile& f : trust.files)
        files.push_back({{"path", f.path},
                         {"sha256", f.sha256},
                         {"trusted", f.trusted},
                         {"summary", f.summary}});
    return Json{{"trusted", trust.trusted}, {"files", files}};
}

void register_trust_ops(Dispatcher& dispatcher, OpContext& context) {
    dispatcher.add("project.trust.get", [&context](const Call&) -> Result<Json> {
        if (!context.workspace.root) return make_error(ErrorCode::no_project, "no project is open");
        return trust_json(context);
    });
    dispatcher.add("project.trust.set", [&context](const Call& call) -> Result<Json> {
        if (!context.workspace.root) return make_error(ErrorCode::no_project, "no project is open");
        if (!call.params.contains("trust"))
            return make_error(ErrorCode::bad_request, "params.trust is required");
        bool trust = optional_bool(call.params, "trust", false);
        ProjectTrust now = current_trust(context.dirs, context.workspace);
        if (Status s = set_project_trust(context.dirs, *context.workspace.root, now, trust); !s)
            return s.error();
        Json state = trust_json(context);
        context.emit("project.trust", state);
        return state;
    });
}

} // namespace rio
