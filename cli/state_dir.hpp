// Where rio-cli keeps what it remembers between runs (the prompt's history):
// $XDG_STATE_HOME/rio, else ~/.local/state/rio.
#pragma once

#include <filesystem>
#include <optional>

namespace rio {

// The folder, created (0700) if missing; nullopt when there is no home to put it in or it
// cannot be created — then nothing is remembered, and nothing fails.
std::optional<std::filesystem::path> cli_state_dir();

} // namespace rio
