// The seccomp filter of a sandboxed command (libseccomp): what Landlock does not cover, or
// does not cover on an older ABI. Everything not named here is allowed; the names are the
// ways out a command could take without a path Landlock checks:
//
//   always         io_uring (its operations bypass seccomp), ptrace, process_vm_readv/writev,
//                  pidfd_getfd, process_madvise; ioctl TIOCSTI and TIOCLINUX (typing into a
//                  terminal); the kernel keyrings; prlimit on another process; System V
//                  IPC and POSIX message queues (other processes' objects, no path)
//   no network     socket() of every family (AF_UNIX included: the core's own socket, D-Bus
//                  and systemd-run, docker.sock); socketpair() stays
//   read-only      chmod, chown, utimes, extended attributes and the inode-flag ioctls:
//                  Landlock has no right for metadata, so in plan mode they are refused
//   ABI < 3        truncate(2), a read-only open with O_TRUNC, openat2 (flags out of reach)
//   ABI < 6        signals to the guarded processes, their groups and -1; tkill and
//                  pidfd_send_signal outright
#pragma once

#include "host/sandbox/sandbox_policy.hpp"
#include "protocol/error.hpp"

#include <linux/filter.h>
#include <vector>

namespace rio {

// The filter as a BPF program, compiled in the parent; `abi` is the Landlock ABI in use.
Result<std::vector<sock_filter>> syscall_filter(const SandboxPolicy& policy, int abi);

// Loads `program` into the calling task; it stays for what it execs. A bare syscall, safe
// between fork and exec. Without SECCOMP_FILTER_FLAG_SPEC_ALLOW a kernel in its default
// spec_store_bypass_disable=seccomp mode would turn on the Speculative Store Bypass
// mitigation for the command, which guards secrets inside one address space (a JIT's
// sandbox) and slows the command's own code; a command shares no address space with rio
// (decision 0041). 0, or an errno.
int load_syscall_filter(const std::vector<sock_filter>& program);

} // namespace rio
