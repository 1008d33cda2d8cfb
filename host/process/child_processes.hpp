// What this process started and what those started in turn, so that a command's whole tree
// ends with it: processes that left its process group (setpgid), made their own session
// (setsid) or daemonized included. A per-io_context asio service, not a global: the
// process runner registers each command's leader, and asks it for the leftovers.
#pragma once

#include "protocol/error.hpp"

#include <asio/io_context.hpp>
#include <asio/signal_set.hpp>
#include <memory>
#include <set>
#include <sys/types.h>
#include <vector>

namespace rio {

struct ProcessEntry {
    pid_t pid = 0, ppid = 0, pgid = 0, sid = 0;
    char state = '?'; // 'Z': exited, not yet reaped
};

// Every process on the machine, from /proc.
std::vector<ProcessEntry> list_processes();

// What `leader` leaves behind, given a snapshot: the members of its session and group (the
// runner starts each command with setsid), everything they started — a setsid'd child
// still has a parent there — and, for a subreaper, `self`'s children that nobody in
// `owned` is (orphans handed to it) with all theirs. Zombies are left out.
std::vector<pid_t> leftover_processes(const std::vector<ProcessEntry>& snapshot, pid_t leader,
                                      pid_t self, bool subreaper, const std::set<pid_t>& owned);

class ChildProcesses : public asio::execution_context::service {
public:
    using key_type = ChildProcesses;
    static asio::execution_context::id id;

    explicit ChildProcesses(asio::execution_context& context);
    ChildProcesses(const ChildProcesses&) = delete;
    ChildProcesses& operator=(const ChildProcesses&) = delete;

    // Makes this process a child subreaper (PR_SET_CHILD_SUBREAPER): orphans anywhere below
    // it are handed to it instead of to init, so none escapes, and it reaps them.
    Status become_subreaper();

    // Stops waiting for SIGCHLD, which would otherwise keep io.run() going: at shutdown.
    void stop_reaping() { sigchld_.reset(); }

    void own(pid_t leader) { owned_.insert(leader); }
    void disown(pid_t leader) { owned_.erase(leader); }

    // Sends `sig` to everything `leader` left behind, scanning again until a scan finds
    // nothing new (a process may fork between the scan and the signal). Returns how many
    // processes were signalled.
    std::size_t signal_leftovers(pid_t leader, int sig) const;

private:
    void shutdown() override;
    void reap_orphans();
    void wait_for_orphans();

    asio::io_context& io_;
    std::set<pid_t> owned_;
    bool subreaper_ = false;
    std::unique_ptr<asio::signal_set> sigchld_;
};

} // namespace rio
