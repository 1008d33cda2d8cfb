// Where rio finds its shipped data and keeps per-user files (XDG base directories).
#pragma once

#include <filesystem>

namespace rio {

struct UserDirs {
    std::filesystem::path share;  // shipped: agent/prompt.md, agent/plan.md, manual/
    std::filesystem::path config; // $XDG_CONFIG_HOME/rio: prompt overrides, allow-list
    std::filesystem::path data;   // $XDG_DATA_HOME/rio: secrets
};

// share: $RIO_SHARE_DIR, else ../share/rio beside the executable (an install), else the
// source tree's share/rio (a build folder).
UserDirs find_user_dirs(const std::filesystem::path& executable);

} // namespace rio
