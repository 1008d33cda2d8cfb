#include "host/process/child_processes.hpp"

#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <map>
#include <string_view>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace rio {
namespace {

// "pid (comm) state ppid pgrp session ..."; comm may hold spaces and parentheses, so the
// fields start after the last ')'.
bool parse_stat(std::string_view text, ProcessEntry& out) {
    std::size_t close = text.rfind(')');
    if (close == std::string_view::npos || close + 2 >= text.size()) return false;
    auto number = [](std::string_view& rest, pid_t& value) {
        while (!rest.empty() && rest.front() == ' ')
            rest.remove_prefix(1);
        auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), value);
        if (ec != std::errc()) return false;
        rest.remove_prefix(static_cast<std::size_t>(end - rest.data()));
        return true;
    };
    std::string_view rest = text.substr(close + 2);
    out.state = rest.front();
    rest.remove_prefix(1);
    return number(rest, out.ppid) && number(rest, out.pgid) && number(rest, out.sid);
}

} // namespace

asio::execution_context::id ChildProcesses::id;

std::vector<ProcessEntry> list_processes() {
    std::vector<ProcessEntry> out;
    DIR* proc = ::opendir("/proc");
    if (!proc) return out;
    while (const dirent* e = ::readdir(proc)) {
        std::string_view name = e->d_name;
        ProcessEntry entry;
        auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), entry.pid);
        if (ec != std::errc() || end != name.data() + name.size()) continue;
        std::string path = "/proc/" + std::string(name) + "/stat";
        int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue; // gone meanwhile
        char buffer[512];
        ssize_t n = ::read(fd, buffer, sizeof buffer);
        ::close(fd);
        if (n > 0 && parse_stat({buffer, static_cast<std::size_t>(n)}, entry)) out.push_back(entry);
    }
    ::closedir(proc);
    return out;
}

std::vector<pid_t> leftover_processes(const std::vector<ProcessEntry>& snapshot, pid_t leader,
                                      pid_t self, bool subreaper, const std::set<pid_t>& owned) {
    std::set<pid_t> found;
    std::multimap<pid_t, pid_t> children; // ppid -> pid
    for (const ProcessEntry& p : snapshot) {
        if (p.pid == self) continue;
        children.emplace(p.ppid, p.pid);
        bool in_tree = p.sid == leader || p.pgid == leader;
        bool orphan = subreaper && p.ppid == self && !owned.count(p.pid);
        if (in_tree || orphan) found.insert(p.pid);
    }
    std::vector<pid_t> pending(found.begin(), found.end());
    while (!pending.empty()) {
        pid_t parent = pending.back();
        pending.pop_back();
        auto [first, last] = children.equal_range(parent);
        for (auto it = first; it != last; ++it)
            if (it->second != self && found.insert(it->second).second)
                pending.push_back(it->second);
    }
    std::vector<pid_t> out;
    for (const ProcessEntry& p : snapshot)
        if (found.count(p.pid) && p.state != 'Z' && p.pid != leader) out.push_back(p.pid);
    return out;
}

ChildProcesses::ChildProcesses(asio::execution_context& context)
    : asio::execution_context::service(context), io_(static_cast<asio::io_context&>(context)) {}

Status ChildProcesses::become_subreaper() {
    if (subreaper_) return Ok{};
    if (::prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
        return make_error(ErrorCode::io_error,
                          std::string("cannot become a child subreaper: ") + std::strerror(errno));
    subreaper_ = true;
    sigchld_ = std::make_unique<asio::signal_set>(io_, SIGCHLD);
    wait_for_orphans();
    return Ok{};
}

std::size_t ChildProcesses::signal_leftovers(pid_t leader, int sig) const {
    std::set<pid_t> signalled;
    for (int round = 0; round < 20; ++round) {
        bool fresh = false;
        for (pid_t pid :
             leftover_processes(list_processes(), leader, ::getpid(), subreaper_, owned_)) {
            // A process that ignores SIGTERM shows up again in the next scan: only new ones
            // make another round worth it.
            if (::kill(pid, sig) == 0 && signalled.insert(pid).second) fresh = true;
        }
        if (!fresh) break;
    }
    return signalled.size();
}

void ChildProcesses::wait_for_orphans() {
    sigchld_->async_wait([this](std::error_code ec, int) {
        // A SIGCHLD already queued when stop_reaping() dropped the set still arrives here.
        if (ec || !sigchld_) return;
        reap_orphans();
        wait_for_orphans();
    });
}

// Only the orphans: the runner waits for its own commands through their pidfds, and a
// waitpid(-1) here would take their exit status from them.
void ChildProcesses::reap_orphans() {
    pid_t self = ::getpid();
    for (const ProcessEntry& p : list_processes())
        if (p.ppid == self && p.state == 'Z' && !owned_.count(p.pid))
            while (::waitpid(p.pid, nullptr, WNOHANG) < 0 && errno == EINTR) {
            }
}

void ChildProcesses::shutdown() {
    sigchld_.reset();
}

} // namespace rio
