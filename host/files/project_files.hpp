// Reading, writing and listing project files, each opened beneath the project's descriptor
// (host/project_dir) at the moment it is used.
#pragma once

#include "host/files/confine.hpp"
#include "host/files/files.hpp"

namespace rio {

// `path` comes from confine() with a ProjectDir.
Result<std::string> read_project_file(const ProjectPath& path);
Status write_project_file(const ProjectPath& path, std::string_view bytes);
Result<DirListing> list_project_dir(const ProjectPath& path);
// The folders on the way to a new file.
Status make_project_folders(const ProjectPath& folder);

// A file's permission bits, and setting them (undo puts back what a file had).
Result<std::uint32_t> project_file_mode(const ProjectPath& path);
Status set_project_file_mode(const ProjectPath& path, std::uint32_t mode);
// Unlinks a file; removes a folder only if it is empty.
Status remove_project_file(const ProjectPath& path);
Status remove_project_folder(const ProjectPath& folder);

} // namespace rio
