// session.hello: who the core is and what it speaks.
#include "core/version.hpp"
#include "ops/ops.hpp"
#include "protocol/line_reader.hpp"
#include "text/one_line.hpp"

namespace rio {

void register_session_ops(Dispatcher& dispatcher, OpContext& context) {
    dispatcher.on_client<HelloParams>(
        [&dispatcher, &context](const HelloParams& p, ClientId client) -> Result<HelloResult> {
            if (p.client) context.client_names[client] = one_line(*p.client).substr(0, 80);
            const Workspace& ws = context.workspace;
            HelloResult hello{protocol_version, "rio-core",   version,
                              dispatcher.ops(), std::nullopt, default_max_line};
            if (ws.root) hello.root = ws.root->string();
            return hello;
        });
}

} // namespace rio
