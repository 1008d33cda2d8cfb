#include "host/process/child_leader.hpp"

#include <cerrno>
#include <signal.h>
#include <sys/wait.h>

namespace rio {

ChildLeader::ChildLeader(asio::io_context& io)
    : children_(asio::use_service<ChildProcesses>(io)), exit_watch_(io) {}

void ChildLeader::own(pid_t pid, int pidfd) {
    pid_ = pid;
    children_.own(pid);
    exit_watch_.assign(pidfd);
}

void ChildLeader::when_exited(std::function<void()> exited) {
    exit_watch_.async_wait(asio::posix::stream_descriptor::wait_read,
                           [exited = std::move(exited)](std::error_code ec) {
                               if (!ec) exited();
                           });
}

void ChildLeader::signal_tree(int sig) {
    if (pid_ <= 0) return;
    ::kill(-pid_, sig);
    children_.signal_leftovers(pid_, sig);
}

ReapedExit ChildLeader::reap() {
    signal_tree(SIGKILL);
    ReapedExit reaped = reap_exited(pid_);
    forget();
    return reaped;
}

void ChildLeader::kill_now() {
    if (pid_ <= 0) return;
    signal_tree(SIGKILL);
    while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
    }
    forget();
}

void ChildLeader::forget() {
    children_.disown(pid_);
    pid_ = -1;
    std::error_code ignored;
    exit_watch_.close(ignored);
}

} // namespace rio
