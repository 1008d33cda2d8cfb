#include "host/process_runner.hpp"

#include "protocol/error.hpp"
#include "text/utf8.hpp"
#include "host/child_processes.hpp"
#include "host/unique_fd.hpp"

#include <algorithm>
#include <array>
#include <asio/posix/stream_descriptor.hpp>
#include <asio/post.hpp>
#include <asio/steady_timer.hpp>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <string_view>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>

// glibc 2.36 ships this header without the extern "C" guards.
extern "C" {
#include <sys/pidfd.h>
}

namespace rio {
namespace {

using namespace std::chrono_literals;

// Once the command has exited and its group is killed, the output pipe closes at once unless
// something that left the group (setsid, a daemon) still holds it. That process is not ours
// to kill, and must not keep the command "running" forever either.
constexpr auto output_drain_limit = 1000ms;

bool is_continuation(unsigned char c) {
    return (c & 0xC0) == 0x80;
}

// Keeps the first and the last half of the cap: the head shows what the command set out to
// do, the tail how it ended. Memory stays bounded however much the command writes.
class CappedOutput {
public:
    explicit CappedOutput(std::size_t cap) : head_cap_(cap / 2), tail_cap_(cap - cap / 2) {}

    void add(std::string_view bytes) {
        total_ += bytes.size();
        std::size_t to_head = std::min(bytes.size(), head_cap_ - head_.size());
        head_.append(bytes.substr(0, to_head));
        tail_.append(bytes.substr(to_head));
        // Trimming only at twice the size keeps the erase amortised over many reads.
        if (tail_.size() > std::max<std::size_t>(2 * tail_cap_, 4096)) trim_tail();
    }

    std::size_t total() const { return total_; }

    std::string take() {
        trim_tail();
        if (head_.size() + tail_.size() == total_) return to_valid_utf8(head_ + tail_);
        // Cutting through a character would show up as U+FFFD that the command never wrote;
        // the partial character counts as omitted instead.
        drop_partial_char_at_end(head_);
        std::size_t partial = 0;
        while (partial < 3 && partial < tail_.size() &&
               is_continuation(static_cast<unsigned char>(tail_[partial])))
            ++partial;
        tail_.erase(0, partial);
        std::size_t omitted = total_ - head_.size() - tail_.size();
        return to_valid_utf8(head_) + "\n[... " + std::to_string(omitted) +
               " bytes omitted ...]\n" + to_valid_utf8(tail_);
    }

private:
    void trim_tail() {
        if (tail_.size() > tail_cap_) tail_.erase(0, tail_.size() - tail_cap_);
    }

    static void drop_partial_char_at_end(std::string& s) {
        for (std::size_t back = 1; back <= 3 && back <= s.size(); ++back) {
            auto c = static_cast<unsigned char>(s[s.size() - back]);
            if (is_continuation(c)) continue;
            std::size_t length = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
            if (length > back) s.erase(s.size() - back);
            return;
        }
    }

