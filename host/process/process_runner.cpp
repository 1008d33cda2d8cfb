#include "host/process/process_runner.hpp"

#include "host/process/child_leader.hpp"
#include "host/process/command_environment.hpp"
#include "host/process/spawn.hpp"
#include "host/proxy/host_proxy.hpp"
#include "host/sandbox/command_cgroup.hpp"
#include "host/sandbox/descriptor_passing.hpp"
#include "host/sandbox/private_tmpdir.hpp"
#include "io/unique_fd.hpp"
#include "protocol/error.hpp"
#include "text/size_text.hpp"
#include "text/utf8.hpp"

#include <algorithm>
#include <array>
#include <asio/posix/stream_descriptor.hpp>
#include <asio/post.hpp>
#include <asio/steady_timer.hpp>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <signal.h>
#include <string_view>
#include <sys/socket.h>
#include <unistd.h>
#include <utility>

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

struct Spawned {
    pid_t pid;     // also the process group id
    int output_fd; // read end of the stdout+stderr pipe
    int pidfd;
};

Error start_error(const CommandSpec& spec, const std::string& why) {
    return make_error(ErrorCode::io_error,
                      "cannot start " + (spec.argv.empty() ? "" : spec.argv[0]) + ": " + why);
}

// stdin is /dev/null; stdout and stderr share one pipe, so the output interleaves as written.
Result<Spawned> spawn(const CommandSpec& spec, const std::filesystem::path& tmpdir) {
    int pipe_fds[2];
    if (::pipe2(pipe_fds, O_CLOEXEC) != 0) return start_error(spec, std::strerror(errno));
    UniqueFd read_end(pipe_fds[0]), write_end(pipe_fds[1]);
    SpawnSpec child{spec.argv, spec.cwd, spec.env, -1, write_end.fd, write_end.fd, spec.sandbox};
    if (child.sandbox) {
        child.sandbox->tmpdir = tmpdir;
        std::vector<std::string> env;
        if (spec.env)
            env = *spec.env;
        else
            for (char** var = ::environ; *var; ++var)
                env.emplace_back(*var);
        child.env = sandboxed_environment(std::move(env), tmpdir);
        if (!child.sandbox->hosts.empty())
            child.env = proxied_environment(std::move(*child.env), command_proxy_port);
    }
    Result<SpawnedProcess> spawned = spawn_process(child);
    if (!spawned) return spawned.error();
    return Spawned{spawned->pid, read_end.release(), spawned->pidfd};
}

class Command final : public RunningCommand, public std::enable_shared_from_this<Command> {
public:
    using Done = std::function<void(CommandResult)>;

    Command(asio::io_context& io, CommandSpec spec, Done done)
        : spec_(std::move(spec)), done_(std::move(done)), leader_(io), output_(io), timer_(io),
          captured_(spec_.output_cap), started_at_(std::chrono::steady_clock::now()) {}

    // Only reached with the command still running when the io_context is destroyed under
    // it. SIGKILL cannot be caught, so the wait is short, and no zombie is left behind.
    ~Command() override {
        if (proxy_) proxy_->stop();
        leader_.kill_now(); // before its private /tmp goes
        remove_private_tmpdir(tmpdir_);
    }

    void begin() {
        if (spec_.sandbox) {
            auto tmpdir = make_private_tmpdir();
            if (!tmpdir) {
                fail(tmpdir.error().message);
                return;
            }
            tmpdir_ = std::move(*tmpdir);
            // Its own cgroup where one can be made: memory and processes of all of it.
            SandboxPolicy& policy = *spec_.sandbox;
            if (policy.memory_bytes || policy.new_processes) {
                auto group = CommandCgroup::make(policy.memory_bytes, policy.new_processes);
                if (!group) {
                    fail("the sandbox could not be set up: " + group.error().message);
                    return;
                }
                cgroup_ = std::move(*group);
                policy.cgroup_procs = cgroup_.procs_files();
            }
        }
        UniqueFd channel(-1), child_channel(-1);
        if (spec_.sandbox && !spec_.sandbox->hosts.empty()) {
            auto rules = read_host_rules(spec_.sandbox->hosts);
            std::string why = rules ? proxy_channel(channel, child_channel) : rules.error().message;
            if (!why.empty()) {
                fail("the proxy could not start: " + why);
                return;
            }
            rules_ = std::move(*rules);
            spec_.sandbox->proxy_channel = child_channel.fd;
        }
        Result<Spawned> spawned = spawn(spec_, tmpdir_);
        child_channel.reset();
        if (!spawned) {
            fail(spawned.error().message);
            return;
        }
        result_.started = true;
        leader_.own(spawned->pid, spawned->pidfd);
        if (channel.fd >= 0 && !start_proxy(channel.fd)) {
            ::close(spawned->output_fd);
            return;
        }
        output_.assign(spawned->output_fd);
        leader_.when_exited([self = shared_from_this()] { self->exited(); });
        read_more();
        arm_timer(spec_.timeout, Phase::running, [this] { stop(result_.timed_out); });
    }

