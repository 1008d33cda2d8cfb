// HEAD's text of a project file, as the compare view and the margin marks read it.
#pragma once

#include "core/workspace.hpp"
#include "host/files/confine.hpp"

#include <optional>
#include <string>

namespace rio {

// nullopt when the project is in no repository or HEAD has no such file; an error when the
// repository cannot be read or HEAD's copy is no text rio edits (binary, invalid UTF-8).
Result<std::optional<std::string>> head_text(const std::filesystem::path& root,
                                             const ProjectPath& path);

} // namespace rio
