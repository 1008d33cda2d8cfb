// lsp.* (DESIGN §21): the language servers' state, restarting one, diagnostics, and the
// person's navigation — hover, definition, references, symbols — answered when the server has.
#include "host/lsp/lsp_servers.hpp"
#include "ops/ops.hpp"

namespace rio {

void register_lsp_ops(Dispatcher& dispatcher, LspServers& servers) {
    dispatcher.on<LspListParams>(
        [&servers](const LspListParams&) -> Result<LspListResult> { return servers.list(); });
    dispatcher.on<LspRestartParams>([&servers](const LspRestartParams& p) -> Result<LspListResult> {
        return servers.restart(p.name);
    });
    dispatcher.on_async<LspDiagnosticsParams>(
        [&servers](const LspDiagnosticsParams& p, auto reply) {
            if (!p.path) return reply(servers.diagnostics(std::nullopt));
            servers.file_diagnostics(*p.path, reply);
        });
    dispatcher.on_async<LspHoverParams>(
        [&servers](const LspHoverParams& p, auto reply) { servers.hover(p, reply); });
    dispatcher.on_async<LspDefinitionParams>(
        [&servers](const LspDefinitionParams& p, auto reply) { servers.definition(p, reply); });
    dispatcher.on_async<LspReferencesParams>(
        [&servers](const LspReferencesParams& p, auto reply) { servers.references(p, reply); });
    dispatcher.on_async<LspSymbolsParams>(
        [&servers](const LspSymbolsParams& p, auto reply) { servers.symbols(p, reply); });
}

} // namespace rio
