// The MCP servers of this core (DESIGN §16): the user's ($XDG_CONFIG_HOME/rio/mcp.json), the
// open project's (.mcp.json, started only while the user trusts it as it is, §12) and an
// editor's (ACP session/new). Starts what is configured, stops what went, lists their state,
// offers their tools as mcp__<server>__<tool>, and routes the agent's calls to them.
#pragma once

#include "core/agent/tools.hpp"
#include "core/workspace.hpp"
#include "host/mcp/mcp_client.hpp"
#include "io/user_dirs.hpp"
#include "protocol/messages.hpp"
#include "protocol/core_event.hpp"

#include <asio/io_context.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rio {

class McpServers {
public:
    // `emit` carries mcp.changed; `tools_changed` tells the agent its tool set changed.
    // `key_variables`: the provider keys' variables, which a project's .mcp.json may not use.
    McpServers(asio::io_context& io, HttpClient& http, UserDirs dirs, const Workspace& workspace,
               Emit emit, std::vector<std::string> key_variables = {});

    void on_tools_changed(std::function<void()> f) { tools_changed_ = std::move(f); }

    // Reads the files again (at start, when the project or its trust changed): servers that
    // are new or configured differently start, those no longer configured stop.
    void reload();
    // The user's stdio servers that start in the open project once it is trusted (decision
    // 0071), from their mcp.json as it is now.
    std::vector<std::string> waiting_for_trust() const;
    // mcp.editor.set: an object in the files' `mcpServers` shape; bad_request when it is not.
    Result<McpListResult> set_editor_servers(const nlohmann::json& servers);
    // not_found for a name no file configures.
    Result<McpListResult> restart(const std::string& name);
    void shutdown();

    // As last announced (mcp.changed), which is when the agent's tools were last updated: a
    // client that sees a server ready finds its tools offered.
    const McpListResult& list() const { return announced_; }
    // Every ready server's tools, kinds decided by the server's claim and the user's "plan".
    std::vector<ToolSpec> tool_specs() const;

    struct Target {
        McpClient* client = nullptr;
        std::string server, tool; // the tool's own name on its server
    };
    std::optional<Target> find(std::string_view exposed_name) const;
    // A call's `done` never runs; nothing happens if the server went meanwhile.
    void cancel(const std::string& server, std::uint64_t handle);

private:
    struct Entry {
        McpServerConfig config;
        // A project's server the user has not trusted, or a stdio server of the user's in a
        // project nobody trusted (decision 0071): never started.
        bool untrusted = false;
        std::unique_ptr<McpClient> client;
    };
    static std::string held_words(const Entry& entry);
    std::vector<McpServerConfig> configured(std::vector<std::string>& problems,
                                            std::vector<McpServerConfig>& untrusted) const;
    void apply(std::vector<McpServerConfig> wanted, std::vector<McpServerConfig> untrusted);
    std::unique_ptr<McpClient> make_client(const McpServerConfig& config);
    McpListResult snapshot() const;
    void changed();

    asio::io_context& io_;
    HttpClient& http_;
    UserDirs dirs_;
    const Workspace& workspace_;
    Emit emit_;
    std::vector<std::string> key_variables_;
    std::function<void()> tools_changed_;
    std::vector<McpServerConfig> editor_;
    std::vector<Entry> entries_;
    std::vector<std::string> problems_; // files that could not be read, in words
    McpListResult announced_;
    std::optional<std::filesystem::path> roots_of_; // the project the servers last heard of
    bool shut_down_ = false;
};

} // namespace rio
