#include "host/sandbox/syscall_filter.hpp"

#include "io/unique_fd.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <memory>
#include <seccomp.h>
#include <set>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SECCOMP_FILTER_FLAG_SPEC_ALLOW
#define SECCOMP_FILTER_FLAG_SPEC_ALLOW (1UL << 2)
#endif

namespace rio {
namespace {

// Syscalls newer than Debian 12's headers carry the same number on every architecture
// (the table was unified at 424), so a name libseccomp does not know yet is still filtered.
struct Syscall {
    const char* name;
    int generic_number = -1;
};

int number_of(const Syscall& call) {
    int nr = ::seccomp_syscall_resolve_name(call.name);
    return nr != __NR_SCMP_ERROR ? nr : call.generic_number;
}

constexpr std::uint32_t refuse = SCMP_ACT_ERRNO(EPERM);

Error failed(int rc) {
    return make_error(ErrorCode::io_error,
                      std::string("cannot make the seccomp filter: ") + std::strerror(-rc));
}
constexpr std::uint64_t low32 = 0xffffffffULL;

// ioctl requests, as the kernel compares them (the low 32 bits).
constexpr std::uint64_t tiocsti = 0x5412, tioclinux = 0x541c;
constexpr std::uint64_t fs_ioc_setflags = 0x40086602, fs_ioc32_setflags = 0x40046602,
                        fs_ioc_setversion = 0x40087602, fs_ioc32_setversion = 0x40047602,
                        fs_ioc_fssetxattr = 0x401c5820;

class Filter {
public:
    Filter() : ctx_(::seccomp_init(SCMP_ACT_ALLOW), ::seccomp_release) {}

    bool ok() const { return ctx_ != nullptr && error_ == 0; }
    int error() const { return ctx_ ? error_ : -ENOMEM; } // -errno
    scmp_filter_ctx get() const { return ctx_.get(); }

