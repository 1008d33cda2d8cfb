#include "acp/mcp_servers.hpp"

namespace rio::acp {
namespace {

using Json = nlohmann::json;

// [{name, value}] → {name: value}.
bool name_values(const Json& entry, const char* field, Json& out, std::string& error) {
    auto it = entry.find(field);
    if (it == entry.end()) return true;
    if (!it->is_array()) {
        error = std::string(field) + " must be an array of {name, value}";
        return false;
    }
    for (const Json& pair : *it) {
        if (!pair.is_object() || !pair.value("name", Json()).is_string() ||
            !pair.value("value", Json()).is_string()) {
            error = std::string(field) + " must be an array of {name, value}";
            return false;
        }
        out[pair["name"].get<std::string>()] = pair["value"];
    }
    return true;
}

} // namespace

Json mcp_servers_of(const Json& list, std::string& error) {
    Json servers = Json::object();
    for (const Json& entry : list) {
        std::string name = entry.is_object() && entry.value("name", Json()).is_string()
                               ? entry["name"].get<std::string>()
                               : std::string();
        if (name.empty()) {
            error = "every server needs a name";
            return Json::object();
        }
        std::string why;
        Json server = Json::object();
        std::string type = entry.value("type", Json("stdio")).is_string()
                               ? entry.value("type", std::string("stdio"))
                               : std::string("?");
        if (type == "http") {
            server["type"] = "http";
            server["url"] = entry.value("url", Json());
            Json headers = Json::object();
            if (name_values(entry, "headers", headers, why)) server["headers"] = headers;
        } else if (type == "stdio") {
            server["command"] = entry.value("command", Json());
            server["args"] = entry.value("args", Json::array());
            Json env = Json::object();
            if (name_values(entry, "env", env, why)) server["env"] = env;
        } else {
            why = "type " + type + " is not offered (mcpCapabilities says http only)";
        }
        if (!why.empty()) {
            error = name + ": " + why;
            return Json::object();
        }
        servers[name] = std::move(server);
    }
    return servers;
}

} // namespace rio::acp
