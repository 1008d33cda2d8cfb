// `--connect ssh://[user@]host[:port]/absolute/path` (DESIGN §22, decision 0060): the one
// parser every frontend uses, the far command line quoted for the far POSIX shell, the
// local ssh command line, and what a failed ssh run meant. No I/O: the Asio link
// (client/core_link.cpp) and the desktop's Qt glue start the process.
#pragma once

#include "protocol/error.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rio::client {

struct RemoteAddress {
    std::string user; // empty: ssh's own choice (~/.ssh/config, else the local user)
    std::string host; // a name, an address, or an ~/.ssh/config alias; IPv6 without brackets
    std::optional<std::uint16_t> port;
    std::string path; // absolute, taken literally (no %-decoding)
};

bool is_remote_spec(std::string_view spec);

// Refuses, before any ssh runs: a control character anywhere, no host, a host or user that
// starts with '-' (ssh would read it as an option), a port out of range, a path that is
// missing or not absolute (`~` included: the far home is not known here).
Result<RemoteAddress> parse_remote_address(std::string_view spec);

// ssh://user@host:port/path, the way it was given (for messages and resume hints).
std::string to_string(const RemoteAddress& address);

// One word for a POSIX shell: as is when it holds only characters no shell treats
// specially, else in single quotes (a quote inside becomes '\'').
std::string shell_quote(std::string_view word);

// What rio-cli says when its link to a far core that had answered is lost: the far core keeps
// the conversation in its session file, and this is the command that picks it up.
std::string far_resume_hint(std::string_view address);

// A command line split into words as a POSIX shell would (quotes, backslashes), without
// running one: no expansion of any kind. For RIO_SSH, as git splits GIT_SSH_COMMAND.
Result<std::vector<std::string>> split_command_line(std::string_view line);

// What the far side runs and how ssh is asked to run it.
struct RemoteLaunch {
    std::string ssh_command = "ssh"; // RIO_SSH, else "ssh"
    std::string core = "rio-core";   // RIO_REMOTE_CORE, else the remote_core setting
    // The core options the frontend was given, passed on to the far core.
    std::string provider, model, mode;
    // Headless frontends and rio-acp: ssh never prompts (BatchMode), gives up on a host
    // that does not answer (ConnectTimeout) and on a connection gone silent (ServerAlive*).
    bool batch = true;
};

// The far shell's command: `CORE --stdio --project PATH [--provider P] [--model M]
// [--mode M]`, every word quoted. A core given as ~/… keeps its `~/` unquoted so the far
// shell finds it in the far home.
std::string far_command(const RemoteAddress& address, const RemoteLaunch& launch);

// The local argv: RIO_SSH's words, -T, the batch options, -p/-l, `--`, host, far command.
Result<std::vector<std::string>> ssh_argv(const RemoteAddress& address, const RemoteLaunch& launch);

// The provider keys' variables (ANTHROPIC_API_KEY, OPENAI_API_KEY): what rio-core reads keys
// from and hides from every program it starts (a unit test holds this list to the
// providers' own).
const std::vector<std::string_view>& provider_key_variables();

// Whether ssh is started without the variable `name`: a provider key (above), or any other
// *_API_KEY. ssh hands its environment to a ProxyCommand, a LocalCommand and, with SendEnv,
// to the far side; none of them needs a model's key, and a key is worth stealing.
bool hidden_from_ssh(std::string_view name);

// `env` ("NAME=value" entries, null-terminated as `environ` is) without what
// hidden_from_ssh names: the environment rio-cli, rio-acp and the desktop start ssh with.
std::vector<std::string> ssh_environment(const char* const* env);

// RIO_REMOTE_CORE, else `remote_core` in the user's config.json, else "rio-core".
std::string configured_remote_core(const std::string& settings_file);
// A launch with RIO_SSH's command and configured_remote_core; the frontend adds its options.
RemoteLaunch configured_remote_launch(const std::string& settings_file);

// Why a connection over ssh ended before the far core answered, each with its own message
// and (in rio-cli) exit code (decision 0060).
enum class RemoteFailure {
    host_unreachable, // unknown name, refused, timed out, no route
    auth_refused,     // Permission denied
    host_key,         // not in known_hosts, or changed
    core_missing,     // the far shell found no such program
    version_mismatch, // session.hello's protocol differs
    other,
};

struct RemoteProblem {
    RemoteFailure kind = RemoteFailure::other;
    std::string message;
};

// From ssh's exit status (-1: unknown) and what it (and the far side) wrote on stderr.
RemoteProblem classify_ssh_exit(const RemoteAddress& address, const RemoteLaunch& launch,
                                int exit_status, std::string_view ssh_stderr);

} // namespace rio::client
