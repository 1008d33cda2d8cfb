#include "host/sandbox/sandbox_policy.hpp"

namespace rio {

std::vector<std::filesystem::path> credential_places(const std::filesystem::path& home) {
    if (home.empty() || !home.is_absolute()) return {};
    std::vector<std::filesystem::path> places;
    for (const char* name :
         {// credentials
          ".ssh", ".gnupg", ".aws", ".azure", ".kube", ".docker", ".netrc", ".git-credentials",
          ".config/git/credentials", ".pgpass", ".pypirc", ".config/gcloud", ".config/gh",
          ".password-store", ".local/share/keyrings", ".npmrc", ".yarnrc", ".yarnrc.yml",
          ".cargo/credentials", ".cargo/credentials.toml", ".gem/credentials", ".vault-token",
          ".m2/settings.xml", ".config/hub", ".terraform.d",
          // where people export keys, and what they typed
          ".bashrc", ".bash_profile", ".bash_login", ".profile", ".bash_logout", ".zshrc",
          ".zshenv", ".zprofile", ".zlogin", ".config/fish", ".bash_history", ".zsh_history",
          ".history", ".local/share/fish", ".python_history", ".node_repl_history", ".psql_history",
          ".mysql_history", ".sqlite_history", ".lesshst", ".viminfo",
          // other agents' keys
          ".claude", ".claude.json", ".codex", ".config/opencode", ".local/share/opencode",
          ".gemini", ".config/github-copilot", ".continue", ".cursor", ".aider.conf.yml"})
        places.push_back(home / name);
    return places;
}

std::vector<std::filesystem::path> home_reads(const std::filesystem::path& home) {
    if (home.empty() || !home.is_absolute()) return {};
    std::vector<std::filesystem::path> places;
    for (const char* name :
         {// git, and what every editor-ish tool reads
          ".gitconfig", ".config/git/config", ".config/git/ignore", ".config/git/attributes",
          ".editorconfig", ".inputrc", ".terminfo",
          // toolchains
          ".rustup", ".cargo/bin", ".cargo/config.toml", ".cargo/config", ".pyenv", ".local/bin",
          ".local/lib", ".nvm", ".volta", ".bun/bin", ".deno/bin", "go/bin", ".sdkman/candidates",
          ".rbenv", ".asdf", ".local/share/mise", ".ghcup/bin", ".elan", ".opam", ".nix-profile",
          ".dotnet",
          // package caches
          ".cargo/registry", ".cargo/git", "go/pkg/mod", ".cache/go-build", ".cache/pip",
          ".cache/pypoetry", ".cache/uv", ".npm/_cacache", ".cache/yarn", ".local/share/pnpm",
          ".m2/repository", ".gradle/caches", ".gradle/wrapper", ".gem/ruby", ".cabal/packages",
          ".cache/clangd", ".ccache", ".cache/ccache"})
        places.push_back(home / name);
    return places;
}

} // namespace rio
