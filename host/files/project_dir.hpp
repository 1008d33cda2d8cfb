// The open project as a directory descriptor. Every project file the core reads or writes is
// opened beneath it, on the path confine() resolved, with openat2(RESOLVE_BENEATH |
// RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS): a folder swapped for a symlink between the
// check and the use fails the call instead of reaching outside the project.
#pragma once

#include "protocol/error.hpp"
#include "io/unique_fd.hpp"

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <sys/types.h>

namespace rio {

class ProjectDir {
public:
    // `root` must be canonical. `journal` is the folder where atomic writes note their
    // temporary files while they exist, so a later core removes what a killed one left
    // (empty: no journal).
    static Result<std::shared_ptr<const ProjectDir>> open(const std::filesystem::path& root,
                                                          std::filesystem::path journal = {});

    const std::filesystem::path& path() const { return path_; }
    int fd() const { return fd_.fd; }
    const std::filesystem::path& journal() const { return journal_; }

    ProjectDir(std::filesystem::path path, int fd, std::filesystem::path journal)
        : path_(std::move(path)), fd_(fd), journal_(std::move(journal)) {}

private:
    std::filesystem::path path_;
    UniqueFd fd_;
    std::filesystem::path journal_;
};

// Opens `rel` (project-relative and symlink-free, as confine() returns it; "." is the root)
// beneath the project. O_CLOEXEC is added. A symlink anywhere on the way is refused, as is a
// component that is not a folder. `name` is how messages refer to the file.
Result<UniqueFd> open_beneath(const ProjectDir& dir, std::string_view rel, int flags,
                              std::string_view name, mode_t mode = 0);

// Creates the folders of `rel` that do not exist yet, each beneath the one before.
Status make_folders_beneath(const ProjectDir& dir, std::string_view rel, std::string_view name);

} // namespace rio
