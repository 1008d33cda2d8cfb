// Landlock (Documentation/userspace-api/landlock.rst), by the ABI this kernel offers. Its
// constants are spelled out here rather than taken from <linux/landlock.h>: Debian 12's
// headers stop at ABI 3, and the values are the kernel's stable interface.
//
// What each ABI adds, and how a missing one is made up for (host/sandbox/syscall_filter):
//   1  files: read, write, execute, list, create, remove. Moving a file between folders is
//      always refused (EXDEV; mv copies instead).
//   2  `refer`: moving and linking between folders where both allow it.
//   3  `truncate`: below it truncate(2) and O_TRUNC on a read-only open are refused by seccomp.
//   4  TCP bind and connect: refused when the command has no network (seccomp refuses the
//      socket itself anyway, on every ABI). A command allowed some hosts is not held here:
//      its own network namespace holds it (issue 45).
//   5  `ioctl_dev`: ioctl on devices; below it seccomp still refuses TIOCSTI.
//   6  scoped signals and abstract Unix sockets: below it seccomp refuses signals to the
//      guarded processes (the core) and to everything (-1).
//   7  denial logging flags: nothing to enforce.
#pragma once

#include "host/sandbox/sandbox_grants.hpp"
#include "host/sandbox/sandbox_policy.hpp"
#include "io/unique_fd.hpp"
#include "protocol/error.hpp"

#include <vector>

namespace rio {

// The highest ABI the kernel offers (>= 1), or -errno: -ENOSYS when it has no Landlock,
// -EOPNOTSUPP when Landlock is built in but not enabled at boot.
int landlock_abi();

// Why Landlock cannot be used, in words, for a landlock_abi() result below 1.
std::string landlock_missing(int abi);

// A ruleset of `grants`, handling every right the `abi` knows, network and scopes as the
// policy says: made in the parent, entered by the child with landlock_restrict().
Result<UniqueFd> landlock_ruleset(const std::vector<Grant>& grants, const SandboxPolicy& policy,
                                  int abi);

// Adds to `ruleset_fd` every right of `abi` on `path` and what lies below it: for a folder
// mounted after the ruleset was made (the TMPDIR's tmpfs), since a rule on the folder a mount
// covers does not reach into the mount. A bare syscall, safe between fork and exec. 0, or an
// errno.
int landlock_grant_beneath(int ruleset_fd, const char* path, int abi);

// Restricts the calling task (and what it execs) to the ruleset: a bare syscall, safe between
// fork and exec. no_new_privs must be set already. 0, or an errno.
int landlock_restrict(int ruleset_fd);

} // namespace rio
