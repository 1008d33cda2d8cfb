#include "host/user_dirs.hpp"

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
    const char* runtime = std::getenv("XDG_RUNTIME_DIR");
    dirs.runtime = runtime && *runtime ? fs::path(runtime) / "rio" : dirs.state / "runtime";
    std::error_code ec;
    fs::path installed = fs::weakly_canonical(executable, ec).parent_path() / "../share/rio";
    if (const char* v = std::getenv("RIO_SHARE_DIR"); v && *v)
        dirs.share = v;
    else if (fs::exists(installed / "agent/prompt.md", ec))
        dirs.share = installed.lexically_normal();
    else
        dirs.share = RIO_SOURCE_SHARE_DIR;
    return dirs;
}

} // namespace rio
