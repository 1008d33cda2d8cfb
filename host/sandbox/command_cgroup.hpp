// A sandboxed command's own control group (issue 42): its memory, all of its processes
// together, and how many processes it may have at once — limits that hold for root too,
// which RLIMIT_NPROC does not. Made below the core's own group before the command starts,
// entered by the command's child itself (it writes "0" to cgroup.procs before it confines
// itself, so nothing it forks is ever outside), and removed once its tree has gone.
//
// cgroup v2 where the core's group delegates memory and pids to its children; v1's memory
// and pids hierarchies where they are mounted and writable (root on a hybrid system, CI).
// Elsewhere there is no group, and the kernel's per-process limits stand in (RLIMIT_DATA,
// RLIMIT_NPROC; host/sandbox/prepared_sandbox.cpp).
#pragma once

#include "protocol/error.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace rio {

enum class CgroupKind { none, v1, v2 };

struct CgroupSupport {
    CgroupKind kind = CgroupKind::none;
    std::string reason; // why there is none, "" when there is
    // Where a command's group is made: v2 one folder; v1 the memory and the pids one.
    std::vector<std::filesystem::path> parents;
};

// Found once, the first time it is asked, by making (and removing) a group.
const CgroupSupport& cgroup_support();

// What a command's group saw by the time it ended.
struct CgroupOutcome {
    bool out_of_memory = false;    // the kernel's OOM killer stopped a process of it
    bool out_of_processes = false; // a fork or clone was refused at the limit
};

class CommandCgroup {
public:
    CommandCgroup() = default;
    CommandCgroup(CommandCgroup&& other) noexcept;
    CommandCgroup& operator=(CommandCgroup&& other) noexcept;
    ~CommandCgroup();

    // A new group with these limits where cgroup_support() offers one; an empty group (no
    // folders) where it does not.
    static Result<CommandCgroup> make(std::uint64_t memory_bytes, std::uint64_t processes);

    bool empty() const { return folders_.empty(); }
    // The cgroup.procs files the command's child writes "0" to.
    std::vector<std::filesystem::path> procs_files() const;
    CgroupOutcome outcome() const;
    // Kills what is still in it and removes it. Also done by the destructor.
    void remove();
    // The same for groups' folders, emptied.
    static void remove_folders(std::vector<std::filesystem::path>& folders);

private:
    CgroupKind kind_ = CgroupKind::none;
    std::vector<std::filesystem::path> folders_;
};

} // namespace rio
