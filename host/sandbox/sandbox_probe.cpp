#include "host/sandbox/sandbox_probe.hpp"

#include "host/sandbox/landlock.hpp"

#include <cerrno>
#include <sys/prctl.h>

namespace rio {

SandboxSupport probe_sandbox() {
    SandboxSupport support;
    int abi = landlock_abi();
    support.abi = abi > 0 ? abi : 0;
    if (abi < 1) {
        support.reason = landlock_missing(abi);
        return support;
    }
    // PR_GET_SECCOMP fails with EINVAL only on a kernel built without seccomp.
    if (::prctl(PR_GET_SECCOMP, 0, 0, 0, 0) < 0 && errno == EINVAL) {
        support.reason = "this kernel has no seccomp filters";
        return support;
    }
    support.available = true;
    support.namespaces = namespace_support();
    support.cgroups = cgroup_support();
    return support;
}

} // namespace rio
