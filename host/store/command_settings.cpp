#include "host/store/command_settings.hpp"

#include "host/files/json_file.hpp"

namespace rio {
namespace {

std::filesystem::path below_home(const std::string& entry, const std::filesystem::path& home) {
    if (entry.starts_with("/")) return std::filesystem::path(entry).lexically_normal();
    if (home.empty()) return {};
    std::string rest = entry == "~" ? "" : entry.starts_with("~/") ? entry.substr(2) : entry;
    return (home / rest).lexically_normal();
}

// The strings of `key`'s array; anything else there is named in `warning`.
std::vector<std::string> strings_of(const nlohmann::json& config, const char* key,
                                    const std::filesystem::path& file, std::string& warning) {
    std::vector<std::string> out;
    auto it = config.find(key);
    if (it == config.end()) return out;
    auto complain = [&](const std::string& what) {
        warning += (warning.empty() ? "" : "; ") + file.string() + ": " + key + " " + what;
    };
    if (!it->is_array()) {
        complain("must be a list of strings, not " + it->dump() + "; it is not used");
        return out;
    }
    for (const nlohmann::json& entry : *it) {
        if (entry.is_string() && !entry.get<std::string>().empty())
            out.push_back(entry.get<std::string>());
        else
            complain("holds " + entry.dump() + ", which is not a name; it is not used");
    }
    return out;
}

} // namespace

CommandSettings configured_commands(const UserDirs& dirs, const std::filesystem::path& home) {
    CommandSettings settings;
    const std::filesystem::path file = dirs.settings_file();
    auto config = load_json_file(file);
    if (!config) {
        settings.warning = config.error().message;
        return settings;
    }
    if (!config->is_object()) return settings;
    for (const std::string& entry : strings_of(*config, "home_readable", file, settings.warning))
        if (auto path = below_home(entry, home); !path.empty())
            settings.home_readable.push_back(path);
    for (const std::string& entry : strings_of(*config, "home_unreadable", file, settings.warning))
        if (auto path = below_home(entry, home); !path.empty())
            settings.home_unreadable.push_back(path);
    settings.pass_env = strings_of(*config, "pass_env", file, settings.warning);
    if (auto it = config->find("check_timeout_s"); it != config->end()) {
        if (it->is_number_integer() && it->get<std::int64_t>() >= 1 &&
            it->get<std::int64_t>() <= 3600)
            settings.check_timeout = std::chrono::seconds(it->get<std::int64_t>());
        else
            settings.warning += (settings.warning.empty() ? "" : "; ") + file.string() +
                                ": check_timeout_s must be a whole number of seconds from 1 to "
                                "3600, not " +
                                it->dump() + "; checks time out after 300 s";
    }
    return settings;
}

} // namespace rio
