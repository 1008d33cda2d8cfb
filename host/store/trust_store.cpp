#include "host/store/trust_store.hpp"

#include "core/agent/allow_list.hpp"
#include "core/sha256.hpp"
#include "host/files/files.hpp"
#include "host/files/json_file.hpp"
#include "host/files/project_files.hpp"
#include "protocol/json_parse.hpp"
#include "text/argv_text.hpp"

#include <algorithm>
#include <sys/stat.h>

namespace rio {
namespace {

using Json = nlohmann::json;

// A project's server configs name at most this many of its own files as programs to vouch for.
constexpr std::size_t max_server_files = 32;

std::filesystem::path trust_file(const UserDirs& dirs) {
    return dirs.config / "trust.json";
}

// The project's entry in trust.json: {files: {path: sha256}}, or null when it was never
// trusted (or trust was revoked).
Json recorded(const UserDirs& dirs, const std::filesystem::path& root) {
    auto store = load_json_file(trust_file(dirs));
    if (!store || !store->contains("projects") || !(*store)["projects"].is_object()) return {};
    const Json& projects = (*store)["projects"];
    auto it = projects.find(root.string());
    if (it == projects.end() || !it->is_object()) return {};
    return *it;
}

// Where a config file lists its servers: .mcp.json's "mcpServers", .rio/lsp.json's "servers".
const char* servers_key(std::string_view path) {
    return path == ".rio/lsp.json" ? "servers" : "mcpServers";
}

// The servers of a config file as written (nothing expanded): name and argv, for those that
// start a program.
std::vector<std::pair<std::string, std::vector<std::string>>>
server_commands(std::string_view path, std::string_view bytes) {
    std::vector<std::pair<std::string, std::vector<std::string>>> out;
    auto config = parse_json(bytes, {.jsonc = true});
    const char* key = servers_key(path);
    if (!config || !config->is_object() || !config->contains(key) || !(*config)[key].is_object())
        return out;
    for (const auto& [name, server] : (*config)[key].items()) {
        if (!server.is_object() || !server.contains("command") || !server["command"].is_string())
            continue;
        std::vector<std::string> argv{server["command"].get<std::string>()};
        if (server.contains("args") && server["args"].is_array())
            for (const Json& arg : server["args"])
                if (arg.is_string()) argv.push_back(arg.get<std::string>());
        out.emplace_back(name, std::move(argv));
    }
    return out;
}

// "srv (python3 tools/srv.py --port 3; env API_TOKEN, DEBUG)": everything a server would be
// started with but the values of its variables, which may be secrets written in the file.
std::string server_text(const std::string& name, const Json& server) {
    if (!server.is_object()) return name + " (?)";
    std::string what;
    if (server.contains("command") && server["command"].is_string()) {
        std::vector<std::string> argv{server["command"].get<std::string>()};
        if (server.contains("args") && server["args"].is_array())
            for (const Json& arg : server["args"])
                argv.push_back(arg.is_string() ? arg.get<std::string>() : arg.dump());
        what = argv_text(argv);
    } else {
        what = server.value("url", Json("?")).is_string() ? server.value("url", std::string("?"))
                                                          : std::string("?");
    }
    std::string names;
    for (const char* field : {"env", "headers"})
        if (server.contains(field) && server[field].is_object())
            for (const auto& [variable, value] : server[field].items())
                names +=
                    (names.empty() ? std::string("; ") + (field[0] == 'e' ? "env " : "headers ")
                                   : ", ") +
                    variable;
    return name + " (" + what + names + ")";
}

bool regular_file(const std::filesystem::path& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// The project's own files that its servers run as programs: a command or an argument that
// names a regular file inside the project (a script path), each with the server's words.
std::vector<std::pair<std::string, std::string>> server_programs(const Workspace& workspace) {
    std::vector<std::pair<std::string, std::string>> out;
    if (!workspace.dir) return out;
    for (const char* config_path : {".mcp.json", ".rio/lsp.json"}) {
        auto config = confine(workspace.dir, config_path);
        auto bytes = config ? read_project_file(*config) : Result<std::string>(config.error());
        if (!bytes) continue;
        const std::string kind =
            config_path == std::string_view(".mcp.json") ? "MCP server " : "language server ";
        for (const auto& [name, argv] : server_commands(config_path, *bytes))
            for (const std::string& word : argv) {
                if (word.empty() || word.starts_with('-') || word.find("${") != std::string::npos)
                    continue;
                auto file = confine(workspace.dir, word);
                if (!file || file->rel == "." || !regular_file(file->real)) continue;
                if (std::find(std::begin(power_granting_files), std::end(power_granting_files),
                              file->rel) != std::end(power_granting_files))
                    continue;
                if (std::any_of(out.begin(), out.end(),
                                [&](const auto& p) { return p.first == file->rel; }))
                    continue;
                if (out.size() == max_server_files) return out;
                out.emplace_back(file->rel, kind + name);
            }
    }
    return out;
}

} // namespace

std::string power_summary(std::string_view path, std::string_view bytes) {
    if (path == ".rio/allow") {
        std::string rules;
        for (const AllowRule& rule : parse_allow_rules(bytes))
            rules += (rules.empty() ? "" : ", ") + rule_text(rule);
        return rules.empty() ? "no commands" : "run " + rules + " without asking";
    }
    const bool lsp = path == ".rio/lsp.json";
    const std::string none =
        lsp ? "no language servers it can start" : "no MCP servers it can start";
    auto config = parse_json(bytes, {.jsonc = true});
    const char* key = servers_key(path);
    if (!config || !config->is_object() || !config->contains(key) || !(*config)[key].is_object())
        return none;
    std::string servers;
    for (const auto& [name, server] : (*config)[key].items())
        servers += (servers.empty() ? "" : ", ") + server_text(name, server);
    if (servers.empty()) return none;
    return (lsp ? "start language servers " : "start MCP servers ") + servers;
}

ProjectTrust project_trust(const UserDirs& dirs, const std::filesystem::path& root,
                           const std::vector<std::pair<std::string, std::string>>& contents) {
    Json entry = recorded(dirs, root);
    Json known = entry.is_object() ? entry.value("files", Json::object()) : Json();
    ProjectTrust trust;
    trust.trusted = entry.is_object();
    for (const auto& [path, bytes] : contents) {
        PowerFile file{path, sha256_hex(bytes), false, power_summary(path, bytes), bytes};
        file.trusted = known.is_object() && known.value(path, Json()) == file.sha256;
        trust.trusted = trust.trusted && file.trusted;
        trust.files.push_back(std::move(file));
    }
    return trust;
}

std::vector<std::string> power_paths(const Workspace& workspace) {
    std::vector<std::string> paths(std::begin(power_granting_files),
                                   std::end(power_granting_files));
    for (const auto& [rel, server] : server_programs(workspace))
        paths.push_back(rel);
    return paths;
}

ProjectTrust current_trust(const UserDirs& dirs, const Workspace& workspace) {
    if (!workspace.root || !workspace.dir) return ProjectTrust{true, {}};
    std::vector<std::pair<std::string, std::string>> contents;
    for (const char* rel : power_granting_files)
        if (auto path = confine(workspace.dir, rel))
            if (auto bytes = read_project_file(*path))
                contents.emplace_back(rel, std::move(*bytes));
    ProjectTrust trust = project_trust(dirs, *workspace.root, contents);
    // A program is read wherever its path leads inside the project.
    Json entry = recorded(dirs, *workspace.root);
    Json known = entry.is_object() ? entry.value("files", Json::object()) : Json();
    for (const auto& [rel, server] : server_programs(workspace)) {
        auto path = confine(workspace.dir, rel);
        auto bytes = path ? read_file(path->real, rel) : Result<std::string>(path.error());
        if (!bytes) continue;
        PowerFile file{rel, sha256_hex(*bytes), false, "run it as the " + server,
                       std::move(*bytes)};
        file.trusted = known.is_object() && known.value(rel, Json()) == file.sha256;
        trust.trusted = trust.trusted && file.trusted;
        trust.files.push_back(std::move(file));
    }
    return trust;
}

bool same_files(const ProjectTrust& now, const std::vector<ShownFile>& shown) {
    if (now.files.size() != shown.size()) return false;
    return std::all_of(now.files.begin(), now.files.end(), [&](const PowerFile& file) {
        return std::any_of(shown.begin(), shown.end(), [&](const ShownFile& seen) {
            return seen.path == file.path && seen.sha256 == file.sha256;
        });
    });
}

Status set_project_trust(const UserDirs& dirs, const std::filesystem::path& root,
                         const ProjectTrust& now, bool trust) {
    auto loaded = load_json_file(trust_file(dirs));
    // A broken trust.json trusts nothing; starting it afresh loses nothing that counted.
    Json store = loaded ? *loaded : Json::object();
    if (!store.contains("projects") || !store["projects"].is_object())
        store["projects"] = Json::object();
    if (trust) {
        Json files = Json::object();
        for (const PowerFile& f : now.files)
            files[f.path] = f.sha256;
        store["projects"][root.string()] = Json{{"files", files}};
    } else {
        store["projects"].erase(root.string());
    }
    store["version"] = 1;
    return save_json_file(trust_file(dirs), store);
}

} // namespace rio