    std::size_t head_cap_, tail_cap_;
    std::string head_, tail_;
    std::size_t total_ = 0;
};

struct SpawnActions {
    posix_spawn_file_actions_t actions;
    SpawnActions() { posix_spawn_file_actions_init(&actions); }
    ~SpawnActions() { posix_spawn_file_actions_destroy(&actions); }
    SpawnActions(const SpawnActions&) = delete;
    SpawnActions& operator=(const SpawnActions&) = delete;
};

struct SpawnAttr {
    posix_spawnattr_t attr;
    SpawnAttr() { posix_spawnattr_init(&attr); }
    ~SpawnAttr() { posix_spawnattr_destroy(&attr); }
    SpawnAttr(const SpawnAttr&) = delete;
    SpawnAttr& operator=(const SpawnAttr&) = delete;
};

struct Spawned {
    pid_t pid;     // also the process group id
    int output_fd; // read end of the stdout+stderr pipe
    int pidfd;
};

Error cwd_error(const std::filesystem::path& cwd) {
    if (cwd.empty()) return make_error(ErrorCode::bad_request, "no working folder given");
    struct stat st {};
    if (::stat(cwd.c_str(), &st) != 0)
        return make_error(ErrorCode::not_found, "no such folder: " + cwd.string());
    return make_error(ErrorCode::bad_request, "not a folder: " + cwd.string());
}

bool is_folder(const std::filesystem::path& cwd) {
    struct stat st {};
    return !cwd.empty() && ::stat(cwd.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// posix_spawnp rather than fork: nothing runs between fork and exec in a copy of a
// multi-threaded process, and glibc's vfork-style spawn does not copy the address space.
Result<Spawned> spawn(const CommandSpec& spec) {
    if (spec.argv.empty()) return make_error(ErrorCode::bad_request, "no command given");
    const std::string& name = spec.argv[0];
    // The chdir happens in the child, where its failure reads as ENOENT, the same as a
    // missing program; checking first makes the message say which one it was.
    if (!is_folder(spec.cwd)) return cwd_error(spec.cwd);
    auto cannot_start = [&](int err) {
        return make_error(ErrorCode::io_error, "cannot start " + name + ": " + std::strerror(err));
    };

    int pipe_fds[2];
    if (::pipe2(pipe_fds, O_CLOEXEC) != 0) return cannot_start(errno);
    UniqueFd read_end(pipe_fds[0]), write_end(pipe_fds[1]);

    SpawnActions fa;
    int rc = posix_spawn_file_actions_addopen(&fa.actions, 0, "/dev/null", O_RDONLY, 0);
    if (rc == 0) rc = posix_spawn_file_actions_adddup2(&fa.actions, write_end.fd, 1);
    if (rc == 0) rc = posix_spawn_file_actions_adddup2(&fa.actions, write_end.fd, 2);
    // Whatever rio or a library opened without O_CLOEXEC stays out of the command.
    if (rc == 0) rc = posix_spawn_file_actions_addclosefrom_np(&fa.actions, 3);
    if (rc == 0) rc = posix_spawn_file_actions_addchdir_np(&fa.actions, spec.cwd.c_str());

    SpawnAttr sa;
    // Its own session, and so its own group (sid = pgid = pid): a stop reaches everything
    // the command started, and what leaves the group is still known by its session
    // (host/child_processes). No controlling terminal either, so nothing can prompt on the
    // user's. Signal dispositions are reset because rio ignores SIGPIPE, and ignored signals
    // survive exec: `yes | head` would otherwise never end.
    sigset_t all, none;
    sigfillset(&all);
    sigemptyset(&none);
    if (rc == 0)
        rc = posix_spawnattr_setflags(&sa.attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGDEF |
                                                    POSIX_SPAWN_SETSIGMASK);
    if (rc == 0) rc = posix_spawnattr_setsigdefault(&sa.attr, &all);
    if (rc == 0) rc = posix_spawnattr_setsigmask(&sa.attr, &none);
    if (rc != 0) return cannot_start(rc);

    std::vector<char*> argv;
    argv.reserve(spec.argv.size() + 1);
    for (const std::string& arg : spec.argv)
        argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);

    std::vector<char*> envp;
    if (spec.env) {
        envp.reserve(spec.env->size() + 1);
        for (const std::string& var : *spec.env)
            envp.push_back(const_cast<char*>(var.c_str()));
        envp.push_back(nullptr);
    }
    pid_t pid = -1;
    rc = ::posix_spawnp(&pid, name.c_str(), &fa.actions, &sa.attr, argv.data(),
                        spec.env ? envp.data() : ::environ);
    if (rc == ENOENT && !is_folder(spec.cwd)) return cwd_error(spec.cwd); // removed meanwhile
    if (rc == ENOENT) return make_error(ErrorCode::not_found, "no such program: " + name);
    if (rc != 0) return cannot_start(rc);

    int pidfd = ::pidfd_open(pid, 0);
    if (pidfd < 0) {
        int err = errno;
        // Without a pidfd the exit cannot be awaited on the loop. The child has only just
        // started and SIGKILL cannot be caught, so this wait is short.
        ::kill(-pid, SIGKILL);
        while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
        }
        return make_error(ErrorCode::io_error, "cannot watch " + name + ": " + std::strerror(err));
    }
    return Spawned{pid, read_end.release(), pidfd};
}

class Command final : public RunningCommand, public std::enable_shared_from_this<Command> {
public:
    using Done = std::function<void(CommandResult)>;

    Command(asio::io_context& io, CommandSpec spec, Done done)
        : spec_(std::move(spec)), done_(std::move(done)),
          children_(asio::use_service<ChildProcesses>(io)), exit_watch_(io), output_(io),
          timer_(io), captured_(spec_.output_cap), started_at_(std::chrono::steady_clock::now()) {}

    // Only reached with the command still running when the io_context is destroyed under
    // it. SIGKILL cannot be caught, so the wait is short, and no zombie is left behind.
    ~Command() override {
        if (pid_ <= 0) return;
        signal_tree(SIGKILL);
        while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
        }
        children_.disown(pid_);
    }

