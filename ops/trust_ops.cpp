// project.trust.get and project.trust.set (DESIGN §12; decision 0048): what trusting the open
// project would grant, and the user's decision to trust it as they were shown it.
#include "core/agent/allow_list.hpp"
#include "core/changed_paths.hpp"
#include "host/files/files.hpp"
#include "host/store/trust_store.hpp"
#include "ops/ops.hpp"

#include <algorithm>

namespace rio {
namespace {

ProjectTrustState trust_state(const OpContext& context, const ProjectTrust& trust) {
    ProjectTrustState state{trust.trusted, {}, {}, {}, {}};
    for (const PowerFile& f : trust.files)
        state.files.push_back({f.path, f.sha256, f.trusted, f.summary});
    std::filesystem::path allow = context.dirs.config / "allow";
    if (auto text = read_file(allow, allow.string()))
        for (const AllowRule& rule : parse_allow_rules(*text))
            state.user_rules.push_back(rule_text(rule));
    if (!trust.trusted) context.waiting_for_trust(state);
    return state;
}

ProjectTrustState trust_state(const OpContext& context) {
    return trust_state(context, current_trust(context.dirs, context.workspace));
}

// The files as they are now, in words, for a person who was shown something else.
std::string files_now(const ProjectTrust& now) {
    std::string out;
    for (const PowerFile& f : now.files)
        out += (out.empty() ? "" : "; ") + f.path + " would let the agent " + f.summary;
    return out.empty() ? "the project has none of them now" : out;
}

Result<ProjectTrustState> set_trust(OpContext& context, const ProjectTrustSetParams& p) {
    if (!context.workspace.root) return make_error(ErrorCode::no_project, "no project is open");
    ProjectTrust now = current_trust(context.dirs, context.workspace);
    if (p.trust && !p.files)
        return make_error(ErrorCode::bad_request,
                          "params.files: say which files the person was shown, as "
                          "project.trust.get lists them ([] when there were none)");
    if (p.trust && !same_files(now, *p.files)) {
        announce_trust(context); // every frontend shows what there is now
        return make_error(ErrorCode::conflict,
                          "the project's power-granting files are not what was shown, so "
                          "nothing was trusted: " +
                              files_now(now) + ". Ask again with what they are now.");
    }
    if (Status s = set_project_trust(context.dirs, *context.workspace.root, now, p.trust); !s)
        return s.error();
    announce_trust(context);
    return trust_state(context);
}

} // namespace

void announce_trust(const OpContext& context) {
    emit_event(context.emit, trust_state(context));
    context.project_power_changed();
}

void paths_changed(const OpContext& context, const std::vector<std::string>& paths) {
    if (!context.workspace.root) return;
    std::vector<std::string> power = power_paths(context.workspace);
    power.push_back(".rio"); // the folder itself, renamed or removed
    bool touched = std::any_of(power.begin(), power.end(),
                               [&](const std::string& rel) { return changed_covers(paths, rel); });
    if (touched) announce_trust(context);
}

void register_trust_ops(Dispatcher& dispatcher, OpContext& context) {
    dispatcher.on<ProjectTrustGetParams>(
        [&context](const ProjectTrustGetParams&) -> Result<ProjectTrustState> {
            if (!context.workspace.root)
                return make_error(ErrorCode::no_project, "no project is open");
            return trust_state(context);
        });
    dispatcher.on<ProjectTrustSetParams>(
        [&context](const ProjectTrustSetParams& p) { return set_trust(context, p); });
}

} // namespace rio
