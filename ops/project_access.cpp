#include "ops/project_access.hpp"

#include "host/files/project_dir.hpp"

namespace rio {

Result<std::filesystem::path> project_root(std::string_view requested) {
    namespace fs = std::filesystem;
    std::string shown(requested);
    if (requested.empty()) return make_error(ErrorCode::bad_request, "project path is empty");
    std::error_code ec;
    fs::path root = fs::canonical(fs::absolute(requested), ec);
    if (ec) return make_error(ErrorCode::not_found, "no such folder: " + shown);
    if (!fs::is_directory(root, ec))
        return make_error(ErrorCode::bad_request, shown + " is not a folder");
    return root;
}

Status open_project(Workspace& workspace, const std::filesystem::path& root,
                    const std::filesystem::path& journal) {
    auto dir = ProjectDir::open(root, journal);
    if (!dir) return dir.error();
    workspace.buffers.clear();
    workspace.root = root;
    workspace.dir = std::move(*dir);
    return Ok{};
}

void close_project(Workspace& workspace) {
    workspace.buffers.clear();
    workspace.root.reset();
    workspace.dir.reset();
}

Result<ProjectPath> project_path(const Workspace& workspace, std::string_view requested) {
    if (!workspace.root) return make_error(ErrorCode::no_project, "no project is open");
    return confine(workspace.dir, requested);
}

Result<BufferRef> open_buffer(Workspace& workspace, std::string_view requested) {
    auto path = project_path(workspace, requested);
    if (!path) return path.error();
    auto it = workspace.buffers.find(path->rel);
    if (it == workspace.buffers.end())
        return make_error(ErrorCode::no_buffer, "no open buffer for " + path->rel);
    return BufferRef{std::move(*path), &it->second};
}

} // namespace rio
