#include "host/terminal/terminals.hpp"

#include "host/files/confine.hpp"
#include "host/process/child_processes.hpp"
#include "host/process/spawn.hpp"
#include "host/terminal/utf8_stream.hpp"

#include <algorithm>
#include <array>
#include <asio/posix/stream_descriptor.hpp>
#include <asio/write.hpp>
#include <cerrno>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <pty.h>
#include <pwd.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace rio {

struct Terminals::Shell {
    Shell(asio::io_context& io, int master_fd, int pid_fd)
        : master(io, master_fd), exited(io, pid_fd) {}
    std::uint64_t id = 0;
    ClientId owner = 0;
    pid_t pid = -1;
    asio::posix::stream_descriptor master;
    asio::posix::stream_descriptor exited; // the shell's pidfd
    std::array<char, 64 * 1024> buffer{};
    Utf8Stream text;
    std::size_t unacked = 0;
    bool reading = false;
    bool output_ended = false; // the pty said EIO: nothing holds its other end any more
    std::optional<ReapedExit> exit;
    bool finished = false;
    std::deque<std::string> writes; // the first one is being written
};

namespace {

namespace fs = std::filesystem;

// $SHELL when set, else the login shell, else /bin/sh.
std::string shell_program() {
    if (const char* shell = std::getenv("SHELL"); shell && *shell) return shell;
    if (const passwd* pw = ::getpwuid(::getuid()); pw && pw->pw_shell && *pw->pw_shell == '/')
        return pw->pw_shell;
    return "/bin/sh";
}

// This process's environment as the person's shell should have it: no RIO_* variables (they
// steer rio, not the person's programs), a terminal that libvterm answers for.
std::vector<std::string> shell_environment() {
    std::vector<std::string> env;
    for (char** e = environ; *e; ++e) {
        const std::string_view entry(*e);
        if (entry.starts_with("RIO_") || entry.starts_with("TERM=") ||
            entry.starts_with("COLORTERM=") || entry.starts_with("COLUMNS=") ||
            entry.starts_with("LINES="))
            continue;
        env.emplace_back(entry);
    }
    env.emplace_back("TERM=xterm-256color");
    env.emplace_back("COLORTERM=truecolor");
    return env;
}

winsize window_size(std::uint64_t cols, std::uint64_t rows) {
    winsize size{};
    size.ws_col = static_cast<unsigned short>(std::clamp<std::uint64_t>(cols, 2, 1000));
    size.ws_row = static_cast<unsigned short>(std::clamp<std::uint64_t>(rows, 1, 1000));
    return size;
}

struct Started {
    pid_t pid;
    int master;
    int pidfd;
};

// forkpty: the child is a session leader with the pty as its controlling terminal (job
// control, Ctrl+C), its signals as a fresh program's, nothing else of ours inherited. An
// exec that fails writes its errno to a pipe the parent reads.
Result<Started> start_shell(const std::string& shell, const fs::path& cwd,
                            const std::vector<std::string>& env, winsize size) {
    std::vector<char*> argv{const_cast<char*>(shell.c_str()), nullptr};
    std::vector<char*> envp;
    for (const std::string& e : env)
        envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);
    const std::string folder = cwd.string();
    int report[2];
    if (::pipe2(report, O_CLOEXEC) != 0)
        return make_error(ErrorCode::io_error,
                          std::string("cannot start a terminal: ") + std::strerror(errno));
    int master = -1;
    const pid_t pid = ::forkpty(&master, nullptr, nullptr, &size);
    if (pid < 0) {
        const int err = errno;
        ::close(report[0]);
        ::close(report[1]);
        return make_error(ErrorCode::io_error,
                          std::string("cannot open a pty for the terminal: ") + std::strerror(err));
    }
    if (pid == 0) {
        sigset_t none;
        sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
        for (int sig = 1; sig < NSIG; ++sig)
            ::signal(sig, SIG_DFL);
        ::close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
        int err = 0;
        if (::chdir(folder.c_str()) != 0)
            err = errno;
        else
            ::execve(shell.c_str(), argv.data(), envp.data());
        if (err == 0) err = errno;
        [[maybe_unused]] ssize_t n = ::write(report[1], &err, sizeof err);
        ::_exit(127);
    }
    ::close(report[1]);
    int err = 0;
    ssize_t got;
    do {
        got = ::read(report[0], &err, sizeof err);
    } while (got < 0 && errno == EINTR);
    ::close(report[0]);
    if (got == sizeof err) {
        ::close(master);
        ::waitpid(pid, nullptr, 0);
        return make_error(ErrorCode::io_error,
                          "cannot start " + shell + " in " + folder + ": " + std::strerror(err));
    }
    ::fcntl(master, F_SETFD, FD_CLOEXEC);
    ::fcntl(master, F_SETFL, ::fcntl(master, F_GETFL) | O_NONBLOCK);
    const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
    if (pidfd < 0) {
        const int open_err = errno;
        ::kill(pid, SIGKILL);
        ::waitpid(pid, nullptr, 0);
        ::close(master);
        return make_error(ErrorCode::io_error, std::string("cannot watch the terminal's shell: ") +
                                                   std::strerror(open_err));
    }
    return Started{pid, master, pidfd};
}

