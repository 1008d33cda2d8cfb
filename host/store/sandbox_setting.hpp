// Whether the user turned the command sandbox off (DESIGN §19): `"sandbox": false` in their
// config.json. Only the user's own file can: nothing in a project turns it off.
#pragma once

#include "io/user_dirs.hpp"

#include <string>

namespace rio {

struct SandboxSetting {
    bool on = true;
    std::string warning; // why the file's value was not taken, "" when there was none to skip
};

// A file that cannot be read or a value that is not a boolean leaves the sandbox on, the
// safe way, and says why in `warning`.
SandboxSetting configured_sandbox(const UserDirs& dirs);

} // namespace rio
