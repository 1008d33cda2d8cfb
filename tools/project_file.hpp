// The first step of every file tool: an open project and a path confined to it, with
// messages written for the model.
#pragma once

#include "core/workspace.hpp"
#include "host/confine.hpp"

namespace rio {

Result<ProjectPath> tool_path(const Workspace& workspace, std::string_view requested);

} // namespace rio
