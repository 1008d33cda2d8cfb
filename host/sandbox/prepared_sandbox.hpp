// The sandbox in two halves (DESIGN §19, decision 0041). The parent (rio-core) prepares
// everything that needs memory, folders or libraries: the grants walked, the Landlock
// ruleset made, the seccomp program compiled, the limits worked out. The child, between fork
// and exec in a copy of a multi-threaded process, then only makes bare syscalls:
// its mount namespace (host/sandbox/mount_namespace.hpp), then no_new_privs, the limits, no
// capabilities, Landlock, seccomp — each failure fails it all.
#pragma once

#include "host/sandbox/mount_namespace.hpp"
#include "host/sandbox/sandbox_policy.hpp"
#include "io/unique_fd.hpp"
#include "protocol/error.hpp"

#include <cstdint>
#include <linux/filter.h>
#include <vector>

namespace rio {

struct PreparedSandbox {
    int abi = 0; // the Landlock ABI in use
    UniqueFd ruleset{-1};
    std::vector<sock_filter> filter;
    std::uint64_t cpu_seconds = 0, file_bytes = 0, processes = 0; // 0: left as it is
    std::uint64_t data_bytes = 0; // RLIMIT_DATA where no cgroup holds the memory; 0: as it is
    std::vector<UniqueFd> cgroup_procs{}; // written "0" by the child: it joins its cgroup
    // The command's own mount namespace, entered before confine_self() (kind none: none).
    PreparedNamespace ns{};
    // Under workspace-write: whether the project's top level is split (decision 0041) rather
    // than written whole with .git/ and .rio/ bound read-only (decision 0080), and why.
    bool top_level_split = false;
    std::string split_reason{};
};

Result<PreparedSandbox> prepare_sandbox(const SandboxPolicy& policy);

// What confine_self() was doing when a syscall failed.
enum class ConfineStep : int { none, no_new_privs, limits, capabilities, landlock, seccomp };
const char* to_string(ConfineStep step);

struct ConfineFailure {
    ConfineStep step = ConfineStep::none;
    int error = 0; // errno
};

// Confines the calling task for good. Only syscalls on memory the parent prepared: safe in a
// child that shares the parent's memory (vfork) until it execs.
ConfineFailure confine_self(const PreparedSandbox& sandbox);

} // namespace rio