    void begin() {
        Result<Spawned> spawned = spawn(spec_);
        if (!spawned) {
            result_.error = spawned.error().message;
            phase_ = Phase::finished;
            // Posted: the caller gets its handle before it hears about the failure.
            asio::post(timer_.get_executor(),
                       [done = std::move(done_), result = std::move(result_)]() mutable {
                           done(std::move(result));
                       });
            return;
        }
        result_.started = true;
        pid_ = spawned->pid;
        children_.own(pid_);
        exit_watch_.assign(spawned->pidfd);
        output_.assign(spawned->output_fd);

        exit_watch_.async_wait(asio::posix::stream_descriptor::wait_read,
                               [self = shared_from_this()](std::error_code ec) {
                                   // Only cancelled when the io_context goes away.
                                   if (!ec) self->exited();
                               });
        read_more();
        arm_timer(spec_.timeout, Phase::running, [this] { stop(result_.timed_out); });
    }

    void cancel() override {
        if (phase_ == Phase::running) stop(result_.cancelled);
    }

private:
    // Each phase is entered at most once, and a timer callback acts only in the phase it was
    // armed in, so a callback already queued when the timer was re-armed does nothing.
    enum class Phase { running, stopping, exited, finished };

    template <typename Action>
    void arm_timer(std::chrono::milliseconds after, Phase phase, Action action) {
        timer_.expires_after(after);
        timer_.async_wait([self = shared_from_this(), phase, action](std::error_code ec) {
            if (!ec && self->phase_ == phase) action();
        });
    }

    // Signals go only while the leader is not yet reaped: until then its pid, and so its
    // group and session ids, cannot be reused, so the signal cannot reach someone else's
    // processes. The group first, then whatever left it.
    void signal_tree(int sig) {
        if (pid_ <= 0) return;
        ::kill(-pid_, sig);
        children_.signal_leftovers(pid_, sig);
    }

    void stop(bool& reason) {
        reason = true;
        phase_ = Phase::stopping;
        signal_tree(SIGTERM);
        signal_tree(SIGCONT); // a stopped process would not act on SIGTERM until continued
        arm_timer(spec_.kill_grace, Phase::stopping, [this] { signal_tree(SIGKILL); });
    }

    void read_more() {
        output_.async_read_some(asio::buffer(buffer_),
                                [self = shared_from_this()](std::error_code ec, std::size_t n) {
                                    self->captured_.add({self->buffer_.data(), n});
                                    if (ec)
                                        self->output_closed();
                                    else
                                        self->read_more();
                                });
    }

    void exited() {
        // The leader is a zombie now: its pid, and so its group and session, cannot be reused
        // until the waitpid below. Whatever it left is killed first. Background
        // grandchildren (`server &`, a build daemon, something that called setsid) would
        // otherwise outlive the command and hold the output pipe open.
        signal_tree(SIGKILL);
        int status = 0;
        pid_t reaped;
        do {
            reaped = ::waitpid(pid_, &status, WNOHANG);
        } while (reaped < 0 && errno == EINTR);
        children_.disown(pid_);
        pid_ = -1;
        if (reaped > 0 && WIFEXITED(status)) result_.exit_code = WEXITSTATUS(status);
        if (reaped > 0 && WIFSIGNALED(status)) result_.signal = WTERMSIG(status);
        std::error_code ignored;
        exit_watch_.close(ignored);

        phase_ = Phase::exited;
        if (!output_.is_open()) {
            finish();
            return;
        }
        // Closed rather than cancelled: a read that completed meanwhile would start another.
        arm_timer(output_drain_limit, Phase::exited, [this] {
            std::error_code ignored;
            output_.close(ignored);
        });
    }

    void output_closed() {
        std::error_code ignored;
        output_.close(ignored);
        if (phase_ == Phase::exited) finish();
    }

    void finish() {
        phase_ = Phase::finished;
        timer_.cancel();
        result_.output_bytes = captured_.total();
        result_.output = captured_.take();
        result_.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
            std::chrono::steady_clock::now() - started_at_);
        Done done = std::move(done_);
        done(std::move(result_));
    }

    CommandSpec spec_;
    Done done_;
    ChildProcesses& children_;
    asio::posix::stream_descriptor exit_watch_; // the pidfd: readable once the leader exits
    asio::posix::stream_descriptor output_;
    asio::steady_timer timer_; // timeout, then kill grace, then output drain
    CappedOutput captured_;
    std::array<char, std::size_t{64} * 1024> buffer_{};
    std::chrono::steady_clock::time_point started_at_;
    CommandResult result_;
    Phase phase_ = Phase::running;
    pid_t pid_ = -1; // also the process group id; -1 once reaped
};

} // namespace

std::shared_ptr<RunningCommand> start_command(asio::io_context& io, CommandSpec spec,
                                              std::function<void(CommandResult)> done) {
    auto command = std::make_shared<Command>(io, std::move(spec), std::move(done));
    command->begin();
    return command;
}

} // namespace rio
