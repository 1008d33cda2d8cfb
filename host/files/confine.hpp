// Confines a requested path to the project: `..` escapes, absolute paths elsewhere and
// symlinks leading out are refused before any file is touched.
#pragma once

#include "protocol/error.hpp"

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

namespace rio {

class ProjectDir;

struct ProjectPath {
    std::filesystem::path real; // symlinks resolved; for messages, stat and commands' cwd
    std::string rel;            // project-relative with '/' separators, "." for the root
    // The project's descriptor, which file I/O opens `rel` beneath (host/project_files).
    std::shared_ptr<const ProjectDir> dir;
};

// `root` must be canonical. `requested` is project-relative, or absolute inside the root;
// "" and "." name the root itself. The file need not exist (its folder chain is resolved
// as far as it exists).
Result<ProjectPath> confine(const std::filesystem::path& root, std::string_view requested);
// The same, for I/O: the result carries `dir`, whose path is the root.
Result<ProjectPath> confine(const std::shared_ptr<const ProjectDir>& dir,
                            std::string_view requested);

} // namespace rio
