// Every file of the project, for a frontend's quick open: the files a project search reads
// (host/search_walk), so .gitignore'd files, `.git` and symlinked folders are left out by the
// same rules, listed by path without being opened.
#pragma once

#include "host/search/search_walk.hpp"

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace rio {

struct FileList {
    std::vector<std::string> files; // project-relative, '/' separators, in path order
    bool truncated = false;         // more files exist than were asked for
    std::size_t left_out = 0;       // names that are not valid UTF-8 (SearchWalker::left_out)
};

// `root` must be canonical. `buffers` names the open buffers (their text is not looked at):
// one whose file does not exist yet is listed where its file would be. `globs` narrow the
// list as they narrow a search.
FileList list_project_files(const std::filesystem::path& root, const LiveText& buffers,
                            std::size_t max_files, const PathGlobs& globs = {});

} // namespace rio
