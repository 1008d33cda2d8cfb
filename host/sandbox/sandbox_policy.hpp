// What a sandboxed command may do (DESIGN §19): a profile, the project, a private TMPDIR, the
// places hidden from reads, and the limits. The core builds it per command; the process
// runner applies it in the child between fork and exec (host/sandbox/sandboxed_spawn.hpp).
#pragma once

#include "protocol/closed_sets.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

namespace rio {

// SandboxProfile (protocol/closed_sets.hpp, its names there): read_only or workspace_write;
// a policy is never made for none.

// Where rio's proxy listens inside a command's own network namespace: the namespace is the
// command's alone, so the port is always free; a fixed one keeps HTTPS_PROXY the same.
inline constexpr std::uint16_t command_proxy_port = 3128;

struct SandboxPolicy {
    SandboxProfile profile = SandboxProfile::read_only;
    bool network = false; // a person allowed this one command to reach the network
    // Or only these hosts (issue 45): the command gets a network namespace of its own whose one
    // way out is rio's proxy (host/proxy), listening at 127.0.0.1:command_proxy_port inside it.
    // The process runner makes the socket pair whose end `proxy_channel` the child sends that
    // listener through, and runs the proxy. Without a namespace here such a command is refused.
    std::vector<std::string> hosts{};
    int proxy_channel = -1;
    std::filesystem::path project; // readable; writable under workspace-write
    std::filesystem::path tmpdir;  // private to the command, readable and writable
    // Unreadable and unwritable wherever they are, inside the project too: rio's own config,
    // data, state and runtime folders, and (without network) the usual secret places.
    std::vector<std::filesystem::path> hidden;
    // Under read-only, the user's home folder is not read but for `home_reads` (decision
    // 0071): a project in it is read all the same. Empty: nothing is taken out of reads.
    std::filesystem::path home;
    std::vector<std::filesystem::path> home_reads;
    // Processes the command may not signal where Landlock cannot scope signals (ABI < 6):
    // the core, its parent. Their process groups are guarded as well.
    std::vector<pid_t> guarded;
    std::uint64_t cpu_seconds = 0;   // RLIMIT_CPU per process; 0: left as it is
    std::uint64_t file_bytes = 0;    // RLIMIT_FSIZE; 0: left as it is
    std::uint64_t new_processes = 0; // RLIMIT_NPROC above the system's task count; 0: left
    // Run in a mount namespace of its own where the system offers one (namespace_support(),
    // decision 0080): workspace-write then binds .git/ and .rio/ read-only and grants the whole
    // project, its top level included, and the TMPDIR is a tmpfs bounded by the two below.
    bool mount_namespace = false;
    std::uint64_t tmpdir_bytes = 0; // the tmpfs's size=; 0: the kernel's default (half the RAM)
    std::uint64_t tmpdir_files = 0; // its nr_inodes=; 0: the kernel's default
    // Memory and processes of the whole command (issue 42): held by its own cgroup, whose
    // cgroup.procs files the process runner made (host/sandbox/command_cgroup.hpp) and its
    // child joins before anything else; where there is none, memory_bytes bounds each
    // process's data instead (RLIMIT_DATA, not RLIMIT_AS, which V8 and Go reserve past).
    std::uint64_t memory_bytes = 0; // 0: no limit
    std::vector<std::filesystem::path> cgroup_procs{};
    // Tests of the degraded paths: use at most this Landlock ABI. 0: what the kernel offers.
    int max_abi = 0;
};

// Where people usually keep secrets below `home` — credential files, shell start-up files
// and histories, other agents' keys: hidden from commands unless a person allowed the
// command the network (it may then need them, `git push` over ssh say).
std::vector<std::filesystem::path> credential_places(const std::filesystem::path& home);

// What read-only tools need below `home`, all a plan-mode command reads there (decision
// 0071): git's configuration, toolchains and package caches.
std::vector<std::filesystem::path> home_reads(const std::filesystem::path& home);

} // namespace rio
