// One language server, as rio's client of it (DESIGN §21): started through rio's process
// code (host/piped_process: no shell, its own process group, only a few of rio's variables),
// initialize → initialized → ready; requests with a timeout, answered through typed
// callbacks; the server's own requests (workspace/configuration, progress, capability
// registration, …) answered. It mirrors the text of every document it has open, so changes
// go out as ranges in the server's positions and its answers convert against the text they
// were about. Changes go out once typing pauses (the entry's change_delay), and before
// anything that needs the server to have the newest text: a request, didSave, a wait for
// diagnostics (flush). Typing never waits on the server. A server that exits, breaks the framing,
// sends something that is not JSON-RPC or does not answer initialize in time is `failed` with the
// reason in words; every request waiting on it gets that reason. Nothing here blocks: all of it
// runs on io.
#pragma once

#include "host/lsp/lsp_changes.hpp"
#include "host/lsp/lsp_config.hpp"
#include "host/lsp/lsp_protocol.hpp"
#include "host/lsp/lsp_wire.hpp"
#include "jsonrpc/json_rpc.hpp"
#include "protocol/error.hpp"

#include <asio/io_context.hpp>
#include <asio/steady_timer.hpp>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace rio {

class PipedProcess;

struct LspDocument {
    std::string rel;          // project-relative
    std::string language;     // languageId
    std::string text;         // the newest: the server's once `changes` went out
    std::int64_t version = 0; // of `text`
    bool buffer = false;   // mirrors a core buffer; else the file on disk (the agent's, a query's)
    LineTable lines;       // of `text`
    std::int64_t sent = 0; // the version the server has
    LspChanges changes;    // made since, not sent yet
};

class LspServer {
public:
    struct Handlers {
        std::function<void()> changed; // state or error; posted, never inside a call
        std::function<void(const LspPublished&)> published; // on io
    };
    LspServer(asio::io_context& io, LspServerConfig config, std::filesystem::path root,
              Handlers handlers);
    ~LspServer();
    LspServer(const LspServer&) = delete;
    LspServer& operator=(const LspServer&) = delete;

    void start(); // (again, after a failure or stop: lsp.restart)
    void stop();

    const LspServerConfig& config() const { return config_; }
    ServerState state() const { return state_; }
    const std::string& error() const { return error_; } // failed: why; ready: the last problem
    std::string stderr_tail() const;
    const LspCapabilities& capabilities() const { return capabilities_; }
    pid_t pid() const;

    // Documents: kept while the server is down and opened again when it is ready.
    const LspDocument* document(const std::string& uri) const;
    const std::map<std::string, LspDocument>& documents() const { return documents_; }
    // `buffer`: the text mirrors a core buffer, else the file on disk.
    void open(const std::string& uri, std::string rel, std::string language, std::string text,
              bool buffer);
    // Bytes [start, end) of the text replaced by `text`; false when they do not fit it.
    bool change(const std::string& uri, std::size_t start, std::size_t end,
                const std::string& text);
    void replace(const std::string& uri, std::string text);
    void save(const std::string& uri);
    void close(const std::string& uri);
    // Sends the document's changes now (nothing when there are none or the server is not
    // ready; a server that starts gets the newest text with didOpen).
    void flush(const std::string& uri);

    using Answer = std::function<void(Result<nlohmann::json>)>;
    // `answer` runs once, on io, never from inside request(). While the server starts the
    // request waits for it. Returns a handle for cancel().
    std::uint64_t request(std::string method, nlohmann::json params, Answer answer);
    // The answer never runs; the server is told ($/cancelRequest).
    void cancel(std::uint64_t handle);

private:
    struct Pending {
        std::string method;
        Answer answer;
        std::unique_ptr<asio::steady_timer> timer;
    };
    struct Queued {
        std::uint64_t handle;
        std::string method;
        nlohmann::json params;
        Answer answer;
    };

    void send(const nlohmann::json& message);
    std::int64_t send_request(std::string method, nlohmann::json params, Answer answer,
                              std::chrono::milliseconds timeout);
    void on_bytes(std::string_view bytes);
    void on_message(const std::string& body);
    void on_response(const jsonrpc::Response& response);
    void on_server_request(const jsonrpc::Request& request);
    void on_notification(const jsonrpc::Request& note);
    void on_timeout(std::int64_t id);
    void initialized(const Result<nlohmann::json>& result);
    void send_open(const std::string& uri, LspDocument& doc);
    void send_changes(const std::string& uri, LspDocument& doc);
    void changes_made(); // arms the quiet-period timer
    void wait_quiet();
    void flush_all();
    void fail(std::string why);
    void exited(const std::string& why);
    void set(ServerState state, std::string error);
    void answer_all(const std::string& why);
    void notify_changed();
    nlohmann::json configuration(const nlohmann::json& params) const;

    asio::io_context& io_;
    LspServerConfig config_;
    std::filesystem::path root_;
    Handlers handlers_;
    std::shared_ptr<PipedProcess> process_;
    LspFramer framer_;
    ServerState state_ = ServerState::idle;
    std::string error_;
    std::string last_stderr_; // of the last run, once it ended
    LspCapabilities capabilities_;
    std::map<std::string, LspDocument> documents_; // by URI
    std::map<std::int64_t, Pending> pending_;
    std::vector<Queued> queued_; // asked while starting
    asio::steady_timer quiet_;   // fires when typing may have paused
    bool quiet_armed_ = false;
    std::chrono::steady_clock::time_point quiet_at_; // the last change + change_delay
    std::int64_t next_id_ = 1;
    std::uint64_t generation_ = 0; // bumped by start and stop: late callbacks of older runs
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

} // namespace rio
