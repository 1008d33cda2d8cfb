#include "cli/core_link.hpp"

#include "host/listen_address.hpp"
#include "host/user_dirs.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <netdb.h>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

// glibc 2.36 ships this header without the extern "C" guards.
extern "C" {
#include <sys/pidfd.h>
}

namespace rio {
namespace {

Result<int> connect_socket(const std::string& address) {
    if (address.rfind("unix:", 0) == 0) {
        std::string path = address.substr(5);
        sockaddr_un addr{};
        if (path.empty() || path.size() >= sizeof addr.sun_path)
            return make_error(ErrorCode::bad_request, "bad socket path in " + address);
        addr.sun_family = AF_UNIX;
        std::memcpy(addr.sun_path, path.c_str(), path.size());
        int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd >= 0 && ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0)
            return fd;
        std::string why = std::strerror(errno);
        if (fd >= 0) ::close(fd);
        return make_error(ErrorCode::network, "cannot connect to " + address + ": " + why);
    }
    auto colon = address.rfind(':');
    if (colon == std::string::npos)
        return make_error(ErrorCode::bad_request,
                          "expected unix:PATH or HOST:PORT, got " + address);
    std::string host = address.substr(0, colon), port = address.substr(colon + 1);
    if (host.size() > 2 && host.front() == '[') host = host.substr(1, host.size() - 2);
    addrinfo hints{}, *found = nullptr;
    hints.ai_socktype = SOCK_STREAM;
    if (::getaddrinfo(host.c_str(), port.c_str(), &hints, &found) != 0 || !found)
        return make_error(ErrorCode::network, "cannot resolve " + host);
    int fd = -1;
    for (addrinfo* a = found; a && fd < 0; a = a->ai_next) {
        fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
        if (fd >= 0 && ::connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
            ::close(fd);
            fd = -1;
        }
    }
    ::freeaddrinfo(found);
    if (fd < 0)
        return make_error(ErrorCode::network,
                          "cannot connect to " + address + ": " + std::strerror(errno));
    return fd;
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
    hooks.on_frame = [this](Channel&, const Frame& frame) { take(frame); };
    hooks.on_closed = [this](Channel&) {
        closed_ = true;
        if (on_closed_) on_closed_();
    };
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
    // Its own process group: Ctrl+C in the terminal is rio-cli's to handle (stop the turn),
    // not a signal that kills the core mid-turn.
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
    auto parsed = parse_listen_address(address, /*allow_any=*/true);
    if (parsed && !parsed->unix_socket && token.empty()) {
        UserDirs dirs = find_user_dirs("/proc/self/exe");
        token = dirs.listener_token(parsed->host, parsed->port);
        if (token.empty())
            return make_error(ErrorCode::refused,
                              "rio-core at " + address +
                                  " needs its token: pass --token, or run "
                                  "as the user who started it (it keeps the token in " +
                                  dirs.token_file(parsed->host, parsed->port).string() + ")");
    }
    auto fd = connect_socket(address);
    if (!fd) return fd.error();
    std::unique_ptr<CoreLink> link(new CoreLink(io, *fd, ::dup(*fd), -1));
    if (!token.empty())
        link->channel_->send(Json{{"id", "token"},
                                  {"op", "session.hello"},
                                  {"params", {{"token", token}, {"client", "rio-cli"}}}}
                                 .dump() +
                             "\n");
    return link;
}

CoreLink::~CoreLink() {
    close();
    if (child_ <= 0) return;
    // By now the loop has flushed and closed the pipe, so the core is on its way out; give
    // it a moment (it stops a running turn first), then make sure. A pidfd wakes us the
    // moment it exits: polling would add up to a poll interval to every headless run.
    if (int exited = ::pidfd_open(child_, 0); exited >= 0) {
        pollfd watch{exited, POLLIN, 0};
        while (::poll(&watch, 1, 3000) < 0 && errno == EINTR) {
        }
        ::close(exited);
        if (::waitpid(child_, nullptr, WNOHANG) == child_) return;
    } else {
        for (int i = 0; i < 300; ++i) {
            if (::waitpid(child_, nullptr, WNOHANG) == child_) return;
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    }
    ::kill(child_, SIGKILL);
    ::waitpid(child_, nullptr, 0);
}

void CoreLink::request(const std::string& op, const Json& params, OnResponse done) {
    long id = next_id_++;
    if (done) waiting_.emplace(id, std::move(done));
    channel_->send(Json{{"id", id}, {"op", op}, {"params", params}}.dump() + "\n");
}

void CoreLink::take(const Frame& frame) {
    if (frame.oversize) return;
    Json message = Json::parse(frame.line, nullptr, false);
    if (message.is_discarded() || !message.is_object()) return;
    if (message.contains("event")) {
        if (on_event_)
            on_event_(message.value("event", ""), message.value("params", Json::object()));
        return;
    }
    if (!message.contains("id") || !message["id"].is_number_integer()) return;
    auto it = waiting_.find(message["id"].get<long>());
    if (it == waiting_.end()) return;
    OnResponse done = std::move(it->second);
    waiting_.erase(it);
    done(message);
}

void CoreLink::close() {
    if (channel_ && !closed_) channel_->close_after_flush();
}

} // namespace rio
