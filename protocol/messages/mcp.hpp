// MCP servers (DESIGN §16).
#pragma once

#include "protocol/messages/common.hpp"

namespace rio {

// MCP servers (DESIGN §16). A tool's kind is "read" when the server says it only reads and
// the user admitted the server's read-only tools in plan mode; otherwise "mcp": gated like a
// command and withheld in plan mode.
struct McpToolInfo {
    std::string name;    // as the model sees it: mcp__<server>__<tool>
    Wire<ToolKind> kind; // read, mcp

    bool is(ToolKind k) const { return kind == k; }
};
RIO_FIELDS(McpToolInfo, name, kind)

struct McpServerInfo {
    std::string name;
    std::string source;      // user, project, editor
    Wire<ServerState> state; // starting, ready, failed, stopped, untrusted
    std::optional<std::string> error;
    bool plan = false; // its read-only tools are admitted in plan mode
    std::vector<McpToolInfo> tools;
};
RIO_FIELDS(McpServerInfo, name, source, state, error, plan, tools)

struct McpListResult {
    std::vector<McpServerInfo> servers;
    std::vector<std::string> problems; // config files that could not be used, in words
};
RIO_FIELDS(McpListResult, servers, problems)

struct McpListParams : Empty {
    static constexpr std::string_view op = op::mcp_list;
    using Result = McpListResult;
};

// Stops the server if it runs and starts it again, reading the config files anew.
struct McpRestartParams {
    static constexpr std::string_view op = op::mcp_restart;
    using Result = McpListResult;
    std::string name;
};
RIO_FIELDS(McpRestartParams, name)

// The servers an editor brings (ACP session/new): `mcpServers` in the files' shape,
// replacing the ones it set before. Kept while the core runs; {} removes them.
struct McpEditorSetParams {
    static constexpr std::string_view op = op::mcp_editor_set;
    using Result = McpListResult;
    Json mcpServers = Json::object();
};
RIO_FIELDS(McpEditorSetParams, mcpServers)

// After any server's state, error or tools changed: the whole list, as mcp.list returns it.
struct McpChangedEvent : McpListResult {
    static constexpr std::string_view event = event::mcp_changed;
};

} // namespace rio
