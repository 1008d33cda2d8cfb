// Where a rio program finds what it ships — the data under share/rio and the HTTP module
// under lib/rio — from where the program really is (/proc/self/exe), so that an install
// works from any prefix, under a DESTDIR and after being moved, and never reads the source
// tree of the build that made it (DESIGN §17, docs/decisions/0018-installable.md).
#pragma once

#include "protocol/error.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace rio {

// Folders that may hold share/rio's contents, first to last:
//   PREFIX/share/rio for a program in PREFIX/bin (relative: GNUInstallDirs' BINDIR and DATADIR);
//   share/rio beside the program: the build tree, where CMake links it to the source tree's;
//   the compiled CMAKE_INSTALL_FULL_DATADIR/rio.
std::vector<std::filesystem::path> share_candidates(const std::filesystem::path& executable);

// Folders that may hold rio's modules (HTTP, git), first to last, by the same three rules
// (LIBDIR/rio, lib/rio beside the program, the compiled LIBDIR/rio).
std::vector<std::filesystem::path> module_candidates(const std::filesystem::path& executable);

// Loads the module `file_name` from the first of those folders that has it, else by name
// through the program's run path (test programs in the build tree); never unloaded (the
// libraries modules bring keep process-wide state), and `entry`, the symbol asked for. The
// error says why in words: not found where it was looked for, not loadable, not rio's.
Result<void*> load_module_entry(const char* file_name, const char* entry);

// The candidates as one line for a message: "A, B or C".
std::string list_of_paths(const std::vector<std::filesystem::path>& paths);

} // namespace rio
