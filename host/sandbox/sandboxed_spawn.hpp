// Starting a program in the sandbox (DESIGN §19, decision 0041): rio's process runner comes
// here instead of to posix_spawn when a command is to run sandboxed. The parent prepares the
// sandbox (host/sandbox/prepared_sandbox.hpp); a child that shares its memory until it execs
// (clone with CLONE_VM | CLONE_VFORK, as glibc's posix_spawn does) puts itself in its own
// session, takes its descriptors and folder, confines itself and execs. A child that cannot
// confine itself never execs: the caller gets why.
#pragma once

#include "host/sandbox/sandbox_policy.hpp"
#include "protocol/error.hpp"

#include <filesystem>
#include <string>
#include <sys/types.h>
#include <vector>

namespace rio {

struct SandboxedStart {
    std::vector<std::string> argv; // argv[0] is looked up on the environment's PATH
    std::filesystem::path cwd;
    std::vector<std::string> env;
    int stdin_fd = -1, stdout_fd = -1, stderr_fd = -1; // -1: /dev/null
    SandboxPolicy policy;
};

struct SandboxedProcess {
    pid_t pid = -1; // also its process group and session id
    int pidfd = -1; // readable once it exits; the caller owns it
};

// "no such program: x"; "the sandbox could not be set up: …" (refused); "cannot start x: …".
Result<SandboxedProcess> spawn_sandboxed(const SandboxedStart& start);

} // namespace rio
