// The mode a new core starts in (DESIGN §9): the user's `default_mode` in their config.json,
// else plan — rio exists so that nothing changes on an unchecked understanding.
#pragma once

#include "core/agent/tools.hpp"
#include "io/user_dirs.hpp"

#include <string>

namespace rio {

struct StartMode {
    Mode mode = Mode::plan;
    std::string warning; // why the file's choice was not taken, "" when there was none to skip
};

// `default_mode` is "plan" or "build". A file that cannot be read or a value that is neither
// starts in plan mode, the safe one, and says why in `warning`.
StartMode configured_mode(const UserDirs& dirs);

} // namespace rio
