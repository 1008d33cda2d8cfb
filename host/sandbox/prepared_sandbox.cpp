#include "host/sandbox/prepared_sandbox.hpp"

#include "host/sandbox/landlock.hpp"
#include "host/sandbox/sandbox_grants.hpp"
#include "host/sandbox/syscall_filter.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <linux/capability.h>
#include <string_view>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace rio {
namespace {

// Every task on the system, from /proc/loadavg's "running/total": RLIMIT_NPROC counts all of
// the user's tasks, not the command's, so the limit is set above what already runs.
std::uint64_t tasks_running() {
    char text[256] = {};
    int fd = ::open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    ssize_t n = ::read(fd, text, sizeof text - 1);
    ::close(fd);
    const char* slash = n > 0 ? std::strchr(text, '/') : nullptr;
    return slash ? std::strtoull(slash + 1, nullptr, 10) : 0;
}

// Lowers a limit, never raises one: a limit already lower stays.
int lower_limit(int resource, std::uint64_t soft, std::uint64_t hard) {
    rlimit current{};
    if (::getrlimit(resource, &current) != 0) return errno;
    rlimit wanted{std::min<rlim_t>(soft, current.rlim_max),
                  std::min<rlim_t>(hard, current.rlim_max)};
    return ::setrlimit(resource, &wanted) == 0 ? 0 : errno;
}

int set_limits(const PreparedSandbox& s) {
    int err = lower_limit(RLIMIT_CORE, 0, 0);
    // SIGXCPU at the soft limit, SIGKILL a second later for what ignores it.
    if (!err && s.cpu_seconds) err = lower_limit(RLIMIT_CPU, s.cpu_seconds, s.cpu_seconds + 1);
    if (!err && s.file_bytes) err = lower_limit(RLIMIT_FSIZE, s.file_bytes, s.file_bytes);
    if (!err && s.processes) err = lower_limit(RLIMIT_NPROC, s.processes, s.processes);
    if (!err && s.data_bytes) err = lower_limit(RLIMIT_DATA, s.data_bytes, s.data_bytes);
    return err;
}

// Root's commands keep uid 0 but no capability: no DAC override, no raw sockets, no module
// loading; the empty bounding set keeps exec from granting them back. For anyone else the
// bounding set cannot be changed (EPERM, ignored) and there is nothing to drop.
int drop_capabilities() {
    for (int cap = 0; cap <= 63; ++cap)
        if (::prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EPERM) break;
    ::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct none[2]{};
    return ::syscall(SYS_capset, &header, none) == 0 ? 0 : errno;
}

std::string id_map(unsigned id) {
    return std::to_string(id) + " " + std::to_string(id) + " 1\n";
}

// A protected place of the project bound read-only in the namespace, or why it cannot be.
// Only a real folder or file is bound: a symbolic link could be replaced by the command (the
// link itself is not the mount), and an absent .git has no place to bind onto. An absent .rio
// is made, empty: it is rio's own folder (plans go there), and it exists to be bound.
std::string bind_place(const std::filesystem::path& place, bool make,
                       std::vector<ReadOnlyBind>& binds) {
    struct stat st {};
    if (::lstat(place.c_str(), &st) != 0 && errno == ENOENT && make &&
        ::mkdir(place.c_str(), 0755) == 0)
        ::lstat(place.c_str(), &st);
    if (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode)) {
        binds.push_back({place.string(), kept_mount_flags(place)});
        return {};
    }
    std::string name = place.filename().string();
    if (st.st_mode == 0) return "the project has no " + name + " to bind read-only";
    if (S_ISLNK(st.st_mode)) return name + " is a symbolic link";
    return name + " is neither a folder nor a file";
}

