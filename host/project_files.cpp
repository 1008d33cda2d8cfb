#include "host/project_files.hpp"

#include "host/project_dir.hpp"

#include <fcntl.h>

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

Result<std::vector<DirEntry>> list_project_dir(const ProjectPath& path) {
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

} // namespace rio
