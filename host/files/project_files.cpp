#include "host/files/project_files.hpp"

#include "host/files/project_dir.hpp"

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rio {
namespace {

Result<const ProjectDir*> dir_of(const ProjectPath& path) {
    if (!path.dir)
        return make_error(ErrorCode::internal, path.rel + " was not resolved against a project");
    return path.dir.get();
}

std::string_view folder_of(std::string_view rel) {
    std::size_t slash = rel.rfind('/');
    return slash == std::string_view::npos ? std::string_view(".") : rel.substr(0, slash);
}

Status unlink_beneath(const ProjectPath& path, int flags, std::string_view action) {
    auto dir = dir_of(path);
    if (!dir) return dir.error();
    if (path.rel == ".") return make_error(ErrorCode::bad_request, "the project folder stays");
    auto fd = open_beneath(**dir, folder_of(path.rel), O_RDONLY | O_DIRECTORY, path.rel);
    if (!fd) return fd.error();
    std::string leaf(path.rel.substr(path.rel.rfind('/') + 1));
    if (::unlinkat(fd->fd, leaf.c_str(), flags) != 0) return errno_error(errno, action, path.rel);
    return Ok{};
}

} // namespace

Result<std::string> read_project_file(const ProjectPath& path) {
    auto dir = dir_of(path);
    if (!dir) return dir.error();
    // O_NONBLOCK: opening a FIFO would otherwise wait for a writer, and freeze the core.
    auto fd = open_beneath(**dir, path.rel, O_RDONLY | O_NONBLOCK, path.rel);
    if (!fd) return fd.error();
    return read_all(fd->fd, path.rel);
}

Status write_project_file(const ProjectPath& path, std::string_view bytes) {
    auto dir = dir_of(path);
    if (!dir) return dir.error();
    if (path.rel == ".")
        return make_error(ErrorCode::bad_request, "the project folder is not a file");
    std::string_view folder = folder_of(path.rel);
    auto fd = open_beneath(**dir, folder, O_RDONLY | O_DIRECTORY, path.rel);
    if (!fd) return fd.error();
    std::string leaf(path.rel.substr(path.rel.rfind('/') + 1));
    return write_file_atomic(WriteTarget{fd->fd, path.real.parent_path(), std::move(leaf)}, bytes,
                             path.rel, (*dir)->journal());
}

Result<DirListing> list_project_dir(const ProjectPath& path) {
    auto dir = dir_of(path);
    if (!dir) return dir.error();
    auto fd = open_beneath(**dir, path.rel, O_RDONLY | O_DIRECTORY, path.rel);
    if (!fd) return fd.error();
    return list_dir(fd->release(), path.rel);
}

Status make_project_folders(const ProjectPath& folder) {
    auto dir = dir_of(folder);
    if (!dir) return dir.error();
    return make_folders_beneath(**dir, folder.rel, folder.rel);
}

Result<std::uint32_t> project_file_mode(const ProjectPath& path) {
    auto dir = dir_of(path);
    if (!dir) return dir.error();
    auto fd = open_beneath(**dir, path.rel, O_PATH, path.rel);
    if (!fd) return fd.error();
    struct stat st {};
    if (::fstat(fd->fd, &st) != 0) return errno_error(errno, "read", path.rel);
    return static_cast<std::uint32_t>(st.st_mode & 07777);
}

Status set_project_file_mode(const ProjectPath& path, std::uint32_t mode) {
    auto dir = dir_of(path);
    if (!dir) return dir.error();
    // O_NONBLOCK: a FIFO swapped in would otherwise block the open.
    auto fd = open_beneath(**dir, path.rel, O_RDONLY | O_NONBLOCK, path.rel);
    if (!fd) return fd.error();
    if (::fchmod(fd->fd, static_cast<mode_t>(mode & 07777)) != 0)
        return errno_error(errno, "change the permissions of", path.rel);
    return Ok{};
}

Status remove_project_file(const ProjectPath& path) {
    return unlink_beneath(path, 0, "delete");
}

Status remove_project_folder(const ProjectPath& folder) {
    return unlink_beneath(folder, AT_REMOVEDIR, "remove the folder");
}

} // namespace rio
