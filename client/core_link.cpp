#include "client/core_link.hpp"

#include "client/far_greeting.hpp"
#include "io/listen_address.hpp"
#include "io/user_dirs.hpp"
#include "protocol/json_parse.hpp"
#include "protocol/messages.hpp"

#include <array>
#include <asio/connect.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/local/stream_protocol.hpp>
#include <asio/posix/stream_descriptor.hpp>
#include <asio/steady_timer.hpp>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

// glibc 2.36 ships this header without the extern "C" guards.
extern "C" {
#include <sys/pidfd.h>
}

namespace rio::client {
namespace {

Result<int> connect_socket(asio::io_context& io, const ListenAddress& address,
                           const std::string& spec) {
    std::error_code ec;
    if (address.unix_socket) {
        asio::local::stream_protocol::socket socket(io);
        socket.connect(asio::local::stream_protocol::endpoint(address.path), ec);
        if (!ec) return socket.release();
    } else {
        asio::ip::tcp::resolver resolver(io);
        auto found = resolver.resolve(address.host, std::to_string(address.port), ec);
        asio::ip::tcp::socket socket(io);
        if (!ec) asio::connect(socket, found, ec);
        if (!ec) return socket.release();
    }
    return make_error(ErrorCode::network, "cannot connect to " + spec + ": " + ec.message());
}

// A child on pipes, in its own process group: Ctrl+C in the terminal is the frontend's to
// handle (stop the turn), not a signal that kills the core (or ssh) mid-turn.
struct Child {
    pid_t pid = -1;
    int read_fd = -1, write_fd = -1, stderr_fd = -1; // stderr_fd: only if asked for
};

// `env`: the child's environment, else ours.
Result<Child> start_child(const std::vector<std::string>& argv_s, bool pipe_stderr,
                          const std::vector<std::string>* env = nullptr) {
    int to_child[2], from_child[2], err_pipe[2] = {-1, -1};
    auto close_all = [&] {
        for (int fd :
             {to_child[0], to_child[1], from_child[0], from_child[1], err_pipe[0], err_pipe[1]})
            if (fd >= 0) ::close(fd);
    };
    to_child[0] = to_child[1] = from_child[0] = from_child[1] = -1;
    if (::pipe2(to_child, O_CLOEXEC) != 0 || ::pipe2(from_child, O_CLOEXEC) != 0 ||
        (pipe_stderr && ::pipe2(err_pipe, O_CLOEXEC) != 0)) {
        close_all();
        return make_error(ErrorCode::internal, "pipe failed");
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, to_child[0], 0);
    posix_spawn_file_actions_adddup2(&actions, from_child[1], 1);
    if (pipe_stderr) posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    std::vector<std::string> copy = argv_s;
    std::vector<char*> argv;
    for (auto& a : copy)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    std::vector<char*> envp;
    if (env) {
        for (const std::string& entry : *env)
            envp.push_back(const_cast<char*>(entry.c_str()));
        envp.push_back(nullptr);
    }
    pid_t pid = -1;
    int rc =
        ::posix_spawnp(&pid, argv[0], &actions, &attr, argv.data(), env ? envp.data() : environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (rc != 0) {
        close_all();
        return make_error(ErrorCode::not_found,
                          "cannot start " + argv_s.front() + ": " + std::strerror(rc));
    }
    Child child{pid, from_child[0], to_child[1], err_pipe[0]};
    from_child[0] = to_child[1] = err_pipe[0] = -1;
    close_all();
    return child;
}

// ssh's stderr, which carries the far side's too. Held (its last 64 KiB) until the far core
// answers, to say why a connection failed; handed to the frontend's sink line by line after
// that (a line cut at 4 KiB), so that it shows them as it shows any text from outside.
// Shared with its reads, which may finish after the link is gone.
struct FarStderr : std::enable_shared_from_this<FarStderr> {
    static constexpr std::size_t kept_limit = 64 * 1024;
    static constexpr std::size_t line_limit = 4 * 1024;

    FarStderr(asio::io_context& io, int fd, CoreLink::FarLines sink)
        : in(io, fd), sink(std::move(sink)) {}

    void read() {
        in.async_read_some(asio::buffer(buffer),
                           [self = shared_from_this()](std::error_code ec, std::size_t n) {
                               self->take(std::string_view(self->buffer.data(), n));
                               if (!ec) return self->read();
                               self->ended = true;
                               self->hand_on(true);
                               if (auto done = std::exchange(self->on_end, nullptr)) done();
                           });
    }
    void take(std::string_view bytes) {
        kept += bytes;
        if (relay) return hand_on(false);
        if (kept.size() > kept_limit) kept.erase(0, kept.size() - kept_limit);
    }
    void start_relay() {
        relay = true;
        hand_on(ended);
    }
    // Complete lines to the sink; at the end, what is left too.
    void hand_on(bool at_end) {
        if (!relay) return;
        std::size_t from = 0;
        for (std::size_t nl; (nl = kept.find('\n', from)) != std::string::npos ||
                             kept.size() - from > line_limit;) {
            std::size_t end = nl != std::string::npos ? nl + 1 : from + line_limit;
            if (sink) sink(std::string_view(kept).substr(from, end - from));
            from = end;
        }
        kept.erase(0, from);
        if (at_end && !kept.empty() && sink) sink(std::exchange(kept, {}));
    }

    asio::posix::stream_descriptor in;
    std::array<char, 4096> buffer{};
    std::string kept;
    bool relay = false;
    bool ended = false;
    std::function<void()> on_end;
    CoreLink::FarLines sink;
};

// The exit status of a child whose output has ended, waiting for it at most `ms`; -1 if it
// did not exit by itself or was killed by a signal.
int reap_exit_status(pid_t& child, int ms) {
    if (child <= 0) return -1;
    if (int exited = ::pidfd_open(child, 0); exited >= 0) {
        pollfd watch{exited, POLLIN, 0};
        while (::poll(&watch, 1, ms) < 0 && errno == EINTR) {
        }
        ::close(exited);
    }
    int status = 0;
    if (::waitpid(child, &status, WNOHANG) != child) return -1;
    child = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

} // namespace

struct CoreLink::Remote {
    Remote(asio::io_context& io, RemoteAddress a, RemoteLaunch l, int stderr_fd, FarLines sink)
        : address(std::move(a)), launch(std::move(l)), greeting(address, launch.core),
          err(std::make_shared<FarStderr>(io, stderr_fd, std::move(sink))), wait_for_stderr(io) {}

    RemoteAddress address;
    RemoteLaunch launch;
    FarGreeting greeting;
    std::shared_ptr<FarStderr> err;
    asio::steady_timer wait_for_stderr;
    std::optional<RemoteProblem> failure;
};

std::string find_core_binary() {
    std::error_code ec;
    auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        auto beside = self.parent_path() / "rio-core";
        if (::access(beside.c_str(), X_OK) == 0) return beside.string();
    }
    return "rio-core";
}

CoreLink::CoreLink(asio::io_context& io, int in_fd, int out_fd, pid_t child,
                   std::unique_ptr<Remote> remote)
    : child_(child), remote_(std::move(remote)) {
    Channel::Hooks hooks;
    hooks.on_frame = [this](Channel&, const Frame& frame) { take_frame(frame); };
    hooks.on_closed = [this](Channel&) {
        if (remote_) return far_output_ended();
        lose("the core closed the connection");
    };
    channel_ = std::make_shared<Channel>(io, in_fd, out_fd, 0, default_max_line, std::move(hooks));
    channel_->start();
}

Result<std::unique_ptr<CoreLink>> CoreLink::spawn(asio::io_context& io, const std::string& core,
                                                  const std::vector<std::string>& args) {
    std::vector<std::string> argv{core};
    argv.insert(argv.end(), args.begin(), args.end());
    auto child = start_child(argv, false);
    if (!child) return child.error();
    return std::unique_ptr<CoreLink>(new CoreLink(io, child->read_fd, child->write_fd, child->pid));
}

Result<std::unique_ptr<CoreLink>> CoreLink::ssh(asio::io_context& io, const RemoteAddress& address,
                                                const RemoteLaunch& launch,
                                                const std::string& client, FarLines far_stderr) {
    auto argv = ssh_argv(address, launch);
    if (!argv) return argv.error();
    const std::vector<std::string> env = ssh_environment(environ);
    auto child = start_child(*argv, true, &env);
    if (!child) return child.error();
    auto remote =
        std::make_unique<Remote>(io, address, launch, child->stderr_fd, std::move(far_stderr));
    std::unique_ptr<CoreLink> link(
        new CoreLink(io, child->read_fd, child->write_fd, child->pid, std::move(remote)));
    link->remote_->err->read();
    link->greet_far_core(client);
    return link;
}

Result<std::unique_ptr<CoreLink>> CoreLink::connect(asio::io_context& io,
                                                    const std::string& address, std::string token) {
    auto parsed = parse_connect_address(address);
    if (!parsed) return parsed.error();
    if (!parsed->unix_socket && token.empty()) {
        UserDirs dirs = find_user_dirs("/proc/self/exe");
        token = dirs.listener_token(parsed->host, parsed->port);
        if (token.empty())
            return make_error(ErrorCode::refused,
                              "rio-core at " + address +
                                  " needs its token: pass --token, or run "
                                  "as the user who started it (it keeps the token in " +
                                  dirs.token_file(parsed->host, parsed->port).string() + ")");
    }
    auto fd = connect_socket(io, *parsed, address);
    if (!fd) return fd.error();
    std::unique_ptr<CoreLink> link(new CoreLink(io, *fd, ::dup(*fd), -1));
    if (!token.empty()) {
        CoreLink* self = link.get();
        HelloParams hello;
        hello.token = token;
        self->call(hello, [self, address](const Typed<HelloParams>& reply) {
            if (!reply)
                self->lose("rio-core at " + address +
                           " refused the token: " + reply.error().message);
        });
    }
    return link;
}

CoreLink::~CoreLink() {
    on_lost_ = nullptr;
    if (remote_) {
        remote_->err->on_end = nullptr;
        remote_->err->in.close();
    }
    // Closed now, not after a flush: the loop may not run again (a frontend on its way
    // out), and a private core must see the end of its input to stop its turn and exit.
    if (channel_) channel_->close_now();
    if (child_ <= 0) return;
    // Give the core a moment (it stops a running turn first), then make sure. A pidfd
    // wakes us the moment it exits.
    if (int exited = ::pidfd_open(child_, 0); exited >= 0) {
        pollfd watch{exited, POLLIN, 0};
        while (::poll(&watch, 1, 3000) < 0 && errno == EINTR) {
        }
        ::close(exited);
        if (::waitpid(child_, nullptr, WNOHANG) == child_) return;
    }
    ::kill(child_, SIGKILL);
    ::waitpid(child_, nullptr, 0);
}

void CoreLink::take_frame(const Frame& frame) {
    if (closed_) return;
    if (remote_ && !remote_->greeting.answered()) {
        switch (remote_->greeting.take(frame.line, frame.oversize)) {
        case FarGreeting::Line::protocol:
            break;
        case FarGreeting::Line::skipped:
            return;
        case FarGreeting::Line::too_much:
            return far_failed(remote_->greeting.give_up());
        }
    }
    if (frame.oversize) return;
    if (auto event = requests_.take(frame.line); event && on_event_) on_event_(*event);
}

void CoreLink::greet_far_core(const std::string& client) {
    HelloParams hello;
    hello.client = client;
    request(op::session_hello, Json(hello), [this, client](const Reply& reply) {
        if (closed_) return;
        if (auto problem = remote_->greeting.check_answer(reply.result, reply.error, client))
            return far_failed(std::move(*problem));
        remote_->err->start_relay();
    });
}

// ssh's stdout ended. Before the far core answered, ssh's exit status and its last words on
// stderr say why; both come a moment later, so wait for them (boundedly).
void CoreLink::far_output_ended() {
    if (closed_) return;
    Remote& r = *remote_;
    if (r.greeting.answered()) return lose("the connection to " + r.address.host + " closed");
    if (r.err->ended) return conclude_far_failure();
    r.err->on_end = [this] { conclude_far_failure(); };
    r.wait_for_stderr.expires_after(std::chrono::seconds(3));
    r.wait_for_stderr.async_wait([this](std::error_code ec) {
        if (!ec) conclude_far_failure();
    });
}

void CoreLink::conclude_far_failure() {
    if (closed_) return;
    Remote& r = *remote_;
    r.err->on_end = nullptr;
    r.wait_for_stderr.cancel();
    int status = reap_exit_status(child_, 2000);
    RemoteProblem problem = classify_ssh_exit(r.address, r.launch, status, r.err->kept);
    if (problem.kind == RemoteFailure::other) problem.message += r.greeting.noise_note();
    far_failed(std::move(problem));
}

void CoreLink::far_failed(RemoteProblem problem) {
    remote_->failure = problem;
    // Nothing the far side says now changes the message; a far program that keeps talking
    // must not keep the frontend's loop running.
    remote_->err->on_end = nullptr;
    remote_->err->in.close();
    lose(problem.message);
}

std::optional<RemoteProblem> CoreLink::failure() const {
    if (!remote_) return std::nullopt;
    return remote_->failure;
}

void CoreLink::request(std::string_view op, const Json& params, ReplyHandler done) {
    channel_->send(requests_.encode(op, params, std::move(done)));
}

void CoreLink::lose(const std::string& why) {
    if (closed_) return;
    closed_ = true;
    requests_.fail_all(make_error(ErrorCode::io_error, why));
    if (on_lost_) on_lost_(why);
}

void CoreLink::close() {
    // Also after a far failure that left the channel open (a far program that answered
    // wrongly is still running).
    if (channel_ && !channel_->closed()) channel_->close_after_flush();
}

} // namespace rio::client
