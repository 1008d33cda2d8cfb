// What a server rio starts for a project (a language server, an MCP server) runs with: the
// variables a program needs to find its way and never a provider's key (DESIGN §12), and the
// last line of what it said on stderr, for the reason it failed.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace rio {

// HOME, LOGNAME, PATH, SHELL, TERM, USER, LANG, LC_ALL, TMPDIR, XDG_CACHE_HOME as this process
// has them, then `extra` (an MCP server's configured variables) as NAME=VALUE.
std::vector<std::string>
server_environment(const std::vector<std::pair<std::string, std::string>>& extra = {});

// The last non-empty line of `text` (a stderr tail), without its line ending.
std::string last_line(std::string text);

} // namespace rio
