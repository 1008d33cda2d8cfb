#include "host/store/trust_store.hpp"

#include "core/agent/allow_list.hpp"
#include "core/sha256.hpp"
#include "host/files/json_file.hpp"
#include "host/files/project_files.hpp"
#include "protocol/json_parse.hpp"

namespace rio {
namespace {

using Json = nlohmann::json;

std::filesystem::path trust_file(const UserDirs& dirs) {
    return dirs.config / "trust.json";
}

std::string quoted_rule(const AllowRule& rule) {
    std::string out;
    for (const std::string& word : rule)
        out += (out.empty() ? "" : " ") + word;
    return "`" + out + "`";
}

// The recorded hashes of this project's files, by path.
Json recorded(const UserDirs& dirs, const std::filesystem::path& root) {
    auto store = load_json_file(trust_file(dirs));
    if (!store || !store->contains("projects") || !(*store)["projects"].is_object()) return {};
    const Json& projects = (*store)["projects"];
    auto it = projects.find(root.string());
    if (it == projects.end() || !it->is_object() || !it->contains("files")) return {};
    return (*it)["files"];
}

} // namespace

std::string power_summary(std::string_view path, std::string_view bytes) {
    if (path == ".rio/allow") {
        std::string rules;
        for (const AllowRule& rule : parse_allow_rules(bytes))
            rules += (rules.empty() ? "" : ", ") + quoted_rule(rule);
        return rules.empty() ? "no commands" : "run " + rules + " without asking";
    }
    auto config = parse_json(bytes, {.jsonc = true});
    if (path == ".rio/lsp.json") {
        if (!config || !config->is_object() || !config->contains("servers") ||
            !(*config)["servers"].is_object())
            return "no language servers it can start";
        std::string servers;
        for (const auto& [name, server] : (*config)["servers"].items()) {
            std::string what;
            if (server.is_object() && server.contains("command") && server["command"].is_string())
                what = " (" + server["command"].get<std::string>() + ")";
            servers += (servers.empty() ? "" : ", ") + name + what;
        }
        return servers.empty() ? "no language servers it can start"
                               : "start language servers " + servers;
    }
    if (!config || !config->is_object() || !config->contains("mcpServers") ||
        !(*config)["mcpServers"].is_object())
        return "no MCP servers it can start";
    std::string servers;
    for (const auto& [name, server] : (*config)["mcpServers"].items()) {
        std::string what =
            server.is_object() && server.contains("command") && server["command"].is_string()
                ? server["command"].get<std::string>()
            : server.is_object() ? server.value("url", Json("?")).dump()
                                 : "?";
        servers += (servers.empty() ? "" : ", ") + name + " (" + what + ")";
    }
    return servers.empty() ? "no MCP servers it can start" : "start MCP servers " + servers;
}

ProjectTrust project_trust(const UserDirs& dirs, const std::filesystem::path& root,
                           const std::vector<std::pair<std::string, std::string>>& contents) {
    ProjectTrust trust;
    Json known = recorded(dirs, root);
    for (const auto& [path, bytes] : contents) {
        PowerFile file{path, sha256_hex(bytes), false, power_summary(path, bytes), bytes};
        file.trusted = known.is_object() && known.value(path, Json()) == file.sha256;
        trust.trusted = trust.trusted && file.trusted;
        trust.files.push_back(std::move(file));
    }
    return trust;
}

ProjectTrust current_trust(const UserDirs& dirs, const Workspace& workspace) {
    std::vector<std::pair<std::string, std::string>> contents;
    if (workspace.dir)
        for (const char* rel : power_granting_files)
            if (auto path = confine(workspace.dir, rel))
                if (auto bytes = read_project_file(*path)) contents.emplace_back(rel, *bytes);
    return workspace.root ? project_trust(dirs, *workspace.root, contents) : ProjectTrust{};
}

std::optional<std::string> trusted_contents(const UserDirs& dirs, const Workspace& workspace,
                                            std::string_view path) {
    for (PowerFile& file : current_trust(dirs, workspace).files)
        if (file.path == path && file.trusted) return std::move(file.bytes);
    return std::nullopt;
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