    // Refuses `call` outright, or when the argument comparisons all hold.
    template <typename... Args>
    void deny(const Syscall& call, std::uint32_t action, Args... conditions) {
        int nr = number_of(call);
        if (!ctx_ || nr < 0 || error_ != 0) return;
        int rc = ::seccomp_rule_add(ctx_.get(), action, nr, sizeof...(conditions), conditions...);
        // -EEXIST: the same rule again (two guarded processes in one group, say).
        if (rc != 0 && rc != -EEXIST) error_ = rc;
    }

private:
    std::unique_ptr<void, void (*)(scmp_filter_ctx)> ctx_;
    int error_ = 0;
};

void deny_ways_out(Filter& f) {
    for (Syscall call : {Syscall{"io_uring_setup", 425}, Syscall{"io_uring_enter", 426},
                         Syscall{"io_uring_register", 427}})
        f.deny(call, SCMP_ACT_ERRNO(ENOSYS)); // so that runtimes fall back to plain syscalls
    for (Syscall call : {Syscall{"ptrace"},
                         Syscall{"process_vm_readv"},
                         Syscall{"process_vm_writev"},
                         Syscall{"pidfd_getfd", 438},
                         Syscall{"process_madvise", 440},
                         Syscall{"keyctl"},
                         Syscall{"add_key"},
                         Syscall{"request_key"},
                         Syscall{"shmget"},
                         Syscall{"shmat"},
                         Syscall{"shmctl"},
                         Syscall{"msgget"},
                         Syscall{"msgsnd"},
                         Syscall{"msgrcv"},
                         Syscall{"msgctl"},
                         Syscall{"semget"},
                         Syscall{"semop"},
                         Syscall{"semtimedop"},
                         Syscall{"semctl"},
                         Syscall{"mq_open"},
                         Syscall{"mq_unlink"}})
        f.deny(call, refuse);
    for (std::uint64_t request : {tiocsti, tioclinux})
        f.deny({"ioctl"}, refuse, SCMP_A1(SCMP_CMP_MASKED_EQ, low32, request));
    // Its own limits (pid 0) a command may lower; the core's are not its to touch.
    f.deny({"prlimit64"}, refuse, SCMP_A0(SCMP_CMP_NE, 0, 0));
}

void deny_metadata_changes(Filter& f) {
    for (Syscall call : {Syscall{"chmod"},
                         Syscall{"fchmod"},
                         Syscall{"fchmodat"},
                         Syscall{"fchmodat2", 452},
                         Syscall{"chown"},
                         Syscall{"fchown"},
                         Syscall{"lchown"},
                         Syscall{"fchownat"},
                         Syscall{"utime"},
                         Syscall{"utimes"},
                         Syscall{"futimesat"},
                         Syscall{"utimensat"},
                         Syscall{"setxattr"},
                         Syscall{"lsetxattr"},
                         Syscall{"fsetxattr"},
                         Syscall{"removexattr"},
                         Syscall{"lremovexattr"},
                         Syscall{"fremovexattr"},
                         Syscall{"setxattrat", 463},
                         Syscall{"removexattrat", 466},
                         Syscall{"file_setattr", 469}})
        f.deny(call, refuse);
    for (std::uint64_t request : {fs_ioc_setflags, fs_ioc32_setflags, fs_ioc_setversion,
                                  fs_ioc32_setversion, fs_ioc_fssetxattr})
        f.deny({"ioctl"}, refuse, SCMP_A1(SCMP_CMP_MASKED_EQ, low32, request));
}

// Landlock before ABI 3 does not see truncation. O_TRUNC on a write open needs the write
// right Landlock does check; on a read-only open it would not.
void deny_truncation(Filter& f) {
    const std::uint64_t mask = O_ACCMODE | O_TRUNC, read_trunc = O_RDONLY | O_TRUNC;
    f.deny({"truncate"}, SCMP_ACT_ERRNO(EACCES));
    f.deny({"open"}, SCMP_ACT_ERRNO(EACCES), SCMP_A1(SCMP_CMP_MASKED_EQ, mask, read_trunc));
    f.deny({"openat"}, SCMP_ACT_ERRNO(EACCES), SCMP_A2(SCMP_CMP_MASKED_EQ, mask, read_trunc));
    f.deny({"openat2", 437}, SCMP_ACT_ERRNO(ENOSYS)); // its flags are behind a pointer
}

// Landlock before ABI 6 does not scope signals: the processes that matter are named.
void guard_processes(Filter& f, const SandboxPolicy& policy) {
    std::set<std::uint64_t> targets{static_cast<std::uint32_t>(-1)};
    for (pid_t pid : policy.guarded) {
        targets.insert(static_cast<std::uint32_t>(pid));
        targets.insert(static_cast<std::uint32_t>(-pid));
        if (pid_t group = ::getpgid(pid); group > 0)
            targets.insert(static_cast<std::uint32_t>(-group));
    }
    for (std::uint64_t target : targets)
        for (Syscall call : {Syscall{"kill"}, Syscall{"tgkill"}, Syscall{"rt_sigqueueinfo"},
                             Syscall{"rt_tgsigqueueinfo"}, Syscall{"pidfd_open", 434}})
            f.deny(call, refuse, SCMP_A0(SCMP_CMP_MASKED_EQ, low32, target));
    f.deny({"tkill"}, refuse);
    f.deny({"pidfd_send_signal", 424}, refuse);
}

// A command allowed some hosts reaches them over TCP through the proxy in its own network
// namespace, and resolves nothing (the proxy does): IP sockets, and netlink, which stays in that
// namespace too. A Unix socket's path reaches past the namespace — a Docker daemon, an ssh
// agent, rio's own socket — so it is refused as without the network; so is every other family.
void deny_other_families(Filter& f) {
    // The kernel reads the family as an int and refuses any at or past AF_MAX itself; the low
    // 32 bits are compared, as the kernel sees them, whatever the register's upper half holds.
    constexpr std::uint64_t families = 64; // past AF_MAX (46 in Linux 6.x), room to grow
    for (std::uint64_t family = 0; family < families; ++family)
        if (family != AF_INET && family != AF_INET6 && family != AF_NETLINK)
            f.deny({"socket"}, SCMP_ACT_ERRNO(EACCES), SCMP_A0(SCMP_CMP_MASKED_EQ, low32, family));
}

} // namespace

Result<std::vector<sock_filter>> syscall_filter(const SandboxPolicy& policy, int abi) {
    Filter f;
    // A 32-bit or x32 syscall would be numbered differently and slip past the rules.
    if (f.get()) ::seccomp_attr_set(f.get(), SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
    deny_ways_out(f);
    if (!policy.network && policy.hosts.empty()) f.deny({"socket"}, SCMP_ACT_ERRNO(EACCES));
    if (!policy.network && !policy.hosts.empty()) deny_other_families(f);
    if (policy.profile == SandboxProfile::read_only) deny_metadata_changes(f);
    if (abi < 3) deny_truncation(f);
    if (abi < 6) guard_processes(f, policy);
    if (!f.ok()) return failed(f.error());
    // libseccomp writes the program to a descriptor only (2.5); a memfd holds it.
    UniqueFd memory(::memfd_create("rio-seccomp", MFD_CLOEXEC));
    if (memory.fd < 0) return failed(-errno);
    if (int rc = ::seccomp_export_bpf(f.get(), memory.fd); rc != 0) return failed(rc);
    off_t size = ::lseek(memory.fd, 0, SEEK_END);
    std::vector<sock_filter> program(static_cast<std::size_t>(size) / sizeof(sock_filter));
    if (size <= 0 ||
        ::pread(memory.fd, program.data(), program.size() * sizeof(sock_filter), 0) != size)
        return failed(-EIO);
    return program;
}

int load_syscall_filter(const std::vector<sock_filter>& program) {
    sock_fprog prog{static_cast<unsigned short>(program.size()),
                    const_cast<sock_filter*>(program.data())};
    return ::syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_SPEC_ALLOW, &prog) ==
                   0
               ? 0
               : errno;
}

} // namespace rio
