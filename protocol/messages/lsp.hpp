// Language servers (DESIGN §21).
#pragma once

#include "protocol/messages/common.hpp"

namespace rio {

// Language servers (DESIGN §21). Positions are rio's: `line` from 1, `column` in UTF-8 bytes
// from 0 (where an editor puts the cursor), as fs.search gives them; the core converts to and
// from the servers' UTF-16.
struct LspServerInfo {
    std::string name;
    std::string source; // built-in, user, project
    // idle (configured, no file of its language opened yet), starting, ready, failed,
    // stopped, not found (its program is not on PATH), disabled, untrusted
    Wire<ServerState> state;
    std::string words;                // the state in words: "failed: …", "not found: install …"
    std::optional<std::string> error; // failed: why; ready: the last problem
    std::optional<std::string> hint;  // not found: how to install it
    std::vector<std::string> command;
    std::vector<std::string> files; // the globs it serves
    std::uint64_t documents = 0;    // open in it
    std::string stderr_tail;        // the end of what it wrote to stderr (at most 16 KB)
};
RIO_FIELDS(LspServerInfo, name, source, state, words, error, hint, command, files, documents,
           stderr_tail)

struct LspListResult {
    std::vector<LspServerInfo> servers;
    std::vector<std::string> problems; // config files that could not be used, in words
};
RIO_FIELDS(LspListResult, servers, problems)

struct LspListParams : Empty {
    static constexpr std::string_view op = op::lsp_list;
    using Result = LspListResult;
};

// Reads the config files again, stops the server (for the open project) and starts it.
struct LspRestartParams {
    static constexpr std::string_view op = op::lsp_restart;
    using Result = LspListResult;
    std::string name;
};
RIO_FIELDS(LspRestartParams, name)

struct DiagnosticInfo {
    std::uint64_t line = 0, column = 0, end_line = 0, end_column = 0;
    Wire<Severity> severity;
    std::string message;
    std::string source; // the tool inside the server: "clang", "pyflakes", …
    std::string code;   // "" when it gave none
};
RIO_FIELDS(DiagnosticInfo, line, column, end_line, end_column, severity, message, source, code)

struct FileDiagnostics {
    std::string path; // project-relative; absolute for a file outside the project
    std::string server;
    std::vector<DiagnosticInfo> diagnostics; // errors first, then by position
};
RIO_FIELDS(FileDiagnostics, path, server, diagnostics)

struct LspDiagnosticsResult {
    std::vector<FileDiagnostics> files; // by path; files without diagnostics left out
};
RIO_FIELDS(LspDiagnosticsResult, files)

struct LspDiagnosticsParams {
    static constexpr std::string_view op = op::lsp_diagnostics;
    using Result = LspDiagnosticsResult;
    // One file (listed even when it has none), once its server reported on it; else every
    // file, as known now.
    std::optional<std::string> path;
};
RIO_FIELDS(LspDiagnosticsParams, path)

struct SourceLocation {
    std::string path; // project-relative; absolute outside the project (never opened for writing)
    std::uint64_t line = 0, column = 0, end_line = 0, end_column = 0;
    std::string text;      // the line, without its end, clipped to about 240 bytes
    bool external = false; // outside the project
};
RIO_FIELDS(SourceLocation, path, line, column, end_line, end_column, text, external)

struct LspLocationsResult {
    std::vector<SourceLocation> locations;
};
RIO_FIELDS(LspLocationsResult, locations)

struct LspHoverResult {
    std::string text; // "" when the server has nothing to say there
    bool markdown = false;
};
RIO_FIELDS(LspHoverResult, text, markdown)

// A place in a file, for hover, definition and references.
#define RIO_LSP_POSITION_PARAMS(Type, Op, R)                                                       \
    struct Type {                                                                                  \
        static constexpr std::string_view op = Op;                                                 \
        using Result = R;                                                                          \
        std::string path;                                                                          \
        std::uint64_t line = 0, column = 0;                                                        \
    };                                                                                             \
    RIO_FIELDS(Type, path, line, column)
RIO_LSP_POSITION_PARAMS(LspHoverParams, op::lsp_hover, LspHoverResult)
RIO_LSP_POSITION_PARAMS(LspDefinitionParams, op::lsp_definition, LspLocationsResult)
RIO_LSP_POSITION_PARAMS(LspReferencesParams, op::lsp_references, LspLocationsResult)
#undef RIO_LSP_POSITION_PARAMS

struct SymbolInfo {
    std::string name;
    std::string kind; // function, class, method, variable, …
    std::string detail, container;
    std::uint64_t depth = 0; // nesting in a document's outline
    std::string path;
    std::uint64_t line = 0, column = 0;
    bool external = false;
};
RIO_FIELDS(SymbolInfo, name, kind, detail, container, depth, path, line, column, external)

struct LspSymbolsResult {
    std::vector<SymbolInfo> symbols;
};
RIO_FIELDS(LspSymbolsResult, symbols)

// A file's outline (path), or the project's symbols matching `query` (every ready server).
struct LspSymbolsParams {
    static constexpr std::string_view op = op::lsp_symbols;
    using Result = LspSymbolsResult;
    std::optional<std::string> path;
    std::optional<std::string> query;
};
RIO_FIELDS(LspSymbolsParams, path, query)

struct LspChangedEvent : LspListResult {
    static constexpr std::string_view event = event::lsp_changed;
};

// A file's diagnostics changed (an empty list clears them).
struct LspDiagnosticsEvent : FileDiagnostics {
    static constexpr std::string_view event = event::lsp_diagnostics;
};

} // namespace rio
