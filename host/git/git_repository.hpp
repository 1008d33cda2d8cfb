// The repository that holds the project, read through libgit2 (decision 0092). libgit2 runs no
// program: no hooks, no fsmonitor, no textconv, diff or filter driver, whatever a cloned
// .git/config names, so nothing here can run a project's code. Paths in and out are
// project-relative; the repository's files outside the project are never listed.
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

struct git_repository;

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
    // The repository whose work tree holds `project_root` (the folder or one above it), or
    // nullopt when there is none. An error when one is there that cannot be used: not owned
    // by this user, damaged, or its work tree set elsewhere (core.worktree) so the project is
    // not in it.
    static Result<std::optional<GitRepository>> open(const std::filesystem::path& project_root);

    GitRepository(GitRepository&&) noexcept;
    GitRepository& operator=(GitRepository&&) noexcept;
    ~GitRepository();

    // The files of the project that differ from HEAD on disk (staged or not), untracked ones
    // included, ignored ones and submodules' insides not.
    Result<GitStatus> status(std::size_t max_files);

    // HEAD's bytes of a project file; nullopt when HEAD has none (new file, unborn branch).
    Result<std::optional<std::string>> head_bytes(std::string_view project_rel);

private:
    struct Deleter {
        void operator()(git_repository* repo) const;
    };
    GitRepository(std::unique_ptr<git_repository, Deleter> repo, std::string prefix);

    std::unique_ptr<git_repository, Deleter> repo_;
    std::string prefix_; // the project's folder within the work tree: "" or "sub/dir/"
};

} // namespace rio
