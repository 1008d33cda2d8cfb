// The first step of every file tool: an open project and a path confined to it, with
// messages written for the model — and the places no agent tool touches (DESIGN §12).
#pragma once

#include "core/workspace.hpp"
#include "host/files/confine.hpp"
#include "io/user_dirs.hpp"

namespace rio {

// A project path for the core's own work (filing plans): confined, nothing more.
Result<ProjectPath> workspace_path(const Workspace& workspace, std::string_view requested);

// For the agent's tools, reads included: also refuses rio's own config, data, state and
// runtime folders wherever they are — a project that holds the user's home holds them too,
// and with them the stored keys and the allow-list.
Result<ProjectPath> tool_path(const Workspace& workspace, const UserDirs& dirs,
                              std::string_view requested);

// For the tools that write: also refuses the project's .rio/ (the allow-list, prompt
// overrides, plans: a person writes those), any .git/ (`core.fsmonitor` in .git/config
// runs a command on the next `git status`) and the user's git configuration (the same, for
// every repository). The resolved path decides, so a symlink into
// either is caught as well as the plain spelling.
Result<ProjectPath> writable_tool_path(const Workspace& workspace, const UserDirs& dirs,
                                       std::string_view requested);

// Whether a resolved path lies in one of rio's own folders.
bool in_rio_folders(const std::filesystem::path& real, const UserDirs& dirs);

} // namespace rio
