// The files an approved plan's steps name (issue 43), read from the project: their hashes for a
// check's evidence and for the baseline drift is measured against, their texts where small
// enough to show what changed, and the git HEAD at approval.
#pragma once

#include "core/workspace.hpp"
#include "protocol/messages.hpp"

#include <map>
#include <string>
#include <vector>

namespace rio {

inline constexpr std::size_t max_hashed_files = 200;
// A file larger than this is hashed but its text is not kept: drift in it is said without a
// diff.
inline constexpr std::size_t max_kept_text_bytes = 256 * 1024;

struct NamedFiles {
    std::vector<FileHash> files; // each path, and each file a glob matches, at most
                                 // max_hashed_files; sha256 "" for a named file that is missing
    std::map<std::string, std::string, std::less<>> texts; // when asked for, the small ones
};

NamedFiles named_files(const Workspace& workspace, const std::vector<std::string>& files,
                       bool keep_texts = false);
// Every file the steps name.
std::vector<std::string> step_files(const std::vector<DeclaredStep>& steps);

// The commit checked out in the project's git repository (its .git/HEAD, a branch resolved
// through .git/refs or packed-refs); "" when the project is not a repository or it cannot tell.
std::string git_head(const Workspace& workspace);

} // namespace rio
