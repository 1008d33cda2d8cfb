// Whether commands can run sandboxed here, said once when the core starts (agent.status's
// `sandbox`): the kernel's Landlock ABI and seccomp. Without Landlock there is no sandbox at
// all; an older ABI is a sandbox with fewer guarantees, made up for where seccomp can
// (host/sandbox/landlock.hpp).
#pragma once

#include <string>

namespace rio {

struct SandboxSupport {
    bool available = false;
    int abi = 0;        // the kernel's Landlock ABI, 0 without Landlock
    std::string reason; // why it is not available, "" when it is
};

SandboxSupport probe_sandbox();

} // namespace rio
