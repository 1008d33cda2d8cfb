// The Model Context Protocol's values as rio's MCP client uses them (protocol revision
// 2025-11-25, the one @modelcontextprotocol/sdk publishes): the initialize handshake, roots,
// progress, a tools/list page, a tools/call result in the words the model reads. The messages
// carrying them are JSON-RPC 2.0 (jsonrpc/json_rpc). Pure: the client (host/mcp/mcp_client)
// does the I/O.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rio {

inline constexpr std::string_view mcp_protocol_version = "2025-11-25";
bool mcp_version_supported(std::string_view version);

// initialize's params. The one capability is `roots` (the open project, listChanged): no
// sampling and no elicitation, which would have a server drive the model or ask the person
// around the gate.
nlohmann::json mcp_initialize_params(std::string_view client_version);

// roots/list's result: the project folder as a file:// URI, or none.
nlohmann::json mcp_roots(const std::optional<std::filesystem::path>& project);

// notifications/progress for a request rio sent with a progressToken (its own request id).
struct McpProgress {
    std::int64_t token = 0;
    double progress = 0;
    std::optional<double> total;
    std::optional<std::string> message;
};
std::optional<McpProgress> parse_progress(const nlohmann::json& params);

struct McpTool {
    std::string name;
    std::string title;
    std::string description;
    nlohmann::json input_schema;
    bool read_only = false; // annotations.readOnlyHint, as the server claims
};
struct McpToolsPage {
    std::vector<McpTool> tools;
    std::optional<std::string> next_cursor;
    // Tools without a usable name or schema, or that run only as tasks (execution.taskSupport
    // "required": rio calls tools directly, which such a tool refuses), and why.
    std::vector<std::string> skipped;
};
// A tools/list result; nullopt with `why` when it is not one.
std::optional<McpToolsPage> parse_tools_page(const nlohmann::json& result, std::string& why);

struct McpCallOutcome {
    bool is_error = false;
    std::string text; // every content block in words: text as is, other kinds summarised
};
// A tools/call result. Images, audio and blobs are summarised ("[image: image/png, 1.2 KB]"),
// never passed on raw.
McpCallOutcome call_outcome(const nlohmann::json& result);

} // namespace rio