// The command's mount namespace, where it is to have one and the system offers it. The
// places bound read-only are added to `bound`.
PreparedNamespace prepared_namespace(const SandboxPolicy& policy, PreparedSandbox& s,
                                     std::vector<std::filesystem::path>& bound) {
    PreparedNamespace ns;
    const NamespaceSupport& support = namespace_support();
    const bool own_network = !policy.hosts.empty();
    if (!policy.mount_namespace || support.kind == NamespaceKind::none) {
        s.top_level_split = true;
        s.split_reason =
            policy.mount_namespace ? support.reason : "no mount namespace was asked for";
        if (!own_network || support.kind == NamespaceKind::none) return ns;
    }
    ns.kind = support.kind;
    ns.uid_map = id_map(::geteuid());
    ns.gid_map = id_map(::getegid());
    ns.network = own_network;
    ns.proxy_channel = policy.proxy_channel;
    ns.proxy_port = command_proxy_port;
    // Asked for the network namespace alone (mount namespaces turned off): nothing is mounted.
    if (!policy.mount_namespace) return ns;
    std::error_code ec;
    std::filesystem::path project = std::filesystem::canonical(policy.project, ec);
    if (policy.profile == SandboxProfile::workspace_write && !ec) {
        for (const char* own : {".git", ".rio"}) {
            std::string why = bind_place(project / own, own == std::string_view(".rio"), ns.binds);
            if (why.empty())
                bound.push_back(project / own);
            else if (!s.top_level_split) {
                s.top_level_split = true;
                s.split_reason = why;
            }
        }
    }
    if (!policy.tmpdir.empty()) {
        ns.tmpfs_path = std::filesystem::canonical(policy.tmpdir, ec).string();
        if (ec) ns.tmpfs_path.clear();
        ns.tmpfs_options = "mode=0700";
        if (policy.tmpdir_bytes) ns.tmpfs_options += ",size=" + std::to_string(policy.tmpdir_bytes);
        if (policy.tmpdir_files)
            ns.tmpfs_options += ",nr_inodes=" + std::to_string(policy.tmpdir_files);
    }
    return ns;
}

} // namespace

Result<PreparedSandbox> prepare_sandbox(const SandboxPolicy& policy) {
    PreparedSandbox s;
    int abi = landlock_abi();
    if (abi < 1) return make_error(ErrorCode::refused, landlock_missing(abi));
    s.abi = policy.max_abi > 0 ? std::min(abi, policy.max_abi) : abi;
    std::vector<std::filesystem::path> bound;
    s.ns = prepared_namespace(policy, s, bound);
    if (!policy.hosts.empty() && !s.ns.network)
        return make_error(ErrorCode::refused, "the network cannot be limited to some hosts here: " +
                                                  namespace_support().reason);
    if (!policy.hosts.empty() && policy.proxy_channel < 0)
        return make_error(ErrorCode::internal, "no channel was made for the command's proxy");
    auto grants = sandbox_grants(policy, bound);
    if (!grants) return grants.error();
    auto ruleset = landlock_ruleset(*grants, policy, s.abi);
    if (!ruleset) return ruleset.error();
    s.ruleset = std::move(*ruleset);
    auto filter = syscall_filter(policy, s.abi);
    if (!filter) return filter.error();
    s.filter = std::move(*filter);
    s.cpu_seconds = policy.cpu_seconds;
    s.file_bytes = policy.file_bytes;
    if (policy.new_processes) s.processes = tasks_running() + policy.new_processes;
    for (const std::filesystem::path& procs : policy.cgroup_procs) {
        UniqueFd fd(::open(procs.c_str(), O_WRONLY | O_CLOEXEC));
        if (fd.fd < 0)
            return make_error(ErrorCode::io_error,
                              "cannot open " + procs.string() + ": " + std::strerror(errno));
        s.cgroup_procs.push_back(std::move(fd));
    }
    if (s.cgroup_procs.empty()) s.data_bytes = policy.memory_bytes;
    return s;
}

const char* to_string(ConfineStep step) {
    switch (step) {
    case ConfineStep::none:
        return "nothing";
    case ConfineStep::no_new_privs:
        return "no_new_privs";
    case ConfineStep::limits:
        return "the resource limits";
    case ConfineStep::capabilities:
        return "dropping capabilities";
    case ConfineStep::landlock:
        return "entering the Landlock domain";
    case ConfineStep::seccomp:
        return "loading the seccomp filter";
    }
    return "?";
}

ConfineFailure confine_self(const PreparedSandbox& s) {
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return {ConfineStep::no_new_privs, errno};
    if (int err = set_limits(s)) return {ConfineStep::limits, err};
    if (int err = drop_capabilities()) return {ConfineStep::capabilities, err};
    if (int err = landlock_restrict(s.ruleset.fd)) return {ConfineStep::landlock, err};
    if (int err = load_syscall_filter(s.filter)) return {ConfineStep::seccomp, err};
    return {};
}

} // namespace rio