void hang_up(asio::io_context& io, pid_t pid) {
    ::kill(-pid, SIGHUP);
    ::kill(pid, SIGHUP);
    asio::use_service<ChildProcesses>(io).signal_leftovers(pid, SIGHUP);
}

} // namespace

Terminals::Terminals(asio::io_context& io, const Workspace& workspace, Emit emit)
    : io_(io), workspace_(workspace), emit_(std::move(emit)) {}

Terminals::~Terminals() {
    shutdown();
}

Result<TerminalOpenResult> Terminals::open(ClientId client, const TerminalOpenParams& p) {
    if (stopped_) return make_error(ErrorCode::refused, "rio-core is shutting down");
    if (shells_.size() >= max_open)
        return make_error(ErrorCode::refused, std::to_string(max_open) +
                                                  " terminals are open already; close one first");
    fs::path cwd;
    if (workspace_.root) {
        auto folder = confine(*workspace_.root, p.path.value_or("."));
        if (!folder) return folder.error();
        cwd = folder->real;
    } else if (const char* home = std::getenv("HOME"); home && *home == '/') {
        cwd = home;
    } else {
        cwd = "/";
    }
    std::error_code ec;
    if (!fs::is_directory(cwd, ec))
        return make_error(ErrorCode::bad_request, "not a folder: " + p.path.value_or("."));
    const std::string shell = shell_program();
    auto started = start_shell(shell, cwd, shell_environment(), window_size(p.cols, p.rows));
    if (!started) return started.error();
    asio::use_service<ChildProcesses>(io_).own(started->pid);
    auto s = std::make_shared<Shell>(io_, started->master, started->pidfd);
    s->id = next_id_++;
    s->owner = client;
    s->pid = started->pid;
    shells_.emplace(s->id, s);
    read(s);
    await_exit(s);
    return TerminalOpenResult{s->id, shell, cwd.string()};
}

Result<std::shared_ptr<Terminals::Shell>> Terminals::find(std::uint64_t id) const {
    auto it = shells_.find(id);
    if (it == shells_.end() || it->second->exit)
        return make_error(ErrorCode::not_found, "no terminal " + std::to_string(id) + " is open");
    return it->second;
}

