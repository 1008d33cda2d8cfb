// project.trust.get and project.trust.set (DESIGN §12): what the open project's
// power-granting files would grant, and the user's decision to trust them as they are.
#include "host/store/trust_store.hpp"
#include "ops/ops.hpp"

namespace rio {
namespace {

ProjectTrustState trust_state(const OpContext& context) {
    ProjectTrust trust = current_trust(context.dirs, context.workspace);
    ProjectTrustState state{trust.trusted, {}};
    for (const PowerFile& f : trust.files)
        state.files.push_back({f.path, f.sha256, f.trusted, f.summary});
    return state;
}

} // namespace

Json trust_json(const OpContext& context) {
    return trust_state(context);
}

void announce_trust(const OpContext& context) {
    context.emit(event::project_trust, trust_json(context));
    context.project_power_changed();
}

void register_trust_ops(Dispatcher& dispatcher, OpContext& context) {
    dispatcher.on<ProjectTrustGetParams>(
        [&context](const ProjectTrustGetParams&) -> Result<ProjectTrustState> {
            if (!context.workspace.root)
                return make_error(ErrorCode::no_project, "no project is open");
            return trust_state(context);
        });
    dispatcher.on<ProjectTrustSetParams>(
        [&context](const ProjectTrustSetParams& p) -> Result<ProjectTrustState> {
            if (!context.workspace.root)
                return make_error(ErrorCode::no_project, "no project is open");
            ProjectTrust now = current_trust(context.dirs, context.workspace);
            if (Status s = set_project_trust(context.dirs, *context.workspace.root, now, p.trust);
                !s)
                return s.error();
            announce_trust(context);
            return trust_state(context);
        });
}

} // namespace rio
