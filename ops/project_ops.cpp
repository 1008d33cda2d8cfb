// project.open, project.close, project.info: which folder is the project.
#include "ops/ops.hpp"
#include "ops/project_access.hpp"
#include "ops/project_watch.hpp"

namespace rio {
namespace {

ProjectInfo describe(const Workspace& ws) {
    if (!ws.root) return ProjectInfo{};
    return ProjectInfo{ws.root->string(), ws.root->filename().string(), ws.buffers.size(),
                       std::nullopt};
}

void moved(OpContext& context) {
    if (context.project_changed) context.project_changed();
}

// Closing a project drops its buffers; unsaved edits go only when the caller says so.
Status may_drop_buffers(const Workspace& ws, std::optional<bool> discard) {
    if (ws.any_dirty() && !discard.value_or(false))
        return make_error(ErrorCode::conflict,
                          "the project has unsaved buffers; save them or pass discard: true");
    return Ok{};
}

ProjectChangedEvent changed(const Workspace& ws) {
    ProjectChangedEvent event;
    static_cast<ProjectInfo&>(event) = describe(ws);
    return event;
}

} // namespace

void register_project_ops(Dispatcher& dispatcher, OpContext& context) {
    Workspace& ws = context.workspace;

    dispatcher.on<ProjectOpenParams>(
        [&ws, &context](const ProjectOpenParams& p) -> Result<ProjectInfo> {
            auto root = project_root(p.path);
            if (!root) return root.error();
            if (ws.root == *root) return describe(ws);
            if (Status s = may_drop_buffers(ws, p.discard); !s) return s.error();
            context.project_leaving();
            if (Status s = open_project(ws, *root, context.dirs.write_journal()); !s) {
                moved(context); // still the old project: its conversation comes back
                return s.error();
            }
            moved(context);
            emit_event(context.emit, changed(ws));
            announce_trust(context);
            return describe(ws);
        });

    dispatcher.on<ProjectCloseParams>(
        [&ws, &context](const ProjectCloseParams& p) -> Result<Empty> {
            if (!ws.root) return make_error(ErrorCode::no_project, "no project is open");
            if (Status s = may_drop_buffers(ws, p.discard); !s) return s.error();
            context.project_leaving();
            close_project(ws);
            moved(context);
            emit_event(context.emit, changed(ws));
            context.project_power_changed();
            return Empty{};
        });

    dispatcher.on<ProjectInfoParams>([&ws](const ProjectInfoParams&) -> Result<ProjectInfo> {
        if (!ws.root) return make_error(ErrorCode::no_project, "no project is open");
        ProjectInfo info = describe(ws);
        info.watch = watch_info(ws.watch);
        return info;
    });
}

} // namespace rio
