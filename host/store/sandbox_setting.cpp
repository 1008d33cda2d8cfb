#include "host/store/sandbox_setting.hpp"

#include "host/files/json_file.hpp"

namespace rio {

SandboxSetting configured_sandbox(const UserDirs& dirs) {
    const std::filesystem::path file = dirs.settings_file();
    auto config = load_json_file(file);
    if (!config) return {true, config.error().message + "; commands stay sandboxed"};
    auto chosen = config->find("sandbox");
    if (chosen == config->end()) return {};
    if (chosen->is_boolean()) return {chosen->get<bool>(), ""};
    return {true, file.string() + ": sandbox must be true or false, not " + chosen->dump() +
                      "; commands stay sandboxed"};
}

} // namespace rio
