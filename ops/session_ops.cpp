#include "protocol/line_reader.hpp"
#include "core/version.hpp"
#include "ops/ops.hpp"

namespace rio {

void register_session_ops(Dispatcher& dispatcher, OpContext& context) {
    dispatcher.add("session.hello", [&dispatcher, &context](const Call&) -> Result<Json> {
        const Workspace& ws = context.workspace;
        return Json{{"protocol", protocol_version},
                    {"name", "rio-core"},
                    {"version", version},
                    {"ops", dispatcher.ops()},
                    {"root", ws.root ? Json(ws.root->string()) : Json(nullptr)},
                    {"max_line", default_max_line}};
    });
}

} // namespace rio
