#include "host/mcp/mcp_config.hpp"

#include "protocol/json_parse.hpp"

#include <cctype>

namespace rio {
namespace {

using Json = nlohmann::json;

constexpr std::uint64_t max_timeout_s = 3600;

bool name_char(char c, bool first) {
    return c == '_' || std::isalpha(static_cast<unsigned char>(c)) ||
           (!first && std::isdigit(static_cast<unsigned char>(c)));
}

// Each field read from an entry goes through here, so every failure names the field.
struct EntryReader {
    const Json& entry;
    const EnvLookup& env;
    const Withheld& withheld;
    std::string& error;

    std::optional<std::string> text(const Json& value, const std::string& field) {
        if (!value.is_string()) {
            error = field + " must be a string";
            return std::nullopt;
        }
        std::string why;
        auto expanded = expand_variables(value.get<std::string>(), env, why, withheld);
        if (!expanded) error = field + ": " + why;
        return expanded;
    }

    bool strings(const char* field, std::vector<std::string>& out) {
        auto it = entry.find(field);
        if (it == entry.end()) return true;
        if (!it->is_array()) {
            error.assign(field).append(" must be an array of strings");
            return false;
        }
        for (const Json& item : *it) {
            auto value = text(item, field);
            if (!value) return false;
            out.push_back(std::move(*value));
        }
        return true;
    }

    bool pairs(const char* field, NameValues& out) {
        auto it = entry.find(field);
        if (it == entry.end()) return true;
        if (!it->is_object()) {
            error.assign(field).append(" must be an object of strings");
            return false;
        }
        for (const auto& [name, item] : it->items()) {
            auto value = text(item, std::string(field) + "." + name);
            if (!value) return false;
            out.emplace_back(name, std::move(*value));
        }
        return true;
    }
};

void read_rio_options(const Json& entry, McpServerConfig& server) {
    auto it = entry.find("rio");
    if (it == entry.end()) return;
    if (!it->is_object()) {
        server.error = "rio must be an object, e.g. {\"plan\": true}";
        return;
    }
    if (auto plan = it->find("plan"); plan != it->end()) {
        if (!plan->is_boolean()) {
            server.error = "rio.plan must be true or false";
            return;
        }
        server.plan = plan->get<bool>();
    }
    if (auto timeout = it->find("timeout_s"); timeout != it->end()) {
        if (!timeout->is_number_unsigned() || timeout->get<std::uint64_t>() == 0 ||
            timeout->get<std::uint64_t>() > max_timeout_s) {
            server.error = "rio.timeout_s must be a whole number of seconds from 1 to 3600";
            return;
        }
        server.timeout = std::chrono::seconds(timeout->get<std::uint64_t>());
    }
}

McpServerConfig read_entry(const std::string& name, const Json& entry, std::string_view source,
                           const EnvLookup& env, const Withheld& withheld) {
    McpServerConfig server;
    server.name = name;
    server.source = std::string(source);
    if (!entry.is_object()) {
        server.error = "the entry must be an object with a command or a url";
        return server;
    }
    read_rio_options(entry, server);
    if (!server.error.empty()) return server;
    std::string type = entry.value("type", Json("stdio")).is_string()
                           ? entry.value("type", std::string("stdio"))
                           : std::string("?");
    EntryReader read{entry, env, withheld, server.error};
    if (type == "http") {
        server.http = true;
        auto url = entry.find("url");
        if (url == entry.end()) {
            server.error = "an http server needs a url";
            return server;
        }
        if (auto value = read.text(*url, "url")) server.url = *value;
        if (server.error.empty() && server.url.rfind("http://", 0) != 0 &&
            server.url.rfind("https://", 0) != 0)
            server.error = "url must start with http:// or https://";
        if (server.error.empty()) read.pairs("headers", server.headers);
        return server;
    }
    if (type == "sse") {
        server.error = "the old HTTP+SSE transport is not supported; use \"type\": \"http\"";
        return server;
    }
    if (type != "stdio") {
        server.error = "type must be \"stdio\" or \"http\"";
        return server;
    }
    auto command = entry.find("command");
    if (command == entry.end()) {
        server.error = "a stdio server needs a command";
        return server;
    }
    auto program = read.text(*command, "command");
    if (!program) return server;
    if (program->empty()) {
        server.error = "command is empty";
        return server;
    }
    server.argv.push_back(std::move(*program));
    if (read.strings("args", server.argv)) read.pairs("env", server.env);
    return server;
}

} // namespace

std::optional<std::string> expand_variables(std::string_view text, const EnvLookup& env,
                                            std::string& error, const Withheld& withheld) {
    std::string out;
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t open = text.find("${", at);
        if (open == std::string_view::npos) break;
        out.append(text.substr(at, open - at));
        std::size_t close = text.find('}', open + 2);
        std::size_t i = open + 2;
        while (i < text.size() && name_char(text[i], i == open + 2))
            ++i;
        bool named = i > open + 2 && close != std::string_view::npos;
        bool plain = named && i == close;
        bool with_default = named && text.substr(i, 2) == ":-" && i + 2 <= close;
        if (!plain && !with_default) { // not ours to expand: keep it as written
            out.append(text.substr(open, 2));
            at = open + 2;
            continue;
        }
        std::string name(text.substr(open + 2, i - open - 2));
        if (withheld && withheld(name)) {
            error = "${" + name +
                    "} is not given to a project's servers (it is a provider key or rio's own "
                    "variable); a server that needs it belongs in your own mcp.json";
            return std::nullopt;
        }
        std::optional<std::string> value = env(name);
        if (!value && with_default) value = std::string(text.substr(i + 2, close - i - 2));
        if (!value) {
            error = "${" + name + "} is not set and has no default (write ${" + name +
                    ":-value} for one)";
            return std::nullopt;
        }
        out += *value;
        at = close + 1;
    }
    if (at < text.size()) out.append(text.substr(at));
    return out;
}

McpConfigFile parse_mcp_config(std::string_view text, std::string_view source, const EnvLookup& env,
                               const Withheld& withheld) {
    McpConfigFile file;
    auto json = parse_json(text, {.jsonc = true});
    if (!json) {
        file.error = json.error().message;
        return file;
    }
    if (!json->is_object()) {
        file.error = "the file must hold an object with an \"mcpServers\" object";
        return file;
    }
    auto servers = json->find("mcpServers");
    if (servers == json->end()) return file; // nothing configured
    if (!servers->is_object()) {
        file.error = "\"mcpServers\" must be an object: {\"name\": {\"command\": …}}";
        return file;
    }
    for (const auto& [name, entry] : servers->items()) {
        McpServerConfig server = read_entry(name, entry, source, env, withheld);
        if (server.error.empty() && name.empty()) server.error = "a server needs a name";
        file.servers.push_back(std::move(server));
    }
    return file;
}

std::string mcp_tool_name(std::string_view server, std::string_view tool) {
    std::string name = "mcp__" + std::string(server) + "__" + std::string(tool);
    for (char& c : name)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')) c = '_';
    return name;
}

} // namespace rio
