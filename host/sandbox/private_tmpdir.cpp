#include "host/sandbox/private_tmpdir.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>

namespace rio {

namespace fs = std::filesystem;

std::vector<std::string> sandboxed_environment(std::vector<std::string> env,
                                               const fs::path& tmpdir) {
    const std::vector<std::string> set{"TMPDIR=" + tmpdir.string(), "TMP=" + tmpdir.string(),
                                       "TEMP=" + tmpdir.string(), "GIT_OPTIONAL_LOCKS=0"};
    std::erase_if(env, [&set](const std::string& entry) {
        for (const std::string& s : set)
            if (entry.compare(0, s.find('=') + 1, s, 0, s.find('=') + 1) == 0) return true;
        return false;
    });
    env.insert(env.end(), set.begin(), set.end());
    const bool npm_cache_chosen = std::any_of(env.begin(), env.end(), [](const std::string& e) {
        return e.rfind("npm_config_cache=", 0) == 0 || e.rfind("NPM_CONFIG_CACHE=", 0) == 0;
    });
    if (!npm_cache_chosen) env.push_back("npm_config_cache=" + (tmpdir / "npm-cache").string());
    return env;
}

Result<fs::path> make_private_tmpdir() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = (base && *base == '/' ? std::string(base) : "/tmp") + "/rio-cmd-XXXXXX";
    if (!::mkdtemp(pattern.data()))
        return make_error(ErrorCode::io_error, "cannot make a private TMPDIR in " +
                                                   fs::path(pattern).parent_path().string() + ": " +
                                                   std::strerror(errno));
    return fs::path(pattern);
}

void remove_private_tmpdir(const fs::path& tmpdir) {
    if (tmpdir.empty()) return;
    std::error_code ec;
    if (fs::remove_all(tmpdir, ec) != static_cast<std::uintmax_t>(-1) && !ec) return;
    // A folder left without read or search permission cannot be emptied until given back.
    for (auto it = fs::recursive_directory_iterator(
             tmpdir, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
        if (it->is_directory(ec) && !it->is_symlink(ec)) ::chmod(it->path().c_str(), 0700);
    ::chmod(tmpdir.c_str(), 0700);
    fs::remove_all(tmpdir, ec);
}

} // namespace rio
