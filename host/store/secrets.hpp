// API keys (DESIGN §10): the environment variable first, else a file under
// $XDG_DATA_HOME/rio/secrets/ that only the user can read. Keys never appear in a log,
// an event or a response; callers get them only to put them in a request header.
#pragma once

#include "io/user_dirs.hpp"
#include "protocol/closed_sets.hpp"
#include "protocol/error.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rio {

struct Key {
    std::string value;
    KeySource source = KeySource::file; // env or file
};

std::optional<Key> load_key(const UserDirs& dirs, std::string_view provider,
                            std::string_view env_name);

// Takes the key variables out of this process's environment (DESIGN §12): their values are
// kept for key_variable(), the variables are removed, and the bytes the kernel shows as
// /proc/PID/environ (the block the process started with, which unsetenv never touches) are
// overwritten, so a command the core starts cannot read them from its parent. rio-core calls
// it first thing.
void take_key_variables(const std::vector<std::string>& names);

// A key variable's value: what take_key_variables kept, else the environment's; nullopt
// when unset or empty.
std::optional<std::string> key_variable(std::string_view name);

// Writes a file only its owner can read (0600) in a folder only they can enter (0700),
// atomically: keys, listener tokens.
Status write_private_file(const std::filesystem::path& path, std::string_view text,
                          std::string_view name);

// Writes the file 0600 in a 0700 folder, atomically.
Status store_key(const UserDirs& dirs, std::string_view provider, std::string_view key);
Status clear_key(const UserDirs& dirs, std::string_view provider);

} // namespace rio
