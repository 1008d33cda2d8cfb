// The LSP values rio's client asks for and reads, as plain structs: what initialize offers
// and learns, published diagnostics, locations, hover text and symbols, with file URIs. Pure:
// each parser takes the JSON a server sent and keeps what is usable of it, never throwing.
#pragma once

#include "host/files/file_uri.hpp"
#include "host/lsp/lsp_positions.hpp"
#include "protocol/closed_sets.hpp"

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rio {

struct LspRange {
    LspPosition start, end;
};

// A diagnostic without a severity counts as an error; LSP numbers them from 1 in the order of
// protocol's Severity.
struct LspDiagnostic {
    LspRange range;
    Severity severity = Severity::error;
    std::string message, source, code;
};

struct LspPublished { // textDocument/publishDiagnostics
    std::string uri;
    std::optional<std::int64_t> version;
    std::vector<LspDiagnostic> diagnostics;
};
// Diagnostics past `max` are dropped: a flood stays bounded.
std::optional<LspPublished> parse_published(const nlohmann::json& params, std::size_t max);

struct LspLocation {
    std::string uri;
    LspRange range;
};
// A definition or references answer: Location, Location[] or LocationLink[], or null.
std::vector<LspLocation> parse_locations(const nlohmann::json& result, std::size_t max);

struct LspHover {
    std::string text; // Markdown or plain text, as the server wrote it
    bool markdown = false;
    std::optional<LspRange> range;
};
// MarkupContent, a MarkedString, or an array of them; nullopt for null (nothing here).
std::optional<LspHover> parse_hover(const nlohmann::json& result);

struct LspSymbol {
    std::string name, detail, container;
    int kind = 0;    // LSP's SymbolKind, 1..26
    std::string uri; // workspace symbols; "" for a document's own
    LspRange range;  // where an editor puts the cursor: the selection range, else the range
    int depth = 0;   // nesting in a document's outline
};
// DocumentSymbol[] (flattened, depth first) or SymbolInformation[].
std::vector<LspSymbol> parse_symbols(const nlohmann::json& result, std::size_t max);
std::string_view symbol_kind_name(int kind); // "function", "class", …

// What a server said it can do, from initialize's result.
struct LspCapabilities {
    int sync = 0; // TextDocumentSyncKind: 0 none, 1 full, 2 incremental
    bool open_close = false, save = false, save_text = false;
    bool hover = false, definition = false, references = false;
    bool document_symbols = false, workspace_symbols = false;
};
LspCapabilities parse_capabilities(const nlohmann::json& initialize_result);

// initialize's params: rio as the client, `root` as the only workspace folder, the
// capabilities its requests use (diagnostics with versions, hover in Markdown, definition,
// references, symbols, incremental sync with save notes, configuration and progress).
nlohmann::json lsp_initialize_params(std::int64_t process_id, const std::filesystem::path& root,
                                     std::string_view client_version,
                                     const nlohmann::json& initialization_options);

} // namespace rio
