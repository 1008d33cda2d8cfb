#include "tools/project_file.hpp"

#include <algorithm>

namespace rio {

Result<ProjectPath> tool_path(const Workspace& workspace, std::string_view requested) {
    if (!workspace.root)
        return make_error(ErrorCode::no_project,
                          "No project is open, so there are no files to work with.");
    return confine(workspace.dir, requested);
}

Result<ProjectPath> writable_tool_path(const Workspace& workspace, std::string_view requested) {
    auto path = tool_path(workspace, requested);
    if (!path) return path;
    // The resolved path decides, so a symlink into .rio/ is caught as well as ".rio/allow".
    const std::filesystem::path settings = *workspace.root / ".rio";
    const auto [end, at] =
        std::mismatch(settings.begin(), settings.end(), path->real.begin(), path->real.end());
    if (end == settings.end())
        return make_error(ErrorCode::refused,
                          path->rel + " is inside .rio/, which holds rio's own settings (the "
                                      "command allow-list, prompt overrides, plans); only a "
                                      "person changes them. Ask the user instead.");
    return path;
}

} // namespace rio
