#include "host/process/child_leader.hpp"

#include <cerrno>
#include <signal.h>
#include <sys/wait.h>

namespace rio {

void ChildLeader::own(pid_t pid) {
    pid_ = pid;
    children_.own(pid);
}

void ChildLeader::signal_tree(int sig) {
    if (pid_ <= 0) return;
    ::kill(-pid_, sig);
    children_.signal_leftovers(pid_, sig);
}

ReapedExit ChildLeader::reap() {
    signal_tree(SIGKILL);
    ReapedExit reaped = reap_exited(pid_);
    children_.disown(pid_);
    pid_ = -1;
    return reaped;
}

void ChildLeader::kill_now() {
    if (pid_ <= 0) return;
    signal_tree(SIGKILL);
    while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
    }
    children_.disown(pid_);
    pid_ = -1;
}

} // namespace rio
