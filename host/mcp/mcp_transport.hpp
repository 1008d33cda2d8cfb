// What carries one MCP server's JSON-RPC messages: stdio (a child process, one message per
// line) or Streamable HTTP. The client (host/mcp_client) is the same over both.
#pragma once

#include "host/mcp/mcp_config.hpp"
#include "protocol/error.hpp"

#include <asio/io_context.hpp>
#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <sys/types.h>

namespace rio {

class HttpClient;

struct McpTransportHandlers {
    std::function<void(std::string line)> on_message;
    std::function<void(std::string why)> on_closed; // once; "" when close() asked for it
};

class McpTransport {
public:
    virtual ~McpTransport() = default;
    virtual void send(const nlohmann::json& message) = 0;
    // Ends the server (stdio: its process tree). on_closed follows, with "".
    virtual void close() = 0;
    virtual pid_t pid() const = 0; // -1 when no local process carries it
};

// The server's program, started in `cwd` with only HOME, LOGNAME, PATH, SHELL, TERM and USER
// of rio's environment (as the SDK does: provider keys never reach it) plus its `env`.
// Destroying the transport forgets the handlers and ends the process.
Result<std::unique_ptr<McpTransport>> open_stdio_transport(asio::io_context& io,
                                                           const McpServerConfig& config,
                                                           const std::filesystem::path& cwd,
                                                           McpTransportHandlers handlers);

// Streamable HTTP at config.url with its headers, over rio's libcurl client.
std::unique_ptr<McpTransport> open_http_transport(HttpClient& http, const McpServerConfig& config,
                                                  McpTransportHandlers handlers);

} // namespace rio
