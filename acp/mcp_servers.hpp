// ACP's session/new `mcpServers` ([{name, command, args, env: [{name, value}]}, {type: "http",
// name, url, headers: [{name, value}]}]) in the shape rio's config files and mcp.editor.set
// take: {NAME: {command, args, env: {…}} | {type: "http", url, headers: {…}}}. Each entry is
// checked against ACP's schema: `name` and `command` (or `url`) are required strings; `args`,
// `env` and `headers` may be absent or null (the schema's default-on-null), else arrays of
// the right shape.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace rio::acp {

struct McpServersError {
    std::string field;   // "mcpServers[1].command"; empty when every entry fits
    std::string message; // in words, naming the field
};

// An object by server name; `error` names the first entry that does not fit, and why.
nlohmann::json mcp_servers_of(const nlohmann::json& list, McpServersError& error);

} // namespace rio::acp
