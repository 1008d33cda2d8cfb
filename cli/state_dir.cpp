#include "cli/state_dir.hpp"

#include <cerrno>
#include <cstdlib>
#include <sys/stat.h>

namespace rio {

std::optional<std::filesystem::path> cli_state_dir() {
    std::filesystem::path base;
    if (const char* state = std::getenv("XDG_STATE_HOME"); state && *state == '/')
        base = state;
    else if (const char* home = std::getenv("HOME"); home && *home == '/')
        base = std::filesystem::path(home) / ".local" / "state";
    else
        return std::nullopt;
    std::filesystem::path dir = base / "rio";
    std::error_code ec;
    std::filesystem::create_directories(base, ec);
    if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) return std::nullopt;
    if (!std::filesystem::is_directory(dir, ec)) return std::nullopt;
    return dir;
}

} // namespace rio
