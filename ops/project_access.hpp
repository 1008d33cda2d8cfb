// What every file-touching op does first: require an open project, confine the path.
#pragma once

#include "core/workspace.hpp"
#include "host/files/confine.hpp"

namespace rio {

// The canonical folder a project.open or --project names.
Result<std::filesystem::path> project_root(std::string_view requested);

// Makes `root` (from project_root) the open project; `journal` is where its atomic writes
// note their temporary files (UserDirs::write_journal).
Status open_project(Workspace& workspace, const std::filesystem::path& root,
                    const std::filesystem::path& journal);
void close_project(Workspace& workspace);

Result<ProjectPath> project_path(const Workspace& workspace, std::string_view requested);

struct BufferRef {
    ProjectPath path;
    Document* doc;
};

// The open buffer for a path, or no_buffer.
Result<BufferRef> open_buffer(Workspace& workspace, std::string_view requested);

} // namespace rio