    void cancel() override {
        if (phase_ == Phase::running) stop(result_.cancelled);
    }

private:
    // The socket pair the child hands its proxy listener through; "" or why not.
    static std::string proxy_channel(UniqueFd& ours, UniqueFd& theirs) {
        int pair[2];
        if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0)
            return std::strerror(errno);
        ours = UniqueFd(pair[0]);
        theirs = UniqueFd(pair[1]);
        return {};
    }

    // Never a command with open network: without its proxy it is killed before it can
    // connect anywhere (it could not anyway: its namespace has only the listener).
    bool start_proxy(int channel) {
        // The listener the child made in its network namespace, sent before it exec'd
        // (CLONE_VFORK: it is there by now, or never will be).
        UniqueFd listener(receive_descriptor(channel));
        auto& io = static_cast<asio::io_context&>(timer_.get_executor().context());
        if (listener.fd >= 0)
            proxy_ =
                HostProxy::start(io, std::move(listener), std::move(rules_), system_resolver(io));
        if (!proxy_) {
            result_.started = false;
            leader_.kill_now();
            fail("the proxy could not start: no listener came from the command's network "
                 "namespace");
            return false;
        }
        result_.proxied = true;
        return true;
    }

    void fail(std::string why) {
        result_.error = std::move(why);
        phase_ = Phase::finished;
        remove_private_tmpdir(std::exchange(tmpdir_, {}));
        cgroup_.remove();
        // Posted: the caller gets its handle before it hears about the failure.
        asio::post(timer_.get_executor(),
                   [done = std::move(done_), result = std::move(result_)]() mutable {
                       done(std::move(result));
                   });
    }

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

    void stop(bool& reason) {
        reason = true;
        phase_ = Phase::stopping;
        leader_.signal_tree(SIGTERM);
        leader_.signal_tree(SIGCONT); // a stopped process would not act on SIGTERM until continued
        arm_timer(spec_.kill_grace, Phase::stopping, [this] { leader_.signal_tree(SIGKILL); });
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
        ReapedExit reaped = leader_.reap();
        result_.exit_code = reaped.exit_code;
        result_.signal = reaped.signal;

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
        // The command's whole tree is gone by now: nothing writes into it any more.
        remove_private_tmpdir(std::exchange(tmpdir_, {}));
        result_.limit = limit_reached();
        cgroup_.remove();
        if (proxy_) {
            result_.refused_hosts = proxy_->refused();
            proxy_->stop();
        }
        result_.output_bytes = captured_.total();
        result_.output = captured_.take();
        result_.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
            std::chrono::steady_clock::now() - started_at_);
        Done done = std::move(done_);
        done(std::move(result_));
    }

    // What the command's cgroup saw, in words: the limit, and where the user changes it.
    std::string limit_reached() const {
        if (cgroup_.empty() || !spec_.sandbox) return {};
        CgroupOutcome seen = cgroup_.outcome();
        if (seen.out_of_memory)
            return "stopped: it used more than the " + size_text(spec_.sandbox->memory_bytes) +
                   " memory limit (sandbox.memory in config.json)";
        if (seen.out_of_processes)
            return "it reached the limit of " + std::to_string(spec_.sandbox->new_processes) +
                   " processes at once: starting more failed (sandbox.processes in "
                   "config.json)";
        return {};
    }

    CommandSpec spec_;
    Done done_;
    ChildLeader leader_;
    asio::posix::stream_descriptor output_;
    asio::steady_timer timer_; // timeout, then kill grace, then output drain
    CappedOutput captured_;
    std::array<char, std::size_t{64} * 1024> buffer_{};
    std::chrono::steady_clock::time_point started_at_;
    CommandResult result_;
    Phase phase_ = Phase::running;
    std::filesystem::path tmpdir_;     // the sandbox's private TMPDIR, "" once removed
    CommandCgroup cgroup_;             // the sandbox's cgroup, empty where there is none
    std::vector<HostRule> rules_;      // a command allowed some hosts only: which,
    std::shared_ptr<HostProxy> proxy_; // and its way out to them
};

} // namespace

std::shared_ptr<RunningCommand> start_command(asio::io_context& io, CommandSpec spec,
                                              std::function<void(CommandResult)> done) {
    auto command = std::make_shared<Command>(io, std::move(spec), std::move(done));
    command->begin();
    return command;
}

} // namespace rio
