// LspServers: hover, definition, references and symbols, asked of the file's server.
#include "host/files/confine.hpp"
#include "host/files/document_io.hpp"
#include "host/files/files.hpp"
#include "host/lsp/lsp_servers.hpp"
#include "host/lsp/lsp_servers_detail.hpp"

#include <algorithm>

namespace rio {

using namespace lsp_detail;

// ---- queries ----

void LspServers::position_request(const std::string& method, const std::string& path,
                                  std::uint64_t line, std::uint64_t column,
                                  std::function<void(Result<Json>, LspServer*)> then,
                                  std::function<void(Error)> failed) {
    auto fail_later = [this, failed](Error e) {
        asio::post(io_, [failed, e = std::move(e)] { failed(e); });
    };
    auto opened = open_for_query(path);
    if (!opened) return fail_later(opened.error());
    LspServer* server = *opened;
    auto rel = confine(workspace_.dir, path)->rel;
    std::string uri = uri_of(rel);
    const LspDocument* doc = server->document(uri);
    LineIndex index(doc->text, doc->lines);
    if (line == 0 || line > index.lines())
        return fail_later(make_error(ErrorCode::bad_request,
                                     "line " + std::to_string(line) + " is outside " + rel + " (" +
                                         std::to_string(index.lines()) + " lines)"));
    std::string_view text = index.line_text(line - 1);
    if (column > text.size())
        return fail_later(
            make_error(ErrorCode::bad_request, "column " + std::to_string(column) +
                                                   " is past the end of line " +
                                                   std::to_string(line) + " of " + rel + " (" +
                                                   std::to_string(text.size()) + " bytes)"));
    std::size_t at = index.line_start(line - 1) + column;
    while (at > 0 && !is_char_boundary(doc->text, at))
        --at;
    LspPosition position = index.position(at);
    Json params{{"textDocument", {{"uri", uri}}},
                {"position", {{"line", position.line}, {"character", position.character}}}};
    if (method == "textDocument/references") params["context"] = {{"includeDeclaration", true}};
    std::string name = server->config().name;
    server->request(method, std::move(params),
                    [this, alive = alive_, name, then, failed](Result<Json> result) {
                        if (!*alive) return;
                        if (!result) return failed(result.error());
                        for (Entry& e : entries_)
                            if (e.config.name == name && e.server)
                                return then(std::move(result), e.server.get());
                        failed(make_error(ErrorCode::server, name + " stopped meanwhile"));
                    });
}

void LspServers::hover(const LspHoverParams& at, HoverDone done) {
    position_request(
        "textDocument/hover", at.path, at.line, at.column,
        [done](Result<Json> result, LspServer*) {
            auto hover = parse_hover(*result);
            done(LspHoverResult{hover ? hover->text : "", hover && hover->markdown});
        },
        [done](Error e) { done(e); });
}

void LspServers::definition(const LspDefinitionParams& at, LocationsDone done) {
    locations_request("textDocument/definition", at.path, at.line, at.column, std::move(done));
}

void LspServers::references(const LspReferencesParams& at, LocationsDone done) {
    locations_request("textDocument/references", at.path, at.line, at.column, std::move(done));
}

void LspServers::locations_request(const std::string& method, const std::string& path,
                                   std::uint64_t line, std::uint64_t column, LocationsDone done) {
    position_request(
        method, path, line, column,
        [this, done](Result<Json> result, LspServer* server) {
            LspLocationsResult out;
            for (const LspLocation& l : parse_locations(*result, max_locations))
                if (auto place = locate(*server, l.uri, l.range)) out.locations.push_back(*place);
            done(out);
        },
        [done](Error e) { done(e); });
}

void LspServers::symbols(const LspSymbolsParams& params, SymbolsDone done) {
    auto to_info = [this](LspServer& server, const LspSymbol& s, const std::string& uri) {
        SymbolInfo info{s.name,
                        std::string(symbol_kind_name(s.kind)),
                        s.detail,
                        s.container,
                        static_cast<std::uint64_t>(s.depth),
                        "",
                        0,
                        0,
                        false};
        if (auto place = locate(server, uri, s.range)) {
            info.path = place->path;
            info.line = place->line;
            info.column = place->column;
            info.external = place->external;
        }
        return info;
    };
    if (params.path) {
        auto opened = open_for_query(*params.path);
        if (!opened) return post_result<Result<LspSymbolsResult>>(io_, done, opened.error());
        std::string uri = uri_of(confine(workspace_.dir, *params.path)->rel);
        std::string name = (*opened)->config().name;
        (*opened)->request("textDocument/documentSymbol", {{"textDocument", {{"uri", uri}}}},
                           [this, alive = alive_, name, uri, done, to_info](Result<Json> result) {
                               if (!*alive) return;
                               if (!result) return done(result.error());
                               LspSymbolsResult out;
                               for (Entry& e : entries_) {
                                   if (e.config.name != name || !e.server) continue;
                                   for (const LspSymbol& s : parse_symbols(*result, max_symbols))
                                       out.symbols.push_back(
                                           to_info(*e.server, s, s.uri.empty() ? uri : s.uri));
                               }
                               done(out);
                           });
        return;
    }
    if (!params.query)
        return post_result<Result<LspSymbolsResult>>(
            io_, done,
            make_error(ErrorCode::bad_request, "params.path or params.query is required"));
    // Every ready server that searches symbols is asked; the answers are joined.
    struct Gather {
        std::size_t waiting = 0;
        LspSymbolsResult out;
    };
    auto gather = std::make_shared<Gather>();
    std::vector<LspServer*> asked;
    for (Entry& e : entries_)
        if (e.server && e.server->state() == ServerState::ready &&
            e.server->capabilities().workspace_symbols)
            asked.push_back(e.server.get());
    if (asked.empty()) return post_result<Result<LspSymbolsResult>>(io_, done, LspSymbolsResult{});
    gather->waiting = asked.size();
    for (LspServer* server : asked) {
        std::string name = server->config().name;
        server->request(
            "workspace/symbol", {{"query", *params.query}},
            [this, alive = alive_, name, gather, done, to_info](Result<Json> result) {
                if (!*alive) return;
                if (result)
                    for (Entry& e : entries_)
                        if (e.config.name == name && e.server)
                            for (const LspSymbol& s : parse_symbols(*result, max_symbols))
                                gather->out.symbols.push_back(to_info(*e.server, s, s.uri));
                if (--gather->waiting == 0) done(gather->out);
            });
    }
}

} // namespace rio
