#include "host/mcp/mcp_servers.hpp"

#include "host/files/files.hpp"
#include "host/store/secrets.hpp"
#include "host/store/trust_store.hpp"

#include <cstdlib>

namespace rio {
namespace {

using Json = nlohmann::json;

// Providers accept tool names of at most 64 characters.
constexpr std::size_t max_tool_name = 64;

bool same_config(const McpServerConfig& a, const McpServerConfig& b) {
    return a.source == b.source && a.http == b.http && a.argv == b.argv && a.env == b.env &&
           a.url == b.url && a.headers == b.headers && a.plan == b.plan && a.timeout == b.timeout &&
           a.error == b.error;
}

// The user's and the editor's files see the whole environment, the keys rio-core took out of
// its own included.
std::optional<std::string> env_lookup(const std::string& name) {
    if (auto key = key_variable(name)) return key;
    const char* value = std::getenv(name.c_str());
    return value ? std::optional<std::string>(value) : std::nullopt;
}

// Later sources replace earlier ones of the same name: user, then project, then editor.
void merge(std::vector<McpServerConfig>& into, std::vector<McpServerConfig> more) {
    for (McpServerConfig& server : more) {
        auto same = std::find_if(into.begin(), into.end(),
                                 [&](const McpServerConfig& s) { return s.name == server.name; });
        if (same != into.end())
            *same = std::move(server);
        else
            into.push_back(std::move(server));
    }
}

std::string tool_description(const McpServerConfig& config, const McpTool& tool) {
    std::string text = tool.description.empty() ? tool.title : tool.description;
    return "(MCP server \"" + config.name + "\", tool " + tool.name + ") " + text;
}

} // namespace

std::string McpServers::held_words(const Entry& entry) {
    if (entry.config.source == "project")
        return "comes from the project's .mcp.json, which is not trusted; trust it "
               "(project.trust.set) to start it";
    return "starts when you trust this project (project.trust.set): started here, it could run "
           "the project's own copy of its program";
}

std::vector<std::string> McpServers::waiting_for_trust() const {
    std::vector<std::string> problems;
    std::vector<McpServerConfig> untrusted;
    configured(problems, untrusted);
    std::vector<std::string> names;
    for (const McpServerConfig& server : untrusted)
        if (server.source == "user") names.push_back(server.name);
    return names;
}

McpServers::McpServers(asio::io_context& io, HttpClient& http, UserDirs dirs,
                       const Workspace& workspace, Emit emit,
                       std::vector<std::string> key_variables)
    : io_(io), http_(http), dirs_(std::move(dirs)), workspace_(workspace), emit_(std::move(emit)),
      key_variables_(std::move(key_variables)) {}

std::vector<McpServerConfig> McpServers::configured(std::vector<std::string>& problems,
                                                    std::vector<McpServerConfig>& untrusted) const {
    std::vector<McpServerConfig> servers;
    std::filesystem::path user = dirs_.config / "mcp.json";
    std::error_code ec;
    if (std::filesystem::exists(user, ec)) {
        auto text = read_file(user, user.string());
        if (!text) {
            problems.push_back(text.error().message);
        } else {
            McpConfigFile file = parse_mcp_config(*text, "user", env_lookup);
            if (!file.error.empty()) problems.push_back(user.string() + ": " + file.error);
            merge(servers, std::move(file.servers));
        }
    }
    if (workspace_.root) {
        // A project's servers start only while the project is trusted as it is now: its
        // .mcp.json and the programs it names unchanged (decision 0048). The user's own stdio
        // servers wait for trust too: started in the project, `npx x` or `python3 -m x` runs
        // the project's copy of x (decision 0071). An HTTP server runs nothing here.
        ProjectTrust trust = current_trust(dirs_, workspace_);
        if (!trust.trusted)
            for (auto it = servers.begin(); it != servers.end();) {
                if (it->http) {
                    ++it;
                    continue;
                }
                untrusted.push_back(std::move(*it));
                it = servers.erase(it);
            }
        auto withheld = [this](const std::string& name) {
            return name.starts_with("RIO_") ||
                   std::find(key_variables_.begin(), key_variables_.end(), name) !=
                       key_variables_.end();
        };
        for (const PowerFile& power : trust.files) {
            if (power.path != ".mcp.json") continue;
            McpConfigFile file = parse_mcp_config(power.bytes, "project", env_lookup, withheld);
            if (!file.error.empty()) problems.push_back(".mcp.json: " + file.error);
            if (trust.trusted)
                merge(servers, std::move(file.servers));
            else
                for (McpServerConfig& server : file.servers)
                    if (std::none_of(
                            untrusted.begin(), untrusted.end(),
                            [&](const McpServerConfig& u) { return u.name == server.name; }))
                        untrusted.push_back(std::move(server));
        }
    }
    merge(servers, editor_);
    return servers;
}

void McpServers::reload() {
    if (shut_down_) return;
    std::vector<std::string> problems;
    std::vector<McpServerConfig> untrusted;
    std::vector<McpServerConfig> wanted = configured(problems, untrusted);
    problems_ = std::move(problems);
    std::vector<const McpClient*> before;
    for (const Entry& entry : entries_)
        before.push_back(entry.client.get());
    apply(std::move(wanted), std::move(untrusted));
    // Servers that kept running across a change of project hear of their new root; those
    // started now ask for it.
    if (workspace_.root == roots_of_) return;
    roots_of_ = workspace_.root;
    for (Entry& entry : entries_)
        if (entry.client &&
            std::find(before.begin(), before.end(), entry.client.get()) != before.end())
            entry.client->roots_changed();
}

Result<McpListResult> McpServers::set_editor_servers(const Json& servers) {
    McpConfigFile file =
        parse_mcp_config(Json{{"mcpServers", servers}}.dump(), "editor", env_lookup);
    if (!file.error.empty()) return make_error(ErrorCode::bad_request, "params." + file.error);
    editor_ = std::move(file.servers);
    reload();
    return list();
}

void McpServers::apply(std::vector<McpServerConfig> wanted,
                       std::vector<McpServerConfig> untrusted) {
    std::vector<Entry> next;
    for (McpServerConfig& config : wanted) {
        auto old = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) {
            return e.client && e.config.name == config.name && same_config(e.config, config);
        });
        if (old != entries_.end()) {
            next.push_back(std::move(*old));
            continue;
        }
        Entry entry{config, false, make_client(config)};
        entry.client->start();
        next.push_back(std::move(entry));
    }
    for (McpServerConfig& config : untrusted) {
        bool shadowed = std::any_of(next.begin(), next.end(),
                                    [&](const Entry& e) { return e.config.name == config.name; });
        if (!shadowed) next.push_back(Entry{std::move(config), true, nullptr});
    }
    entries_ = std::move(next); // what is left in the old list stops with its client
    if (Json(snapshot()) != Json(announced_)) changed();
}

