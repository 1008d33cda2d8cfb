#include "host/process/server_environment.hpp"

#include <cstdlib>

namespace rio {

std::vector<std::string>
server_environment(const std::vector<std::pair<std::string, std::string>>& extra) {
    std::vector<std::string> env;
    for (const char* name : {"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "LC_ALL",
                             "TMPDIR", "XDG_CACHE_HOME"})
        if (const char* value = std::getenv(name)) env.push_back(std::string(name) + "=" + value);
    for (const auto& [name, value] : extra)
        env.push_back(name + "=" + value);
    return env;
}

std::string last_line(std::string text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r'))
        text.pop_back();
    std::size_t nl = text.rfind('\n');
    return nl == std::string::npos ? text : text.substr(nl + 1);
}

} // namespace rio
