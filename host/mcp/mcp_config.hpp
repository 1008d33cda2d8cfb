// Which MCP servers to start (DESIGN §16), from files in Claude Code's shape:
// {"mcpServers": {NAME: {command, args, env} | {type: "http", url, headers}}}, plus rio's own
// per-server {"rio": {"plan": true, "timeout_s": N}}. `${VAR}` and `${VAR:-default}` are
// expanded in command, args, env, url and headers, as Claude Code does (but for withheld
// variables); nothing else is.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rio {

using NameValues = std::vector<std::pair<std::string, std::string>>;

struct McpServerConfig {
    std::string name;
    std::string source; // "user", "project" or "editor" (ACP session/new)
    bool http = false;  // Streamable HTTP at `url`; else stdio: `argv`
    std::vector<std::string> argv;
    NameValues env;
    std::string url;
    NameValues headers;
    // The user admits the server's read-only tools (annotations.readOnlyHint) in plan mode.
    bool plan = false;
    std::chrono::seconds timeout{60}; // per request, initialize included
    std::string error;                // why this entry cannot be used; it is listed, never started
};

using EnvLookup = std::function<std::optional<std::string>(const std::string& name)>;

// Each server in the file, by name, errors per entry. A file that is not an
// object with an `mcpServers` object is one error, for the caller to report.
struct McpConfigFile {
    std::vector<McpServerConfig> servers;
    std::string error;
};
// Variables a file may not use at all, whatever their value (decision 0048): a project's
// .mcp.json never gets the provider keys or rio's own RIO_* variables into a server's
// command, arguments, environment, URL or headers.
using Withheld = std::function<bool(const std::string& name)>;

McpConfigFile parse_mcp_config(std::string_view text, std::string_view source, const EnvLookup& env,
                               const Withheld& withheld = {});

// `${NAME}` / `${NAME:-default}` replaced; an unset NAME without a default is an error
// naming it, and so is a withheld one. `$NAME` and anything malformed stay as written.
std::optional<std::string> expand_variables(std::string_view text, const EnvLookup& env,
                                            std::string& error, const Withheld& withheld = {});

// A tool's name as the model sees it: mcp__<server>__<tool>, with every character outside
// [A-Za-z0-9_-] made '_' (what providers accept in a tool name).
std::string mcp_tool_name(std::string_view server, std::string_view tool);

} // namespace rio
