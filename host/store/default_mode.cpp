#include "host/store/default_mode.hpp"

#include "host/files/json_file.hpp"

namespace rio {

StartMode configured_mode(const UserDirs& dirs) {
    const std::filesystem::path file = dirs.settings_file();
    auto config = load_json_file(file);
    if (!config) return {Mode::plan, config.error().message + "; starting in plan mode"};
    auto chosen = config->find("default_mode");
    if (chosen == config->end()) return {};
    if (chosen->is_string())
        if (auto mode = from_wire<Mode>(chosen->get<std::string>())) return {*mode, ""};
    return {Mode::plan, file.string() + ": default_mode must be \"plan\" or \"build\", not " +
                            chosen->dump() + "; starting in plan mode"};
}

} // namespace rio
