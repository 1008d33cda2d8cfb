// Confines a requested path to the project: `..` escapes, absolute paths elsewhere and
// symlinks leading out are refused before any file is touched.
#pragma once

#include "core/error.hpp"

#include <filesystem>
#include <string>
#include <string_view>

namespace rio {

struct ProjectPath {
    std::filesystem::path real; // symlinks resolved; what I/O uses
    std::string rel;            // project-relative with '/' separators, "." for the root
};

// `root` must be canonical. `requested` is project-relative, or absolute inside the root;
// "" and "." name the root itself. The file need not exist (its folder chain is resolved
// as far as it exists).
Result<ProjectPath> confine(const std::filesystem::path& root, std::string_view requested);

} // namespace rio