void Terminals::read(const std::shared_ptr<Shell>& s) {
    // Once the shell is gone only what is left in the pty remains: read it whatever the window.
    if (s->reading || s->output_ended || (s->unacked >= window && !s->exit)) return;
    s->reading = true;
    s->master.async_read_some(
        asio::buffer(s->buffer), [this, s](std::error_code ec, std::size_t n) {
            s->reading = false;
            if (s->finished) return;
            if (ec) {
                // EIO: every process holding the pty's other end is gone.
                s->output_ended = true;
                if (s->exit) finish(s);
                return;
            }
            std::string text = s->text.take(std::string_view(s->buffer.data(), n));
            s->unacked += text.size();
            if (!text.empty()) emit_event(emit_, TerminalOutputEvent{s->id, std::move(text)});
            read(s);
        });
}

void Terminals::await_exit(const std::shared_ptr<Shell>& s) {
    s->exited.async_wait(asio::posix::stream_descriptor::wait_read, [this, s](std::error_code ec) {
        if (ec || s->finished) return;
        s->exit = reap_exited(s->pid);
        asio::use_service<ChildProcesses>(io_).disown(s->pid);
        // What the shell started in the background goes with it, as when a terminal closes;
        // then the pty's other end is let go and its last output read.
        hang_up(io_, s->pid);
        if (s->output_ended)
            finish(s);
        else
            read(s);
    });
}

void Terminals::finish(const std::shared_ptr<Shell>& s) {
    if (s->finished) return;
    s->finished = true;
    std::error_code ignored;
    s->master.close(ignored);
    s->exited.close(ignored);
    TerminalExitedEvent exited{s->id, std::nullopt, std::nullopt};
    if (s->exit && s->exit->signal)
        exited.signal = s->exit->signal;
    else if (s->exit)
        exited.code = s->exit->exit_code;
    shells_.erase(s->id);
    emit_event(emit_, std::move(exited));
}

Status Terminals::input(const TerminalInputParams& p) {
    auto s = find(p.id);
    if (!s) return s.error();
    std::shared_ptr<Shell> shell = *s;
    shell->writes.push_back(p.data);
    if (shell->writes.size() > 1) return Ok{};
    auto write_next = std::make_shared<std::function<void()>>();
    *write_next = [shell, write_next] {
        asio::async_write(shell->master, asio::buffer(shell->writes.front()),
                          [shell, write_next](std::error_code ec, std::size_t) {
                              if (ec) {
                                  shell->writes.clear();
                                  *write_next = nullptr;
                                  return;
                              }
                              shell->writes.pop_front();
                              if (shell->writes.empty())
                                  *write_next = nullptr; // the cycle ends
                              else
                                  (*write_next)();
                          });
    };
    (*write_next)();
    return Ok{};
}

Status Terminals::resize(const TerminalResizeParams& p) {
    auto s = find(p.id);
    if (!s) return s.error();
    const winsize size = window_size(p.cols, p.rows);
    if (::ioctl((*s)->master.native_handle(), TIOCSWINSZ, &size) != 0)
        return make_error(ErrorCode::io_error,
                          std::string("cannot resize the terminal: ") + std::strerror(errno));
    return Ok{};
}

Status Terminals::ack(const TerminalAckParams& p) {
    auto it = shells_.find(p.id);
    if (it == shells_.end()) return Ok{}; // it ended meanwhile: nothing waits for the ack
    const std::shared_ptr<Shell>& s = it->second;
    s->unacked -= std::min<std::size_t>(s->unacked, p.bytes);
    read(s);
    return Ok{};
}

Status Terminals::close(const TerminalCloseParams& p) {
    auto s = find(p.id);
    if (!s) return s.error();
    hang_up(io_, (*s)->pid);
    return Ok{};
}

void Terminals::client_closed(ClientId client) {
    for (const auto& [id, s] : shells_)
        if (s->owner == client && !s->exit) hang_up(io_, s->pid);
}

void Terminals::shutdown() {
    stopped_ = true;
    for (const auto& [id, s] : shells_) {
        if (!s->exit) hang_up(io_, s->pid);
        s->finished = true;
        std::error_code ignored;
        s->master.close(ignored);
        s->exited.close(ignored);
    }
    shells_.clear();
}

} // namespace rio
