// What the user says of their commands' reach in their own config.json (DESIGN §19; decision
// 0071): more or fewer places under $HOME that plan-mode commands may read, and the
// secret-looking variables commands still get. Only the user's file can say it; nothing in a
// project widens it.
#pragma once

#include "io/user_dirs.hpp"

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace rio {

struct CommandSettings {
    // Absolute; given as "~/x", "x" (below $HOME) or "/abs/x".
    std::vector<std::filesystem::path> home_readable;   // read by plan-mode commands too
    std::vector<std::filesystem::path> home_unreadable; // read by no command without network
    std::vector<std::string>
        pass_env; // variables that look like secrets and are passed all the same
    // How long a plan step's check may run before it fails as "timed out" (issue 43):
    // "check_timeout_s", 1 to 3600.
    std::chrono::seconds check_timeout{300};
    std::string warning; // what of the file was not taken, and why; "" when all was
};

// `home` is the user's home folder; "" leaves "~" and relative entries out. A file that cannot
// be read, or an entry that is not a string, takes nothing of it and says so in `warning`:
// the defaults stay, the safe way.
CommandSettings configured_commands(const UserDirs& dirs, const std::filesystem::path& home);

} // namespace rio
