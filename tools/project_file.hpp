// The first step of every file tool: an open project and a path confined to it, with
// messages written for the model.
#pragma once

#include "core/workspace.hpp"
#include "host/confine.hpp"

namespace rio {

Result<ProjectPath> tool_path(const Workspace& workspace, std::string_view requested);

// tool_path for the tools that write: also refuses anything inside the project's .rio/
// folder, whose allow-list a person must have written (DESIGN §6) — else an auto-accepted
// edit could grant the agent commands nobody approved.
Result<ProjectPath> writable_tool_path(const Workspace& workspace, std::string_view requested);

} // namespace rio
