// ACP's session/new `mcpServers` ([{name, command, args, env: [{name, value}]}, {type: "http",
// name, url, headers: [{name, value}]}]) in the shape rio's config files and mcp.editor.set
// take: {NAME: {command, args, env: {…}} | {type: "http", url, headers: {…}}}.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace rio::acp {

// An object by server name; `error` names the first entry that does not fit, and why.
nlohmann::json mcp_servers_of(const nlohmann::json& list, std::string& error);

} // namespace rio::acp
