#include "host/sandbox/mount_namespace.hpp"

#include "host/sandbox/descriptor_passing.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

namespace rio {
namespace {

namespace fs = std::filesystem;

int write_file(const char* path, const std::string& text) {
    int fd = ::open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return errno;
    ssize_t n = ::write(fd, text.data(), text.size());
    int err = n == static_cast<ssize_t>(text.size()) ? 0 : n < 0 ? errno : EIO;
    ::close(fd);
    return err;
}

// A kernel switch that keeps unprivileged user namespaces off, where one is set: its words
// are the reason, rather than a bare "Operation not permitted".
std::string userns_switch() {
    auto read_number = [](const char* path) -> long {
        std::ifstream in(path);
        long value = -1;
        return in >> value ? value : -1;
    };
    if (read_number("/proc/sys/kernel/unprivileged_userns_clone") == 0)
        return "unprivileged user namespaces are turned off "
               "(kernel.unprivileged_userns_clone = 0)";
    if (read_number("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") == 1)
        return "AppArmor restricts unprivileged user namespaces "
               "(kernel.apparmor_restrict_unprivileged_userns = 1)";
    if (read_number("/proc/sys/user/max_user_namespaces") == 0)
        return "user namespaces are turned off (user.max_user_namespaces = 0)";
    return {};
}

struct Trial {
    const PreparedNamespace* ns;
    std::string probe; // a file to create in the folder bound read-only
    NamespaceFailure result;
};

constexpr std::size_t trial_stack_size = std::size_t{64} * 1024;

// In the child, sharing the prober's memory until it exits: system calls only. Signals stay
// blocked (the prober blocked them around the clone), so none of its handlers runs here. The
// return is the child's exit (glibc's clone makes the call): an _exit here, [[noreturn]],
// would have ASan check this stack and warn on the core's stderr.
int try_in_child(void* arg) {
    Trial& trial = *static_cast<Trial*>(arg);
    NamespaceFailure f = enter_namespace(*trial.ns);
    if (f.step == NamespaceStep::none) {
        int fd = ::open(trial.probe.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
        if (fd >= 0 || errno != EROFS) f = {NamespaceStep::read_only, fd >= 0 ? 0 : errno, 0};
    }
    trial.result = f;
    return 0;
}

// One try of `kind` in a child: the namespace, a folder bound read-only (a write in it must
// fail with EROFS) and a tmpfs. 0 when all of it works, else the failure.
NamespaceFailure try_namespace(NamespaceKind kind, const fs::path& scratch) {
    PreparedNamespace ns;
    ns.kind = kind;
    ns.uid_map = std::to_string(::geteuid()) + " " + std::to_string(::geteuid()) + " 1\n";
    ns.gid_map = std::to_string(::getegid()) + " " + std::to_string(::getegid()) + " 1\n";
    ns.binds.push_back({(scratch / "ro").string(), kept_mount_flags(scratch)});
    ns.tmpfs_path = (scratch / "tmp").string();
    ns.tmpfs_options = "size=65536,nr_inodes=16,mode=0700";
    Trial trial{&ns, (scratch / "ro/probe").string(), {NamespaceStep::mount_namespace, EIO, 0}};
    // Sharing this memory, not copying it: a fork of the core, threads running, would make
    // every page it then writes a copy (2 ms of its start). CLONE_VFORK: the trial is over
    // when clone returns.
    void* stack = ::mmap(nullptr, trial_stack_size, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (stack == MAP_FAILED) return {NamespaceStep::mount_namespace, errno, 0};
    sigset_t all, old;
    ::sigfillset(&all);
    ::pthread_sigmask(SIG_BLOCK, &all, &old);
    pid_t pid = ::clone(try_in_child, static_cast<char*>(stack) + trial_stack_size,
                        CLONE_VM | CLONE_VFORK | SIGCHLD, &trial);
    int clone_error = errno;
    ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
    ::munmap(stack, trial_stack_size);
    if (pid < 0) return {NamespaceStep::mount_namespace, clone_error, 0};
    while (::waitpid(pid, nullptr, __WALL) < 0 && errno == EINTR) {
    }
    return trial.result;
}

NamespaceSupport probe() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = (base && *base == '/' ? std::string(base) : "/tmp") + "/rio-ns-XXXXXX";
    if (!::mkdtemp(pattern.data()))
        return {NamespaceKind::none,
                std::string("no folder to try a mount namespace in: ") + std::strerror(errno)};
    fs::path scratch = pattern;
    std::error_code ec;
    fs::create_directory(scratch / "ro", ec);
    fs::create_directory(scratch / "tmp", ec);
    NamespaceSupport support;
    std::string why;
    std::vector<NamespaceKind> kinds;
    if (::geteuid() == 0) kinds.push_back(NamespaceKind::mount);
    kinds.push_back(NamespaceKind::user_and_mount);
    for (NamespaceKind kind : kinds) {
        NamespaceFailure f = try_namespace(kind, scratch);
        if (f.step == NamespaceStep::none) {
            support.kind = kind;
            why.clear();
            break;
        }
        if (why.empty() || kind == NamespaceKind::user_and_mount) {
            std::string hint = f.step == NamespaceStep::user_namespace ? userns_switch() : "";
            why = !hint.empty() ? hint
                                : std::string(to_string(f.step)) + " failed: " +
                                      (f.error ? std::strerror(f.error) : "a write got through");
        }
    }
    fs::remove_all(scratch, ec);
    support.reason = why;
    return support;
}

// In the new network namespace, with its capabilities: loopback up (it starts down), then the
// one listener the command's connections can reach, which goes to the parent. The child keeps
// no copy: only the proxy accepts on it.
NamespaceFailure open_proxy_port(const PreparedNamespace& ns) {
    int probe = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (probe < 0) return {NamespaceStep::loopback, errno, 0};
    ifreq lo{};
    std::memcpy(lo.ifr_name, "lo", 3);
    lo.ifr_flags = IFF_UP | IFF_LOOPBACK | IFF_RUNNING;
    int err = ::ioctl(probe, SIOCSIFFLAGS, &lo) == 0 ? 0 : errno;
    ::close(probe);
    if (err) return {NamespaceStep::loopback, err, 0};
    int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (listener < 0) return {NamespaceStep::proxy_listener, errno, 0};
    sockaddr_in at{};
    at.sin_family = AF_INET;
    at.sin_port = htons(ns.proxy_port);
    at.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(listener, reinterpret_cast<sockaddr*>(&at), sizeof at) != 0 ||
        ::listen(listener, 128) != 0) {
        err = errno;
        ::close(listener);
        return {NamespaceStep::proxy_listener, err, 0};
    }
    err = send_descriptor(ns.proxy_channel, listener);
    ::close(listener);
    ::close(ns.proxy_channel);
    return err ? NamespaceFailure{NamespaceStep::proxy_handoff, err, 0} : NamespaceFailure{};
}

} // namespace

const NamespaceSupport& namespace_support() {
    static const NamespaceSupport support = probe();
    return support;
}

unsigned long kept_mount_flags(const fs::path& path) {
    unsigned long flags = MS_BIND | MS_REMOUNT | MS_RDONLY;
    struct statvfs st {};
    if (::statvfs(path.c_str(), &st) != 0) return flags;
    const std::pair<unsigned long, unsigned long> kept[] = {
        {ST_NOSUID, MS_NOSUID},   {ST_NODEV, MS_NODEV},           {ST_NOEXEC, MS_NOEXEC},
        {ST_NOATIME, MS_NOATIME}, {ST_NODIRATIME, MS_NODIRATIME}, {ST_RELATIME, MS_RELATIME},
    };
    for (const auto& [st_flag, ms_flag] : kept)
        if (st.f_flag & st_flag) flags |= ms_flag;
    return flags;
}

const char* to_string(NamespaceStep step) {
    switch (step) {
    case NamespaceStep::none:
        return "nothing";
    case NamespaceStep::user_namespace:
        return "making a user namespace";
    case NamespaceStep::id_maps:
        return "writing the user namespace's uid and gid maps";
    case NamespaceStep::mount_namespace:
        return "making a mount namespace";
    case NamespaceStep::private_propagation:
        return "making mount propagation private";
    case NamespaceStep::bind:
        return "binding a protected place";
    case NamespaceStep::read_only:
        return "making a protected place read-only";
    case NamespaceStep::tmpfs:
        return "mounting the TMPDIR tmpfs";
    case NamespaceStep::tmpfs_rule:
        return "granting the TMPDIR tmpfs in Landlock";
    case NamespaceStep::loopback:
        return "bringing up the network namespace's loopback";
    case NamespaceStep::proxy_listener:
        return "listening for rio's proxy in the network namespace";
    case NamespaceStep::proxy_handoff:
        return "handing the proxy's listener to rio";
    }
    return "?";
}

NamespaceFailure enter_namespace(const PreparedNamespace& ns) {
    if (ns.kind == NamespaceKind::none) return {};
    const int net = ns.network ? CLONE_NEWNET : 0;
    if (ns.kind == NamespaceKind::user_and_mount) {
        if (::unshare(CLONE_NEWUSER | CLONE_NEWNS | net) != 0)
            return {NamespaceStep::user_namespace, errno, 0};
        // setgroups must be denied before an unprivileged process may write its gid_map.
        int err = write_file("/proc/self/setgroups", "deny");
        if (!err) err = write_file("/proc/self/uid_map", ns.uid_map);
        if (!err) err = write_file("/proc/self/gid_map", ns.gid_map);
        if (err) return {NamespaceStep::id_maps, err, 0};
    } else if (::unshare(CLONE_NEWNS | net) != 0) {
        return {NamespaceStep::mount_namespace, errno, 0};
    }
    if (ns.network)
        if (NamespaceFailure f = open_proxy_port(ns); f.step != NamespaceStep::none) return f;
    // Before anything is mounted: nothing done here may reach the namespace it came from.
    if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
        return {NamespaceStep::private_propagation, errno, 0};
    for (std::size_t i = 0; i < ns.binds.size(); ++i) {
        const char* path = ns.binds[i].path.c_str();
        if (::mount(path, path, nullptr, MS_BIND | MS_REC, nullptr) != 0)
            return {NamespaceStep::bind, errno, i};
        if (::mount(nullptr, path, nullptr, ns.binds[i].remount_flags, nullptr) != 0)
            return {NamespaceStep::read_only, errno, i};
    }
    if (!ns.tmpfs_path.empty() && ::mount("rio-tmpdir", ns.tmpfs_path.c_str(), "tmpfs",
                                          MS_NOSUID | MS_NODEV, ns.tmpfs_options.c_str()) != 0)
        return {NamespaceStep::tmpfs, errno, 0};
    return {};
}

} // namespace rio
