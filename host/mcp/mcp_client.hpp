// One MCP server, as rio's client of it (DESIGN §16): initialize → notifications/initialized
// → tools/list (every page) → ready; tools/call with a timeout and a progressToken, its
// notifications/progress passed on (each one restarts the timeout); tools listed again on
// notifications/tools/list_changed; roots/list answered with the open project. A server that exits,
// sends something that is not JSON-RPC, or does not answer the handshake in time is `failed` with
// the reason in words, and every call waiting on it gets that reason. Nothing here blocks: all of
// it runs on io.
#pragma once

#include "host/mcp/mcp_config.hpp"
#include "host/mcp/mcp_transport.hpp"
#include "host/mcp/mcp_wire.hpp"
#include "jsonrpc/json_rpc.hpp"
#include "protocol/closed_sets.hpp"

#include <asio/steady_timer.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rio {

class McpClient {
public:
    // `changed`: the state, the error or the tools changed. Called on io, never from inside
    // a call into the client. `roots`: what roots/list answers now.
    using Roots = std::function<nlohmann::json()>;
    McpClient(asio::io_context& io, HttpClient& http, McpServerConfig config,
              std::filesystem::path cwd, std::function<void()> changed, Roots roots);
    ~McpClient();
    McpClient(const McpClient&) = delete;
    McpClient& operator=(const McpClient&) = delete;

    void start(); // (again, after a failure or stop: mcp.restart)
    void stop();

    using CallDone = std::function<void(McpCallOutcome)>;
    using CallProgress = std::function<void(const McpProgress&)>;
    // `done` runs once, on io, never from inside call(); `progress` (may be empty) for each
    // notifications/progress before it. Returns a handle for cancel().
    std::uint64_t call(const std::string& tool, nlohmann::json arguments, CallDone done,
                       CallProgress progress = nullptr);
    // The open project changed: a server that is running hears notifications/roots/list_changed.
    void roots_changed();
    // The call's `done` never runs; the server is told (notifications/cancelled).
    void cancel(std::uint64_t handle);

    const McpServerConfig& config() const { return config_; }
    ServerState state() const { return state_; }
    const std::string& error() const { return error_; } // failed: why; ready: the last problem
    const std::vector<McpTool>& tools() const { return tools_; }
    pid_t pid() const { return transport_ ? transport_->pid() : -1; }

private:
    struct Pending {
        std::string what; // "initialize", "tools/list", the tool's name
        std::function<void(const jsonrpc::Response&)> done;
        std::unique_ptr<asio::steady_timer> timer;
        std::function<void(const McpProgress&)> progress;
    };

    std::int64_t request(std::string method, nlohmann::json params, std::string what,
                         std::function<void(const jsonrpc::Response&)> done);
    void on_line(const std::string& line);
    void on_response(const jsonrpc::Response& response, std::string_view line);
    void on_server_request(const jsonrpc::Request& request);
    void on_timeout(std::int64_t id);
    void wait_for_answer(std::int64_t id, asio::steady_timer& timer);
    void on_progress(const McpProgress& progress);
    void initialized(const jsonrpc::Response& response);
    void list_tools(std::optional<std::string> cursor, std::vector<McpTool> so_far);
    void fail(std::string why);
    void closed(const std::string& why);
    void set(ServerState state, std::string error);
    void answer_all(const std::string& why);
    void notify_changed();

    asio::io_context& io_;
    HttpClient& http_;
    McpServerConfig config_;
    std::filesystem::path cwd_;
    std::function<void()> changed_;
    Roots roots_;
    std::unique_ptr<McpTransport> transport_;
    ServerState state_ = ServerState::stopped;
    std::string error_;
    std::vector<McpTool> tools_;
    std::map<std::int64_t, Pending> pending_;
    std::int64_t next_id_ = 1;
    std::uint64_t generation_ = 0; // bumped by start and stop: late callbacks of older runs
    bool listing_ = false, list_again_ = false;
    bool roots_changed_ = false; // while starting: tell the server once it is ready
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

} // namespace rio
