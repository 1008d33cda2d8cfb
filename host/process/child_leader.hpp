// A started child that leads its own session (as spawn_process starts it), from owned to
// reaped: the one path by which the command runner and piped processes signal a child's
// whole tree, reap it when its pidfd says it exited, and kill it when they go away under it.
// Signals go only while the leader is unreaped: until then its pid, and so its group and
// session ids, cannot be reused, so a signal cannot reach someone else's processes.
#pragma once

#include "host/process/child_processes.hpp"
#include "host/process/spawn.hpp"

#include <asio/io_context.hpp>
#include <asio/posix/stream_descriptor.hpp>
#include <functional>
#include <sys/types.h>

namespace rio {

class ChildLeader {
public:
    explicit ChildLeader(asio::io_context& io);
    ~ChildLeader() { kill_now(); }
    ChildLeader(const ChildLeader&) = delete;
    ChildLeader& operator=(const ChildLeader&) = delete;

    // The child spawn_process started, and its pidfd, which is the leader's from now on.
    void own(pid_t pid, int pidfd);
    // `exited` is called once, when the pidfd says the child exited (never if the io_context
    // goes away first); the owner reaps it there (reap()).
    void when_exited(std::function<void()> exited);
    pid_t pid() const { return pid_; } // -1 before own() and once reaped
    bool running() const { return pid_ > 0; }

    // To its group, then to whatever left it (ChildProcesses::signal_leftovers).
    void signal_tree(int sig);

    // It exited: what it left is killed first — a background grandchild (`server &`, a
    // daemon, something that called setsid) would otherwise outlive it and hold its output
    // open — and then it is reaped, without blocking.
    ReapedExit reap();

    // Killed and waited for at once (SIGKILL cannot be caught, so the wait is short, and
    // no zombie is left): its owner goes away under it, or its start failed half way.
    void kill_now();

private:
    void forget(); // reaped or waited for: no longer owned, its pidfd closed

    ChildProcesses& children_;
    asio::posix::stream_descriptor exit_watch_; // the pidfd: readable once the leader exits
    pid_t pid_ = -1;
};

} // namespace rio
