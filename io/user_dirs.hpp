// Where rio finds its shipped data and keeps per-user files (XDG base directories).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace rio {

struct UserDirs {
    std::filesystem::path share; // shipped: agent/prompt.md, agent/plan.md, manual/
    std::vector<std::filesystem::path> share_tried; // where `share` was looked for, in order
    std::filesystem::path config;  // $XDG_CONFIG_HOME/rio: prompt overrides, allow-list, trust
    std::filesystem::path data;    // $XDG_DATA_HOME/rio: secrets
    std::filesystem::path state;   // $XDG_STATE_HOME/rio: sessions, the write journal
    std::filesystem::path runtime; // $XDG_RUNTIME_DIR/rio (else under state): listener tokens
    // git's configuration for the user ($GIT_CONFIG_GLOBAL, else ~/.gitconfig, ~/.config/git
    // and $XDG_CONFIG_HOME/git): it names programs every git runs, so no agent tool writes
    // it, even in a project that holds the home folder.
    std::vector<std::filesystem::path> git_config;

    // The user's own settings (JSONC): the configured provider, the mode a new core starts in.
    std::filesystem::path settings_file() const { return config / "config.json"; }
    // The folder where atomic project writes note their temporary files (host/files).
    std::filesystem::path write_journal() const { return state / "pending-writes"; }
    // Where `rio-core --listen HOST:PORT` keeps the token a client must present, and where
    // frontends with --connect HOST:PORT look for it.
    std::filesystem::path token_file(std::string_view host, unsigned port) const {
        return runtime / ("core-" + std::string(host) + "-" + std::to_string(port) + ".token");
    }
    // The token in that file, or "" when there is none to read.
    std::string listener_token(std::string_view host, unsigned port) const;
};

// share: $RIO_SHARE_DIR, else the first of share_candidates(executable) that holds both
// shipped prompts (io/install_layout.hpp); never the source tree of an installed program.
// When none does, the first candidate, and missing_shipped_prompts() says so.
UserDirs find_user_dirs(const std::filesystem::path& executable);

} // namespace rio
