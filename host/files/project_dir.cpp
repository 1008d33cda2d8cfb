#include "host/files/project_dir.hpp"

#include "host/files/files.hpp"

#include <cerrno>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace rio {
namespace {

std::string_view without_root(std::string_view rel) {
    return rel == "." ? std::string_view() : rel;
}

Error symlink_refusal(std::string_view name) {
    return make_error(ErrorCode::refused,
                      std::string(name) +
                          " changed while rio was using it (a folder on its path became a "
                          "symlink); nothing was read or written");
}

// Kernels before 5.6 lack openat2: the same rule, one component at a time, each opened with
// O_NOFOLLOW beneath the one before.
int open_by_components(int root, std::string_view rel, int flags, mode_t mode) {
    UniqueFd at(::fcntl(root, F_DUPFD_CLOEXEC, 0));
    if (at.fd < 0) return -1;
    while (true) {
        std::size_t slash = rel.find('/');
        std::string part(rel.substr(0, slash));
        if (part.empty() || part == "." || part == "..") {
            errno = EXDEV;
            return -1;
        }
        if (slash == std::string_view::npos)
            return ::openat(at.fd, part.c_str(), flags | O_NOFOLLOW | O_CLOEXEC, mode);
        UniqueFd next(::openat(at.fd, part.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (next.fd < 0) return -1;
        std::swap(at.fd, next.fd);
        rel.remove_prefix(slash + 1);
    }
}

int open_resolved_beneath(int root, std::string_view rel, int flags, mode_t mode) {
    std::string path = rel.empty() ? "." : std::string(rel);
    open_how how{};
    how.flags = static_cast<std::uint64_t>(flags | O_CLOEXEC);
    how.mode = (flags & (O_CREAT | O_TMPFILE)) ? mode : 0;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    long fd = ::syscall(SYS_openat2, root, path.c_str(), &how, sizeof how);
    if (fd >= 0 || errno != ENOSYS) return static_cast<int>(fd);
    if (rel.empty()) return ::fcntl(root, F_DUPFD_CLOEXEC, 0); // "." (flags of the root fd)
    return open_by_components(root, rel, flags, mode);
}

} // namespace

Result<std::shared_ptr<const ProjectDir>> ProjectDir::open(const std::filesystem::path& root,
                                                           std::filesystem::path journal) {
    int fd = ::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return errno_error(errno, "open", root.string());
    return std::make_shared<const ProjectDir>(root, fd, std::move(journal));
}

Result<UniqueFd> open_beneath(const ProjectDir& dir, std::string_view rel, int flags,
                              std::string_view name, mode_t mode) {
    int fd = open_resolved_beneath(dir.fd(), without_root(rel), flags, mode);
    if (fd >= 0) return UniqueFd(fd);
    // ELOOP: a symlink on the way; EXDEV: resolution tried to leave the project.
    if (errno == ELOOP || errno == EXDEV) return symlink_refusal(name);
    return errno_error(errno, "open", name);
}

Status make_folders_beneath(const ProjectDir& dir, std::string_view rel, std::string_view name) {
    UniqueFd at(::fcntl(dir.fd(), F_DUPFD_CLOEXEC, 0));
    if (at.fd < 0) return errno_error(errno, "create the folder for", name);
    for (rel = without_root(rel); !rel.empty();) {
        std::size_t slash = rel.find('/');
        std::string part(rel.substr(0, slash));
        rel.remove_prefix(slash == std::string_view::npos ? rel.size() : slash + 1);
        if (::mkdirat(at.fd, part.c_str(), 0777) != 0 && errno != EEXIST)
            return errno_error(errno, "create the folder for", name);
        UniqueFd next(open_resolved_beneath(at.fd, part, O_PATH | O_DIRECTORY, 0));
        if (next.fd < 0)
            return errno == ELOOP || errno == EXDEV
                       ? symlink_refusal(name)
                       : errno_error(errno, "create the folder for", name);
        std::swap(at.fd, next.fd);
    }
    return Ok{};
}

} // namespace rio
