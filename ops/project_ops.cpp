#include "protocol/params.hpp"
#include "ops/ops.hpp"
#include "ops/project_access.hpp"

namespace rio {
namespace {

Json describe(const Workspace& ws) {
    if (!ws.root) return Json{{"root", nullptr}, {"name", nullptr}};
    return Json{{"root", ws.root->string()},
                {"name", ws.root->filename().string()},
                {"buffers", ws.buffers.size()}};
}

// Closing a project drops its buffers; unsaved edits go only when the caller says so.
Status may_drop_buffers(const Workspace& ws, const Json& params) {
    if (ws.any_dirty() && !optional_bool(params, "discard", false))
        return make_error(ErrorCode::conflict,
                          "the project has unsaved buffers; save them or pass discard: true");
    return Ok{};
}

} // namespace

void register_project_ops(Dispatcher& dispatcher, OpContext& context) {
    Workspace& ws = context.workspace;

    dispatcher.add("project.open", [&ws, &context](const Call& call) -> Result<Json> {
        auto root = project_root(require_string(call.params, "path"));
        if (!root) return root.error();
        if (ws.root == *root) return describe(ws);
        if (Status s = may_drop_buffers(ws, call.params); !s) return s.error();
        if (Status s = open_project(ws, *root, context.dirs.write_journal()); !s) return s.error();
        context.emit("project.changed", describe(ws));
        context.emit("project.trust", trust_json(context));
        return describe(ws);
    });

    dispatcher.add("project.close", [&ws, &context](const Call& call) -> Result<Json> {
        if (!ws.root) return make_error(ErrorCode::no_project, "no project is open");
        if (Status s = may_drop_buffers(ws, call.params); !s) return s.error();
        close_project(ws);
        context.emit("project.changed", describe(ws));
        return Json::object();
    });

    dispatcher.add("project.info", [&ws](const Call&) -> Result<Json> {
        if (!ws.root) return make_error(ErrorCode::no_project, "no project is open");
        return describe(ws);
    });
}

} // namespace rio
