// A sandboxed command's private TMPDIR, made before it starts and removed once its whole tree
// has gone, and the environment that points it there.
#pragma once

#include "protocol/error.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace rio {

// A new 0700 folder "rio-cmd-XXXXXX" under $TMPDIR, else /tmp.
Result<std::filesystem::path> make_private_tmpdir();
// Removes it with whatever is in it, folders the command made unreadable included.
void remove_private_tmpdir(const std::filesystem::path& tmpdir);

// `env` with TMPDIR (and TMP, TEMP) set to `tmpdir` and GIT_OPTIONAL_LOCKS=0, which keeps
// `git status` from refreshing the index: in plan mode that write would fail, and in build
// mode .git is not the command's to write. npm's cache goes there too unless the user chose
// one (npm_config_cache): ~/.npm is not writable in the sandbox, and npm refuses to install
// without a cache it can write (issue 45's `npm install`).
std::vector<std::string> sandboxed_environment(std::vector<std::string> env,
                                               const std::filesystem::path& tmpdir);

} // namespace rio
