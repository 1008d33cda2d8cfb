// Trust in a project's power-granting files (DESIGN §12): `.rio/allow` (commands the agent
// may run unasked), `.mcp.json` (MCP servers the core would start) and `.rio/lsp.json`
// (language servers it would start) apply only once the user
// trusted their current contents. Recorded in $XDG_CONFIG_HOME/rio/trust.json, keyed by the
// project's real root, with the sha256 of each file: a changed file is untrusted again.
#pragma once

#include "core/workspace.hpp"
#include "io/user_dirs.hpp"
#include "protocol/error.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace rio {

inline constexpr const char* power_granting_files[] = {".rio/allow", ".mcp.json", ".rio/lsp.json"};

struct PowerFile {
    std::string path;   // project-relative
    std::string sha256; // of its bytes now
    bool trusted = false;
    std::string summary; // what it would grant, in words
    std::string bytes;   // as read, so what is trusted is what is then used
};

struct ProjectTrust {
    bool trusted = true; // every power-granting file present is trusted (none: nothing to trust)
    std::vector<PowerFile> files; // those present
};

// `contents` holds the present files' bytes by project-relative path.
ProjectTrust project_trust(const UserDirs& dirs, const std::filesystem::path& root,
                           const std::vector<std::pair<std::string, std::string>>& contents);

// The open project's power-granting files as they are now, judged against trust.json.
ProjectTrust current_trust(const UserDirs& dirs, const Workspace& workspace);

// The bytes of one of them if it is present and trusted.
std::optional<std::string> trusted_contents(const UserDirs& dirs, const Workspace& workspace,
                                            std::string_view path);

// Records the files' current hashes as trusted (trust), or forgets the project (revoke).
Status set_project_trust(const UserDirs& dirs, const std::filesystem::path& root,
                         const ProjectTrust& now, bool trust);

// What a file would grant, for the summary: the allow rules, the MCP or the language servers.
std::string power_summary(std::string_view path, std::string_view bytes);

} // namespace rio
