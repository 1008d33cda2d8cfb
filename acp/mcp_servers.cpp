#include "acp/mcp_servers.hpp"

namespace rio::acp {
namespace {

using Json = nlohmann::json;

struct Entry {
    const Json& json;
    std::string at; // "mcpServers[2]"
    McpServersError& error;

    bool refuse(const std::string& field, const std::string& why) {
        error.field = at + "." + field;
        error.message = error.field + " " + why;
        return false;
    }

    // A required non-empty string.
    bool text(const char* field, const std::string& what, std::string& out) {
        auto it = json.find(field);
        if (it == json.end() || it->is_null())
            return refuse(field, "is required: " + what);
        if (!it->is_string() || it->get_ref<const std::string&>().empty())
            return refuse(field, "must be a non-empty string: " + what);
        out = it->get<std::string>();
        return true;
    }

    // Absent or null: none. Else an array of strings.
    bool strings(const char* field, Json& out) {
        out = Json::array();
        auto it = json.find(field);
        if (it == json.end() || it->is_null()) return true;
        if (!it->is_array()) return refuse(field, "must be an array of strings");
        for (std::size_t i = 0; i < it->size(); ++i) {
            if (!(*it)[i].is_string())
                return refuse(std::string(field) + "[" + std::to_string(i) + "]",
                              "must be a string");
            out.push_back((*it)[i]);
        }
        return true;
    }

    // Absent or null: none. Else [{name, value}] → {name: value}.
    bool name_values(const char* field, Json& out) {
        out = Json::object();
        auto it = json.find(field);
        if (it == json.end() || it->is_null()) return true;
        if (!it->is_array()) return refuse(field, "must be an array of {name, value}");
        for (std::size_t i = 0; i < it->size(); ++i) {
            const Json& pair = (*it)[i];
            std::string item = std::string(field) + "[" + std::to_string(i) + "]";
            if (!pair.is_object()) return refuse(item, "must be an object {name, value}");
            for (const char* key : {"name", "value"})
                if (!pair.contains(key) || !pair[key].is_string())
                    return refuse(item + "." + key, "must be a string");
            out[pair["name"].get<std::string>()] = pair["value"];
        }
        return true;
    }
};

} // namespace

Json mcp_servers_of(const Json& list, McpServersError& error) {
    Json servers = Json::object();
    for (std::size_t i = 0; i < list.size(); ++i) {
        Entry entry{list[i], "mcpServers[" + std::to_string(i) + "]", error};
        if (!entry.json.is_object()) {
            error.field = entry.at;
            error.message = entry.at + " must be an object";
            return Json::object();
        }
        std::string name;
        if (!entry.text("name", "the server's name", name)) return Json::object();
        if (servers.contains(name)) {
            entry.refuse("name", "'" + name + "' names an earlier server too");
            return Json::object();
        }
        auto type_it = entry.json.find("type");
        std::string type = type_it == entry.json.end() || type_it->is_null()
                               ? "stdio"
                               : type_it->is_string() ? type_it->get<std::string>() : "";
        Json server = Json::object();
        bool fits = true;
        if (type == "http") {
            std::string url;
            Json headers;
            fits = entry.text("url", "an HTTP server needs its URL", url) &&
                   entry.name_values("headers", headers);
            server = {{"type", "http"}, {"url", url}, {"headers", headers}};
        } else if (type == "stdio") {
            std::string command;
            Json args, env;
            fits = entry.text("command", "a stdio server needs the program that starts it",
                              command) &&
                   entry.strings("args", args) && entry.name_values("env", env);
            server = {{"command", command}, {"args", args}, {"env", env}};
        } else if (type == "sse") {
            fits = entry.refuse("type", "\"sse\" is not offered (mcpCapabilities says http only)");
        } else {
            fits = entry.refuse("type", "must be \"http\", \"sse\" or absent (stdio)");
        }
        if (!fits) return Json::object();
        servers[name] = std::move(server);
    }
    return servers;
}

} // namespace rio::acp
