#include "host/sandbox/landlock.hpp"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif

namespace rio {
namespace {

constexpr std::uint64_t fs_execute = 1ULL << 0;
constexpr std::uint64_t fs_write_file = 1ULL << 1;
constexpr std::uint64_t fs_read_file = 1ULL << 2;
constexpr std::uint64_t fs_read_dir = 1ULL << 3;
// 4..12: remove_dir, remove_file, make_char, make_dir, make_reg, make_sock, make_fifo,
// make_block, make_sym.
constexpr std::uint64_t fs_abi1 = (1ULL << 13) - 1;
constexpr std::uint64_t fs_refer = 1ULL << 13;     // ABI 2
constexpr std::uint64_t fs_truncate = 1ULL << 14;  // ABI 3
constexpr std::uint64_t fs_ioctl_dev = 1ULL << 15; // ABI 5
// What a rule on a file (not a folder) may carry.
constexpr std::uint64_t fs_file_rights =
    fs_execute | fs_write_file | fs_read_file | fs_truncate | fs_ioctl_dev;

constexpr std::uint64_t net_bind_tcp = 1ULL << 0;    // ABI 4
constexpr std::uint64_t net_connect_tcp = 1ULL << 1; // ABI 4

constexpr std::uint64_t scope_abstract_unix_socket = 1ULL << 0; // ABI 6
constexpr std::uint64_t scope_signal = 1ULL << 1;               // ABI 6

constexpr std::uint32_t create_ruleset_version = 1U << 0;
constexpr int rule_path_beneath = 1;

struct RulesetAttr {
    std::uint64_t handled_access_fs = 0;
    std::uint64_t handled_access_net = 0; // ABI 4
    std::uint64_t scoped = 0;             // ABI 6
};

struct __attribute__((packed)) PathBeneathAttr {
    std::uint64_t allowed_access = 0;
    std::int32_t parent_fd = -1;
};

std::uint64_t handled_fs(int abi) {
    std::uint64_t rights = fs_abi1;
    if (abi >= 2) rights |= fs_refer;
    if (abi >= 3) rights |= fs_truncate;
    if (abi >= 5) rights |= fs_ioctl_dev;
    return rights;
}

// The ruleset attribute's size the kernel of that ABI knows: older ones refuse a longer one
// with non-zero fields it cannot honour.
std::size_t attr_size(int abi) {
    if (abi >= 6) return sizeof(RulesetAttr);
    if (abi >= 4) return offsetof(RulesetAttr, scoped);
    return offsetof(RulesetAttr, handled_access_net);
}

std::uint64_t rights_of(GrantRight right, std::uint64_t handled) {
    switch (right) {
    case GrantRight::read:
        return fs_execute | fs_read_file | fs_read_dir;
    case GrantRight::list:
        return fs_read_dir;
    case GrantRight::write:
        return handled;
    case GrantRight::device:
        return fs_read_file | fs_write_file | fs_truncate;
    }
    return 0;
}

Error failed(const std::string& what) {
    return make_error(ErrorCode::io_error, what + ": " + std::strerror(errno));
}

} // namespace

int landlock_abi() {
    long abi = ::syscall(SYS_landlock_create_ruleset, nullptr, 0, create_ruleset_version);
    return abi >= 1 ? static_cast<int>(abi) : -errno;
}

std::string landlock_missing(int abi) {
    if (abi == -ENOSYS)
        return "this kernel has no Landlock (Linux 5.13 or later with CONFIG_SECURITY_LANDLOCK "
               "has it)";
    if (abi == -EOPNOTSUPP)
        return "Landlock is built into this kernel but not enabled (add landlock to the lsm= "
               "boot parameter)";
    return std::string("Landlock cannot be used: ") + std::strerror(-abi);
}

Result<UniqueFd> landlock_ruleset(const std::vector<Grant>& grants, const SandboxPolicy& policy,
                                  int abi) {
    RulesetAttr attr;
    attr.handled_access_fs = handled_fs(abi);
    if (abi >= 4 && !policy.network && policy.hosts.empty())
        attr.handled_access_net = net_bind_tcp | net_connect_tcp;
    if (abi >= 6) attr.scoped = scope_signal | (policy.network ? 0 : scope_abstract_unix_socket);
    UniqueFd ruleset(
        static_cast<int>(::syscall(SYS_landlock_create_ruleset, &attr, attr_size(abi), 0U)));
    if (ruleset.fd < 0) return failed("cannot create a Landlock ruleset");

    for (const Grant& grant : grants) {
        std::uint64_t rights = rights_of(grant.right, attr.handled_access_fs) &
                               attr.handled_access_fs & (grant.folder ? ~0ULL : fs_file_rights);
        if (rights == 0) continue;
        // A grant that cannot be made leaves its path out of reach, which is safe; only the
        // project and the TMPDIR must be there (what the walk listed may have moved on).
        UniqueFd path(::open(grant.path.c_str(), O_PATH | O_CLOEXEC | O_NOFOLLOW));
        PathBeneathAttr beneath{rights, path.fd};
        if (path.fd >= 0 &&
            ::syscall(SYS_landlock_add_rule, ruleset.fd, rule_path_beneath, &beneath, 0U) == 0)
            continue;
        if (grant.required)
            return failed("no Landlock rule is possible for " + grant.path.string());
    }
    return ruleset;
}

int landlock_grant_beneath(int ruleset_fd, const char* path, int abi) {
    int fd = ::open(path, O_PATH | O_CLOEXEC | O_NOFOLLOW | O_DIRECTORY);
    if (fd < 0) return errno;
    PathBeneathAttr beneath{handled_fs(abi), fd};
    int err = ::syscall(SYS_landlock_add_rule, ruleset_fd, rule_path_beneath, &beneath, 0U) == 0
                  ? 0
                  : errno;
    ::close(fd);
    return err;
}

int landlock_restrict(int ruleset_fd) {
    return ::syscall(SYS_landlock_restrict_self, ruleset_fd, 0U) == 0 ? 0 : errno;
}

} // namespace rio
