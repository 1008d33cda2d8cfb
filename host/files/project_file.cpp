#include "host/files/project_file.hpp"

#include <algorithm>

namespace rio {
namespace {

namespace fs = std::filesystem;

bool within(const fs::path& folder, const fs::path& path) {
    auto [end, at] = std::mismatch(folder.begin(), folder.end(), path.begin(), path.end());
    return end == folder.end();
}

// Case-folded, for filesystems that do not tell ".git" from ".Git".
bool is_git_folder_name(const fs::path& component) {
    std::string name = component.string();
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return name == ".git";
}

} // namespace

Result<ProjectPath> workspace_path(const Workspace& workspace, std::string_view requested) {
    if (!workspace.root)
        return make_error(ErrorCode::no_project,
                          "No project is open, so there are no files to work with.");
    return confine(workspace.dir, requested);
}

bool in_rio_folders(const fs::path& real, const UserDirs& dirs) {
    for (const fs::path& folder : {dirs.config, dirs.data, dirs.state, dirs.runtime}) {
        if (folder.empty()) continue;
        std::error_code ec;
        fs::path resolved = fs::weakly_canonical(folder, ec);
        if (within(ec ? folder : resolved, real)) return true;
    }
    return false;
}

Result<ProjectPath> tool_path(const Workspace& workspace, const UserDirs& dirs,
                              std::string_view requested) {
    auto path = workspace_path(workspace, requested);
    if (!path) return path;
    if (in_rio_folders(path->real, dirs))
        return make_error(ErrorCode::refused,
                          path->rel + " is inside rio's own settings and data (keys, the "
                                      "allow-list, sessions); agent tools never read or change "
                                      "it. Ask the user instead.");
    return path;
}

Result<ProjectPath> writable_tool_path(const Workspace& workspace, const UserDirs& dirs,
                                       std::string_view requested) {
    auto path = tool_path(workspace, dirs, requested);
    if (!path) return path;
    fs::path rel(path->rel);
    if (within(*workspace.root / ".rio", path->real))
        return make_error(ErrorCode::refused,
                          path->rel + " is inside .rio/, which holds rio's own settings (the "
                                      "command allow-list, prompt overrides, plans); only a "
                                      "person changes them. Ask the user instead.");
    for (const fs::path& config : dirs.git_config) {
        std::error_code ec;
        fs::path resolved = fs::weakly_canonical(config, ec);
        if (within(ec ? config : resolved, path->real))
            return make_error(ErrorCode::refused,
                              path->rel + " is git's own configuration for the user, which names "
                                          "programs every git command runs; the agent never "
                                          "writes it. Ask the user instead.");
    }
    if (std::any_of(rel.begin(), rel.end(), is_git_folder_name))
        return make_error(ErrorCode::refused,
                          path->rel + " is inside a .git folder; the agent never writes there "
                                      "(git runs what its config names). Use git commands "
                                      "the user approves instead.");
    return path;
}

} // namespace rio
