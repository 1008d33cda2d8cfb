// Starting a program the way every child of rio starts: posix_spawnp without a shell, in its
// own session (and so its own process group), signal dispositions reset, nothing but the
// three given descriptors inherited, and a pidfd to await its exit on the loop. The process
// runner (one-shot commands) and the piped process (MCP servers) both start children here.
#pragma once

#include "host/sandbox/sandbox_policy.hpp"
#include "protocol/error.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace rio {

struct SpawnSpec {
    std::vector<std::string> argv; // argv[0] is looked up on PATH
    std::filesystem::path cwd;     // must exist
    // "NAME=value" entries; nullopt inherits this process's environment.
    std::optional<std::vector<std::string>> env;
    // The child's stdin, stdout and stderr; -1 gives it /dev/null there.
    int stdin_fd = -1, stdout_fd = -1, stderr_fd = -1;
    // Confined by the sandbox between fork and exec (host/sandbox/sandboxed_spawn.hpp); a
    // sandbox that cannot be entered is an error, the program never runs without it.
    std::optional<SandboxPolicy> sandbox{};
};

struct SpawnedProcess {
    pid_t pid = -1; // also its process group and session id
    int pidfd = -1; // readable once it exits; the caller owns it
};

// Errors say which: "no such program: x", "no such folder: …", "cannot start x: …".
Result<SpawnedProcess> spawn_process(const SpawnSpec& spec);

struct ReapedExit {
    int exit_code = -1; // when it exited normally
    int signal = 0;     // the signal that ended it, otherwise 0
};

// Reaps a child its pidfd says has exited, without blocking.
ReapedExit reap_exited(pid_t pid);

} // namespace rio
