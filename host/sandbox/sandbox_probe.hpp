// Whether commands can run sandboxed here, said once when the core starts (agent.status's
// `sandbox`): the kernel's Landlock ABI and seccomp. Without Landlock there is no sandbox at
// all; an older ABI is a sandbox with fewer guarantees, made up for where seccomp can
// (host/sandbox/landlock.hpp). Where it is available, whether commands can also have a
// mount namespace of their own (one throwaway child tries).
#pragma once

#include "host/sandbox/command_cgroup.hpp"
#include "host/sandbox/mount_namespace.hpp"

#include <string>

namespace rio {

struct SandboxSupport {
    bool available = false;
    int abi = 0;        // the kernel's Landlock ABI, 0 without Landlock
    std::string reason; // why it is not available, "" when it is
    // Whether commands can have a mount namespace of their own (decision 0080), and why not.
    NamespaceSupport namespaces{};
    // Whether each command can have a cgroup of its own (issue 42), and why not.
    CgroupSupport cgroups{};
};

SandboxSupport probe_sandbox();

} // namespace rio
