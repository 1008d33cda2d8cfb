#include "io/user_dirs.hpp"

#include "io/install_layout.hpp"

#include <cstdlib>
#include <fstream>

namespace rio {
namespace {

namespace fs = std::filesystem;

fs::path from_env(const char* name, const char* fallback_under_home) {
    if (const char* v = std::getenv(name); v && *v) return fs::path(v) / "rio";
    const char* home = std::getenv("HOME");
    return fs::path(home && *home ? home : "/tmp") / fallback_under_home / "rio";
}

} // namespace

std::string UserDirs::listener_token(std::string_view host, unsigned port) const {
    std::ifstream in(token_file(host == "localhost" ? "127.0.0.1" : host, port));
    std::string token;
    in >> token;
    return token;
}

UserDirs find_user_dirs(const fs::path& executable) {
    UserDirs dirs;
    dirs.config = from_env("XDG_CONFIG_HOME", ".config");
    dirs.data = from_env("XDG_DATA_HOME", ".local/share");
    dirs.state = from_env("XDG_STATE_HOME", ".local/state");
    const char* home = std::getenv("HOME");
    if (const char* global = std::getenv("GIT_CONFIG_GLOBAL"); global && *global) {
        dirs.git_config.push_back(global);
    } else if (home && *home) {
        // git reads $XDG_CONFIG_HOME/git when that is set, else ~/.config/git: both are kept
        // from the agent, for a command that runs with either.
        dirs.git_config.push_back(fs::path(home) / ".gitconfig");
        dirs.git_config.push_back(fs::path(home) / ".config/git");
        if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg)
            dirs.git_config.push_back(fs::path(xdg) / "git");
    }
    const char* runtime = std::getenv("XDG_RUNTIME_DIR");
    dirs.runtime = runtime && *runtime ? fs::path(runtime) / "rio" : dirs.state / "runtime";
    if (const char* v = std::getenv("RIO_SHARE_DIR"); v && *v) {
        dirs.share = v;
        dirs.share_tried = {dirs.share};
        return dirs;
    }
    dirs.share_tried = share_candidates(executable);
    dirs.share = dirs.share_tried.front();
    std::error_code ec;
    for (const fs::path& candidate : dirs.share_tried)
        if (fs::exists(candidate / "agent/prompt.md", ec) &&
            fs::exists(candidate / "agent/plan.md", ec)) {
            dirs.share = candidate;
            break;
        }
    return dirs;
}

} // namespace rio