std::unique_ptr<McpClient> McpServers::make_client(const McpServerConfig& config) {
    std::filesystem::path cwd = workspace_.root ? *workspace_.root : dirs_.state;
    std::error_code ec;
    if (!workspace_.root) std::filesystem::create_directories(cwd, ec);
    return std::make_unique<McpClient>(
        io_, http_, config, cwd, [this] { changed(); },
        [this] { return mcp_roots(workspace_.root); });
}

Result<McpListResult> McpServers::restart(const std::string& name) {
    reload();
    auto it = std::find_if(entries_.begin(), entries_.end(),
                           [&](const Entry& e) { return e.config.name == name; });
    if (it == entries_.end())
        return make_error(ErrorCode::not_found, "no MCP server named '" + name + "' is configured");
    if (it->untrusted) return make_error(ErrorCode::refused, "'" + name + "' " + held_words(*it));
    it->client->start();
    changed();
    return list();
}

void McpServers::shutdown() {
    shut_down_ = true;
    entries_.clear();
}

McpListResult McpServers::snapshot() const {
    McpListResult result;
    for (const Entry& entry : entries_) {
        McpServerInfo info{entry.config.name, entry.config.source, ServerState::untrusted,
                           std::nullopt,      entry.config.plan,   {}};
        if (entry.untrusted) {
            info.error = held_words(entry);
        } else {
            info.state = entry.client->state();
            if (!entry.client->error().empty()) info.error = entry.client->error();
        }
        result.servers.push_back(std::move(info));
    }
    for (const ToolSpec& spec : tool_specs())
        if (auto target = find(spec.name))
            for (McpServerInfo& info : result.servers)
                if (info.name == target->server)
                    info.tools.push_back({spec.name, spec.kind});
    result.problems = problems_;
    return result;
}

std::vector<ToolSpec> McpServers::tool_specs() const {
    std::vector<ToolSpec> specs;
    for (const Entry& entry : entries_) {
        if (!entry.client || entry.client->state() != ServerState::ready) continue;
        for (const McpTool& tool : entry.client->tools()) {
            std::string name = mcp_tool_name(entry.config.name, tool.name);
            bool taken = std::any_of(specs.begin(), specs.end(),
                                     [&](const ToolSpec& s) { return s.name == name; });
            if (name.size() > max_tool_name || taken) continue;
            nlohmann::json schema = tool.input_schema;
            schema.erase("$schema");
            ToolKind kind = tool.read_only && entry.config.plan ? ToolKind::read : ToolKind::mcp;
            specs.push_back({name, kind, tool_description(entry.config, tool), std::move(schema)});
        }
    }
    return specs;
}

std::optional<McpServers::Target> McpServers::find(std::string_view exposed_name) const {
    for (const Entry& entry : entries_) {
        if (!entry.client) continue;
        for (const McpTool& tool : entry.client->tools())
            if (mcp_tool_name(entry.config.name, tool.name) == exposed_name)
                return Target{entry.client.get(), entry.config.name, tool.name};
    }
    return std::nullopt;
}

void McpServers::cancel(const std::string& server, std::uint64_t handle) {
    for (Entry& entry : entries_)
        if (entry.client && entry.config.name == server) entry.client->cancel(handle);
}

void McpServers::changed() {
    if (shut_down_) return;
    announced_ = snapshot();
    McpChangedEvent event;
    static_cast<McpListResult&>(event) = announced_;
    emit_event(emit_, event);
    if (tools_changed_) tools_changed_();
}

} // namespace rio
