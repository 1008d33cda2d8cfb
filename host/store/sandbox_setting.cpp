#include "host/store/sandbox_setting.hpp"

#include "host/files/json_file.hpp"
#include "host/proxy/host_rules.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace rio {
namespace {

// A count: a non-negative integer.
std::optional<std::uint64_t> count_of(const nlohmann::json& value) {
    if (value.is_number_unsigned()) return value.get<std::uint64_t>();
    if (value.is_number_integer() && value.get<std::int64_t>() > 0)
        return static_cast<std::uint64_t>(value.get<std::int64_t>());
    return std::nullopt;
}

} // namespace

std::optional<std::uint64_t> size_in_bytes(const nlohmann::json& value) {
    if (!value.is_string()) return count_of(value);
    const std::string text = value.get<std::string>();
    double number = 0;
    int used = 0;
    if (std::sscanf(text.c_str(), "%lf%n", &number, &used) != 1 || number < 0) return std::nullopt;
    std::string unit;
    for (char c : text.substr(static_cast<std::size_t>(used)))
        if (!std::isspace(static_cast<unsigned char>(c)))
            unit += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    // Binary units whichever way they are written: memory and tmpfs sizes are in pages.
    double scale = 0;
    if (unit.empty() || unit == "b")
        scale = 1;
    else if (unit == "k" || unit == "kb" || unit == "kib")
        scale = 1024.0;
    else if (unit == "m" || unit == "mb" || unit == "mib")
        scale = 1024.0 * 1024;
    else if (unit == "g" || unit == "gb" || unit == "gib")
        scale = 1024.0 * 1024 * 1024;
    else if (unit == "t" || unit == "tb" || unit == "tib")
        scale = 1024.0 * 1024 * 1024 * 1024;
    else
        return std::nullopt;
    return static_cast<std::uint64_t>(std::llround(number * scale));
}

SandboxLimits sandbox_limits(const SandboxSetting& setting) {
    SandboxLimits limits;
    if (setting.memory) limits.memory = setting.memory;
    if (setting.processes) limits.processes = setting.processes;
    if (setting.tmpdir_bytes) limits.tmpdir_bytes = setting.tmpdir_bytes;
    if (setting.tmpdir_files) limits.tmpdir_files = setting.tmpdir_files;
    return limits;
}

SandboxSetting configured_sandbox(const UserDirs& dirs) {
    const std::filesystem::path file = dirs.settings_file();
    SandboxSetting setting;
    auto config = load_json_file(file);
    if (!config) {
        setting.warning = config.error().message + "; commands stay sandboxed";
        return setting;
    }
    if (!config->is_object()) return setting;
    auto chosen = config->find("sandbox");
    if (chosen == config->end()) return setting;
    if (chosen->is_boolean()) {
        setting.on = chosen->get<bool>();
        return setting;
    }
    if (!chosen->is_object()) {
        setting.warning = file.string() + ": sandbox must be true, false or an object, not " +
                          chosen->dump() + "; commands stay sandboxed";
        return setting;
    }
    auto complain = [&](const std::string& what) {
        setting.warning +=
            (setting.warning.empty() ? "" : "; ") + file.string() + ": sandbox." + what;
    };
    if (auto it = chosen->find("namespace"); it != chosen->end()) {
        if (it->is_boolean())
            setting.namespaces = it->get<bool>();
        else
            complain("namespace must be true or false, not " + it->dump() + "; it is not used");
    }
    const struct {
        const char* key;
        std::uint64_t SandboxSetting::*field;
        bool size;
    } limits[] = {{"memory", &SandboxSetting::memory, true},
                  {"processes", &SandboxSetting::processes, false},
                  {"tmpdir_size", &SandboxSetting::tmpdir_bytes, true},
                  {"tmpdir_files", &SandboxSetting::tmpdir_files, false}};
    if (auto it = chosen->find("hosts"); it != chosen->end()) {
        if (!it->is_array())
            complain("hosts must be an array of host names, not " + it->dump() +
                     "; no host is allowed by it");
        else
            for (const nlohmann::json& entry : *it) {
                auto rule =
                    entry.is_string()
                        ? read_host_rule(entry.get<std::string>())
                        : Result<HostRule>(make_error(ErrorCode::bad_request, "not a string"));
                if (!rule)
                    complain("hosts: " + entry.dump() + " is left out: " + rule.error().message);
                else if (std::string host = to_string(*rule);
                         std::find(setting.hosts.begin(), setting.hosts.end(), host) ==
                         setting.hosts.end())
                    setting.hosts.push_back(std::move(host));
            }
    }
    for (const auto& limit : limits) {
        auto it = chosen->find(limit.key);
        if (it == chosen->end()) continue;
        std::optional<std::uint64_t> value = limit.size ? size_in_bytes(*it) : count_of(*it);
        if (value && *value > 0)
            setting.*limit.field = *value;
        else
            complain(
                std::string(limit.key) + " must be " +
                (limit.size ? "a size (\"2 GiB\", \"512 MiB\" or bytes)" : "a positive count") +
                ", not " + it->dump() + "; the default applies");
    }
    return setting;
}

Status standing_hosts_problem(const UserDirs& dirs) {
    const std::filesystem::path file = dirs.settings_file();
    auto config = load_json_file(file);
    if (!config) return config.error();
    if (auto it = config->find("sandbox");
        it != config->end() && it->is_boolean() && !it->get<bool>())
        return make_error(ErrorCode::refused, "the sandbox is turned off in " + file.string() +
                                                  ": a standing host would mean nothing");
    return Ok{};
}

Status keep_standing_hosts(const UserDirs& dirs, const std::vector<std::string>& hosts) {
    if (Status problem = standing_hosts_problem(dirs); !problem) return problem;
    const std::filesystem::path file = dirs.settings_file();
    auto config = load_json_file(file);
    if (!config) return config.error();
    nlohmann::json& sandbox = (*config)["sandbox"];
    if (!sandbox.is_object()) sandbox = nlohmann::json::object();
    nlohmann::json& kept = sandbox["hosts"];
    if (!kept.is_array()) kept = nlohmann::json::array();
    for (const std::string& host : hosts)
        if (std::find(kept.begin(), kept.end(), host) == kept.end()) kept.push_back(host);
    return save_json_file(file, *config);
}

} // namespace rio
