#include "client/core_link.hpp"

#include "io/listen_address.hpp"
#include "io/user_dirs.hpp"

#include <asio/connect.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/local/stream_protocol.hpp>
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

} // namespace

std::string find_core_binary() {
    std::error_code ec;
    auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        auto beside = self.parent_path() / "rio-core";
        if (::access(beside.c_str(), X_OK) == 0) return beside.string();
    }
    return "rio-core";
}

CoreLink::CoreLink(asio::io_context& io, int in_fd, int out_fd, pid_t child) : child_(child) {
    Channel::Hooks hooks;
    hooks.on_frame = [this](Channel&, const Frame& frame) {
        if (frame.oversize) return;
        if (auto event = requests_.take(frame.line); event && on_event_) on_event_(*event);
    };
    hooks.on_closed = [this](Channel&) { lose("the core closed the connection"); };
    channel_ = std::make_shared<Channel>(io, in_fd, out_fd, 0, default_max_line, std::move(hooks));
    channel_->start();
}

Result<std::unique_ptr<CoreLink>> CoreLink::spawn(asio::io_context& io, const std::string& core,
                                                  const std::vector<std::string>& args) {
    int to_core[2], from_core[2];
    if (::pipe2(to_core, O_CLOEXEC) != 0) return make_error(ErrorCode::internal, "pipe failed");
    if (::pipe2(from_core, O_CLOEXEC) != 0) {
        ::close(to_core[0]);
        ::close(to_core[1]);
        return make_error(ErrorCode::internal, "pipe failed");
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, to_core[0], 0);
    posix_spawn_file_actions_adddup2(&actions, from_core[1], 1);
    // Its own process group: Ctrl+C in the terminal is the frontend's to handle (stop the
    // turn), not a signal that kills the core mid-turn.
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    std::vector<std::string> argv_s{core};
    argv_s.insert(argv_s.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : argv_s)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = -1;
    int rc = ::posix_spawnp(&pid, core.c_str(), &actions, &attr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    ::close(to_core[0]);
    ::close(from_core[1]);
    if (rc != 0) {
        ::close(to_core[1]);
        ::close(from_core[0]);
        return make_error(ErrorCode::not_found, "cannot start " + core + ": " + std::strerror(rc));
    }
    return std::unique_ptr<CoreLink>(new CoreLink(io, from_core[0], to_core[1], pid));
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
    if (channel_ && !closed_) channel_->close_after_flush();
}

} // namespace rio::client
