// A sandboxed command's own mount namespace (DESIGN §19, decision 0080). Landlock grants
// whole hierarchies, so on its own it cannot let a command create `build/` at the project's
// top level and still keep `.git/` read-only (decision 0041's split). In a mount namespace
// of the command's own, `.git/` and `.rio/` are bound read-only, and Landlock then grants
// the whole project. The private TMPDIR becomes a bounded tmpfs there too.
//
// Like the rest of the sandbox it comes in two halves: the parent works out what to mount
// (strings, flags, folders made), the child between clone and exec only makes syscalls:
// unshare, its own uid and gid maps (a user namespace when it is not root), private
// propagation, the binds, the tmpfs.
//
// A command allowed some hosts only (issue 45) gets a network namespace too: its loopback is
// brought up, a listener made on it for rio's proxy, and that listener handed to the parent
// through a socket pair. The proxy runs in the core, outside; inside there is nothing else.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace rio {

// How a command can get a mount namespace here: none; root's own (unshare(CLONE_NEWNS),
// with CAP_SYS_ADMIN); or inside a user namespace of its own (unprivileged).
enum class NamespaceKind { none, mount, user_and_mount };

struct NamespaceSupport {
    NamespaceKind kind = NamespaceKind::none;
    std::string reason; // why there is none, "" when there is one
};

// Tried once, in a throwaway child, the first time it is asked (then remembered): whether
// this process's commands can have a mount namespace, bind a folder read-only and mount a
// tmpfs in it.
const NamespaceSupport& namespace_support();

// A place bound read-only onto itself: the bind, then a remount that keeps the flags the
// mount it lies on has (in a user namespace they are locked, and a remount dropping them is
// refused).
struct ReadOnlyBind {
    std::string path;
    unsigned long remount_flags = 0; // MS_BIND | MS_REMOUNT | MS_RDONLY | the kept ones
};

struct PreparedNamespace {
    NamespaceKind kind = NamespaceKind::none;
    std::string uid_map, gid_map; // "uid uid 1": the same ids, so files stay the user's
    std::vector<ReadOnlyBind> binds;
    std::string tmpfs_path;    // "" for none
    std::string tmpfs_options; // "size=…,nr_inodes=…,mode=0700"
    // A network namespace of its own whose only way out is the proxy's listener at
    // 127.0.0.1:proxy_port, sent through proxy_channel (a Unix socket) as SCM_RIGHTS.
    bool network = false;
    int proxy_channel = -1;
    std::uint16_t proxy_port = 0;
};

// The flags a remount of a bind of `path` must keep (nosuid, nodev, noexec, atime ones).
unsigned long kept_mount_flags(const std::filesystem::path& path);

// What enter_namespace() was doing when a syscall failed.
enum class NamespaceStep : int {
    none,
    user_namespace,
    id_maps,
    mount_namespace,
    private_propagation,
    bind,
    read_only,
    tmpfs,
    tmpfs_rule,
    loopback,
    proxy_listener,
    proxy_handoff
};
const char* to_string(NamespaceStep step);

struct NamespaceFailure {
    NamespaceStep step = NamespaceStep::none;
    int error = 0;         // errno
    std::size_t which = 0; // the bind that failed, for bind and read_only
};

// Enters the namespace and mounts what `ns` says. Bare syscalls on memory the parent made:
// safe in a child that shares its parent's memory until it execs.
NamespaceFailure enter_namespace(const PreparedNamespace& ns);

} // namespace rio
