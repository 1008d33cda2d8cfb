// Loads rio-git-libgit2.so on the first git request, as host/http loads libcurl (decision
// 0019): a core that never reads a repository never loads libgit2 and what it brings.
#include "host/git/git_repository.hpp"
#include "io/install_layout.hpp"

#include <dlfcn.h>
#include <unistd.h>

namespace rio {
namespace {

Result<GitModuleOpen> load_module() {
    const auto unavailable = [](const std::string& why) {
        return make_error(ErrorCode::internal, "git is unavailable: " + why);
    };
    // Never unloaded: libgit2 keeps process-wide state for the repositories it opened.
    constexpr int flags = RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE;
    std::vector<std::filesystem::path> tried;
    void* module = nullptr;
    for (const auto& dir : module_candidates("/proc/self/exe")) {
        tried.push_back(dir / RIO_GIT_MODULE);
        if (::access(tried.back().c_str(), F_OK) != 0) continue;
        module = ::dlopen(tried.back().c_str(), flags);
        if (!module) return unavailable(::dlerror());
        break;
    }
    if (!module) module = ::dlopen(RIO_GIT_MODULE, flags);
    if (!module) return unavailable(RIO_GIT_MODULE " is not at " + list_of_paths(tried));
    auto open = reinterpret_cast<GitModuleOpen>(::dlsym(module, "rio_git_open"));
    if (!open) return unavailable(RIO_GIT_MODULE " is not rio's git module");
    return open;
}

} // namespace

Result<std::unique_ptr<GitRepository>> open_git_repository(const std::filesystem::path& root) {
    static const Result<GitModuleOpen> module = load_module(); // once, whichever thread asks
    if (!module) return module.error();
    Result<std::unique_ptr<GitRepository>> out = std::unique_ptr<GitRepository>();
    (*module)(git_module_version, &root, &out);
    return out;
}

} // namespace rio
