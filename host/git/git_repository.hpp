// The repository that holds the project (decision 0092), read through libgit2 in a module
// loaded on first use (rio-git-libgit2.so): libgit2 runs no program — no hooks, no fsmonitor,
// no textconv, diff or filter driver, whatever a cloned .git/config names — so nothing here
// can run a project's code. Paths in and out are project-relative; the repository's files
// outside the project are never listed.
#pragma once

#include "protocol/closed_sets.hpp"
#include "protocol/error.hpp"

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rio {

struct GitFileChange {
    std::string path; // project-relative
    GitChange change = GitChange::modified;
};

struct GitStatus {
    GitHead head = GitHead::branch;
    std::string branch; // the branch HEAD names (also when unborn); empty when detached
    std::string commit; // HEAD's commit, 12 hex digits; empty when unborn
    std::vector<GitFileChange> files; // sorted by path
    bool truncated = false;           // more than max_files differ
};

class GitRepository {
public:
    virtual ~GitRepository() = default;
    // The files of the project that differ from HEAD on disk (staged or not), untracked ones
    // included, ignored ones and submodules' insides not.
    virtual Result<GitStatus> status(std::size_t max_files) = 0;
    // HEAD's bytes of a project file; nullopt when HEAD has none (new file, unborn branch).
    virtual Result<std::optional<std::string>> head_bytes(std::string_view project_rel) = 0;
};

// The repository whose work tree holds `project_root` (the folder or one above it), or null
// when there is none. An error when one is there that cannot be used (not owned by this user,
// damaged, its work tree set elsewhere so the project is not in it), or when the module
// cannot be loaded.
Result<std::unique_ptr<GitRepository>>
open_git_repository(const std::filesystem::path& project_root);

// The module's one entry point, `rio_git_open`; both sides are built from this header.
inline constexpr int git_module_version = 1;
using GitModuleOpen = void (*)(int version, const std::filesystem::path* root,
                               Result<std::unique_ptr<GitRepository>>* out);

} // namespace rio
