// Loads rio-git-libgit2.so on the first git request, as host/http loads libcurl (decision
// 0019): a core that never reads a repository never loads libgit2 and what it brings.
#include "host/git/git_repository.hpp"
#include "io/install_layout.hpp"

namespace rio {
namespace {

Result<GitModuleOpen> load_module() {
    auto entry = load_module_entry(RIO_GIT_MODULE, "rio_git_open");
    if (!entry)
        return make_error(ErrorCode::internal, "git is unavailable: " + entry.error().message);
    return reinterpret_cast<GitModuleOpen>(*entry);
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
