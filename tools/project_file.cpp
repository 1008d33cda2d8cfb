#include "tools/project_file.hpp"

namespace rio {

Result<ProjectPath> tool_path(const Workspace& workspace, std::string_view requested) {
    if (!workspace.root)
        return make_error(ErrorCode::no_project,
                          "No project is open, so there are no files to work with.");
    return confine(*workspace.root, requested);
}

} // namespace rio
