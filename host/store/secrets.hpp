// API keys (DESIGN §10): the environment variable first, else a file under
// $XDG_DATA_HOME/rio/secrets/ that only the user can read. Keys never appear in a log,
// an event or a response; callers get them only to put them in a request header.
#pragma once

#include "protocol/error.hpp"
#include "io/user_dirs.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace rio {

struct Key {
    std::string value;
    std::string source; // "env" or "file"
};

std::optional<Key> load_key(const UserDirs& dirs, std::string_view provider,
                            std::string_view env_name);

// Writes a file only its owner can read (0600) in a folder only they can enter (0700),
// atomically: keys, listener tokens.
Status write_private_file(const std::filesystem::path& path, std::string_view text,
                          std::string_view name);

// Writes the file 0600 in a 0700 folder, atomically.
Status store_key(const UserDirs& dirs, std::string_view provider, std::string_view key);
Status clear_key(const UserDirs& dirs, std::string_view provider);

} // namespace rio
