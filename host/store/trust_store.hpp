// Trust in a project (DESIGN §12; decisions 0047, 0048). A project the user has not trusted
// grants the agent nothing: no allow rule applies in it, the user's own included, and none of
// its MCP or language servers start. Once trusted, its power-granting files apply as they
// were when the user trusted them: `.rio/allow` (commands the agent may run unasked),
// `.mcp.json` (MCP servers the core would start), `.rio/lsp.json` (language servers it would
// start) and the project files those servers run (a script named in a server's command or
// args). Recorded in $XDG_CONFIG_HOME/rio/trust.json, keyed by the project's real root, with
// the sha256 of each file: a changed file untrusts the project until the user trusts it
// again.
#pragma once

#include "core/workspace.hpp"
#include "io/user_dirs.hpp"
#include "protocol/error.hpp"
#include "protocol/messages.hpp"

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
    bool trusted = false; // the user trusted the project, and every file below is as trusted
    std::vector<PowerFile> files; // those present
};

// `contents` holds the present files' bytes by project-relative path.
ProjectTrust project_trust(const UserDirs& dirs, const std::filesystem::path& root,
                           const std::vector<std::pair<std::string, std::string>>& contents);

// The open project's power-granting files as they are now, judged against trust.json. With
// no project open there is nothing to trust: trusted, no files.
ProjectTrust current_trust(const UserDirs& dirs, const Workspace& workspace);

// Project-relative paths whose change can change what the project grants: the files above
// and the programs the project's .mcp.json and .rio/lsp.json name, as they are now.
std::vector<std::string> power_paths(const Workspace& workspace);

// Records the files' hashes as trusted (trust), or forgets the project (revoke).
Status set_project_trust(const UserDirs& dirs, const std::filesystem::path& root,
                         const ProjectTrust& now, bool trust);

// Whether `shown` (what a person was shown and said yes to) is exactly the files as they are
// now: the same paths with the same hashes, none missing, none added.
bool same_files(const ProjectTrust& now, const std::vector<ShownFile>& shown);

// What a file would grant, for the summary: the allow rules, or the MCP or language servers
// with their whole command lines and the names of the variables they get.
std::string power_summary(std::string_view path, std::string_view bytes);

} // namespace rio
