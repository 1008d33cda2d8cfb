// session.hello: who the core is and what it speaks.
#include "core/version.hpp"
#include "ops/ops.hpp"
#include "protocol/line_reader.hpp"

namespace rio {

void register_session_ops(Dispatcher& dispatcher, OpContext& context) {
    dispatcher.on<HelloParams>([&dispatcher, &context](const HelloParams&) -> Result<HelloResult> {
        const Workspace& ws = context.workspace;
        HelloResult hello{protocol_version, "rio-core",   version,
                          dispatcher.ops(), std::nullopt, default_max_line};
        if (ws.root) hello.root = ws.root->string();
        return hello;
    });
}

} // namespace rio
