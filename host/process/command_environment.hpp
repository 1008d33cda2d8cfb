// The environment an agent's command runs with (DESIGN §12): this process's, without provider
// keys and rio's own RIO_* variables, and with git told to ignore what a project could use to
// make an allowed `git status` run a program of its choosing (decision 0047).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rio {

// Configuration every git a command starts takes before any file's, through
// GIT_CONFIG_COUNT/KEY/VALUE (git 2.31; a git that does not know a key ignores it):
// a bare repository is used only when named (git 2.38: an embedded `docs/vendor/{HEAD,config,
// objects,refs}` is no repository), and no fsmonitor, no hooks, no ext:: transport.
inline const std::vector<std::pair<std::string, std::string>> git_hardening = {
    {"safe.bareRepository", "explicit"},
    {"core.fsmonitor", "false"},
    {"core.hooksPath", "/dev/null"},
    {"protocol.ext.allow", "never"},
};

// Whether a variable's name says it holds a secret (decision 0071): TOKEN, SECRET, PASSWORD,
// PASSWD, PASSPHRASE, CREDENTIAL, API_KEY or APIKEY in it, an ending _KEY, _PAT or _AUTH, or
// AWS_ at its start; upper or lower case alike.
bool looks_secret(std::string_view name);

// Which variables that look like secrets a command gets: those the user named, or (a person
// approved the command "with my environment") all of them.
struct SecretsPassed {
    std::vector<std::string> named;
    bool all = false;
};

// `environment` ("NAME=value" entries) without `hidden` names, RIO_* variables and those that
// look like secrets but for what `passed` lets through, with git_hardening added after any
// GIT_CONFIG_* pairs the user set (later pairs win).
std::vector<std::string> command_environment(const std::vector<std::string>& environment,
                                             const std::vector<std::string>& hidden,
                                             const SecretsPassed& passed = {});

// A command allowed some hosts only (issue 45): every proxy variable it had replaced by rio's
// proxy at 127.0.0.1:`port`, in the spellings curl, git, pip, npm, Node and Go read, and no
// NO_PROXY (localhost too goes through the proxy: there is nothing else to reach).
std::vector<std::string> proxied_environment(std::vector<std::string> env, std::uint16_t port);

// The same for this process's environment.
std::vector<std::string> command_environment_from_environ(const std::vector<std::string>& hidden,
                                                          const SecretsPassed& passed);

} // namespace rio
