// The language servers of this core (DESIGN §21): which are configured (built-in, the user's
// lsp.json, a trusted project's .rio/lsp.json), one running server per entry for the open
// project, started when a file it serves is opened or the agent touches one, stopped with
// the project or the core. It follows the core's buffers by watching the events the core
// emits (buffer.changed, fs.changed, project.changed, project.trust), keeps each file's
// diagnostics in rio's positions, answers hover, definition, references and symbols, and
// lets the agent wait, bounded, for a file's diagnostics after it wrote the file.
#pragma once

#include "core/workspace.hpp"
#include "host/lsp/lsp_config.hpp"
#include "host/lsp/lsp_server.hpp"
#include "io/user_dirs.hpp"
#include "protocol/core_event.hpp"
#include "protocol/messages.hpp"

#include <asio/io_context.hpp>
#include <asio/steady_timer.hpp>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace rio {

// What became of the wait for a file's diagnostics after the agent wrote it.
struct LspFileReport {
    // untrusted: the file's server waits for the project to be trusted (decision 0071).
    enum class Outcome { no_server, reported, timed_out, failed, untrusted };
    Outcome outcome = Outcome::no_server;
    std::string server;
    std::chrono::milliseconds waited_at_most{0}; // the bound, for timed_out's words
    std::string why;                             // failed: the server's state in words
    std::vector<DiagnosticInfo> diagnostics;     // every one the server published for it
};

class LspServers {
public:
    LspServers(asio::io_context& io, UserDirs dirs, const Workspace& workspace, Emit emit);
    ~LspServers();
    LspServers(const LspServers&) = delete;
    LspServers& operator=(const LspServers&) = delete;

    // What the core emits through: buffer, file and project events keep the servers in step,
    // then every event goes on to `next` unchanged.
    Emit observing(Emit next);

    // Reads the config files again (at start, and when the project or its trust changed).
    void reload();
    // The servers that would start in the open project once it is trusted: none start in a
    // project nobody trusted (decision 0071). Read from the config files as they are now.
    std::vector<std::string> waiting_for_trust() const;
    void shutdown();

    // As now (lsp.changed announces changes of state; stderr moves on between them).
    LspListResult list() const { return snapshot(); }
    // not_found for a name no file configures; refused for an untrusted project's.
    Result<LspListResult> restart(const std::string& name);

    // A file's, or every file's that has some: what is known now.
    LspDiagnosticsResult diagnostics(const std::optional<std::string>& path) const;
    // lsp.diagnostics {path}: the file's (listed, with its server's name, even without any),
    // once its server reported on the text it has now (opened for it if it was not, waiting as
    // await_diagnostics does); at once, not listed, when no server handles it. A path outside
    // the project is refused.
    void file_diagnostics(const std::string& path,
                          std::function<void(Result<LspDiagnosticsResult>)> done);

    using HoverDone = std::function<void(Result<LspHoverResult>)>;
    using LocationsDone = std::function<void(Result<LspLocationsResult>)>;
    using SymbolsDone = std::function<void(Result<LspSymbolsResult>)>;
    // Each `done` runs once, on io, never from inside the call.
    void hover(const LspHoverParams& at, HoverDone done);
    void definition(const LspDefinitionParams& at, LocationsDone done);
    void references(const LspReferencesParams& at, LocationsDone done);
    void symbols(const LspSymbolsParams& params, SymbolsDone done);

    // The agent (after writing `rel`, or asking for its diagnostics): opens the file for its
    // server if it is not open, and calls `done` once the server published diagnostics for the
    // text it has now, when the server fails, or after the server's diagnostics_wait. At once
    // (still on io, after returning) when no server handles the file. Returns a handle for
    // cancel_wait.
    std::uint64_t await_diagnostics(const std::string& rel,
                                    std::function<void(LspFileReport)> done);
    void cancel_wait(std::uint64_t handle);
    Severity agent_severity() const { return config_.agent_severity; }

private:
    // Why an entry is never started while it is so.
    enum class Held {
        no,
        project_file, // a project's .rio/lsp.json entry the user has not trusted
        project,      // any entry, in a project the user has not trusted (decision 0071)
    };
    struct Entry {
        LspServerConfig config;
        bool found = false; // its program is on PATH
        Held held = Held::no;
        std::unique_ptr<LspServer> server;
    };
    // The built-in servers and the user's lsp.json, with what is wrong in the file.
    LspConfig user_config() const;
    struct Stored {
        std::string server;
        std::vector<DiagnosticInfo> list;
    };
    struct Waiter {
        std::string rel, uri, server;
        std::int64_t version = 0;
        std::function<void(LspFileReport)> done;
        std::unique_ptr<asio::steady_timer> timer;
    };

    void observe(const CoreEvent& event);
    void on_buffer(const BufferChangedEvent& event);
    void on_files(const std::vector<std::string>& paths);
    void project_changed();

    Entry* entry_for(std::string_view rel);
    LspServer* ensure_server(Entry& entry);
    // The server for `rel` with the file open in it (from its buffer, else the disk), or why not.
    Result<LspServer*> open_for_query(const std::string& rel);
    std::string uri_of(const std::string& rel) const;
    void position_request(const std::string& method, const std::string& path, std::uint64_t line,
                          std::uint64_t column,
                          std::function<void(Result<nlohmann::json>, LspServer*)> then,
                          std::function<void(Error)> failed);
    // definition and references: a position in, the places the server names out.
    void locations_request(const std::string& method, const std::string& path, std::uint64_t line,
                           std::uint64_t column, LocationsDone done);

    void published(Entry& entry, const LspPublished& published);
    std::size_t files_kept(const std::string& server) const; // files with diagnostics kept
    // rio's place for an LSP location: the path as rio names it and positions in bytes.
    std::optional<SourceLocation> locate(LspServer& server, const std::string& uri,
                                         const LspRange& range);
    // Runs `use` on the text a server's positions in `uri` are about: the document it has
    // open (with the lines kept in step), else the file (its buffer, else the disk).
    void with_lines(LspServer& server, const std::string& uri, const std::filesystem::path& file,
                    const std::function<void(const LineIndex&)>& use);
    std::string text_of(const std::filesystem::path& file);
    void settle_later(const Entry& entry, const std::string& uri,
                      std::optional<std::int64_t> version);
    void finish_waits(const std::string& uri, const std::string& server,
                      std::optional<std::int64_t> version);
    void fail_waits(const Entry& entry);
    void finish_wait(std::uint64_t id, LspFileReport report);

    LspServerInfo info_of(const Entry& entry) const;
    LspListResult snapshot() const;
    void changed();
    void flush_diagnostics();

    asio::io_context& io_;
    UserDirs dirs_;
    const Workspace& workspace_;
    Emit emit_;
    LspConfig config_;
    std::vector<Entry> entries_;
    std::optional<std::filesystem::path> root_;    // the project the servers run for
    std::map<std::string, Stored> diagnostics_;    // by rio's path
    std::map<std::string, std::int64_t> reported_; // by URI: the version last published for
    // By URI: a server that publishes in passes has not been quiet for its settle time yet.
    std::map<std::string, std::unique_ptr<asio::steady_timer>> settling_;
    std::set<std::string> unsent_; // paths whose lsp.diagnostics is due
    bool flush_posted_ = false;
    std::map<std::uint64_t, Waiter> waits_;
    std::uint64_t next_wait_ = 1;
    LspListResult announced_;
    bool first_list_ = true;
    bool shut_down_ = false;
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

} // namespace rio
