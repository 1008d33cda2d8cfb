#include "host/server/server.hpp"

#include "host/server/client_gate.hpp"

#include <asio/post.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace rio {
namespace {

// A socket file that nobody accepts on is left over from a core that died; reuse the path.
// One that answers belongs to a live core and must not be stolen.
Status claim_socket_path(const std::string& path) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) return Ok{};
    if (!S_ISSOCK(st.st_mode))
        return make_error(ErrorCode::refused, path + " exists and is not a socket");
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, path.c_str(), sizeof addr.sun_path - 1);
    int probe = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    bool live =
        probe >= 0 && ::connect(probe, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
    if (probe >= 0) ::close(probe);
    if (live) return make_error(ErrorCode::conflict, "another process is listening on " + path);
    ::unlink(path.c_str());
    return Ok{};
}

} // namespace

Server::Server(asio::io_context& io, const Dispatcher& dispatcher, std::size_t max_line)
    : io_(io), dispatcher_(dispatcher), max_line_(max_line) {}

Server::~Server() {
    shutdown();
    for (int fd : {0, 1})
        if (stdio_flags_[fd] >= 0) ::fcntl(fd, F_SETFL, stdio_flags_[fd]);
}

ClientId Server::add_client(int in_fd, int out_fd, std::function<void()> on_closed,
                            std::string token) {
    ClientId id = next_id_++;
    const bool stranger = !token.empty();
    // What a stranger's gate holds: whether it was admitted, and the deadline of its first
    // line (gone once admitted or closed).
    struct Gate {
        bool admitted;
        std::string token;
        std::unique_ptr<asio::steady_timer> deadline;
    };
    auto gate = std::make_shared<Gate>(Gate{!stranger, std::move(token), nullptr});
    Channel::Hooks hooks;
    hooks.on_frame = [this, gate](Channel& channel, const Frame& frame) {
        if (!gate->admitted) {
            GateVerdict verdict =
                frame.oversize ? GateVerdict::drop : check_first_line(frame.line, gate->token);
            if (verdict == GateVerdict::drop) return channel.close_now();
            if (verdict == GateVerdict::refuse) {
                auto request = parse_request(frame.line);
                auto* parsed = std::get_if<Request>(&request);
                channel.send(
                    format_error(parsed ? parsed->id : Json(nullptr),
                                 make_error(ErrorCode::refused,
                                            "this core listens on TCP and wants its token first: "
                                            "send session.hello {token} (rio-core printed where "
                                            "the token file is)")));
                return channel.close_after_flush();
            }
            gate->admitted = true;
            gate->deadline.reset();
            strangers_.erase(channel.id());
        }
        if (frame.oversize) {
            deliver(channel, prepared(dispatcher_.refuse_oversize(frame.oversize, max_line_)));
            return;
        }
        // An async answer may come after the client left; then it has nowhere to go.
        std::weak_ptr<Channel> requester = channel.shared_from_this();
        dispatcher_.handle(frame.line, channel.id(), [this, requester](std::string line) {
            if (auto alive = requester.lock()) deliver(*alive, prepared(std::move(line)));
        });
    };
    hooks.on_written = [this](Channel& channel) {
        if (caught_up_ && channel.queued_bytes() < behind_mark) caught_up_();
    };
    // Deferred: a channel may close while broadcast() walks the client map.
    hooks.on_closed = [this, gate, on_closed = std::move(on_closed)](Channel& channel) {
        strangers_.erase(channel.id());
        gate->deadline.reset();
        asio::post(io_, [this, id = channel.id(), on_closed] {
            clients_.erase(id);
            if (closed_) closed_(id);
            if (stopped_ && clients_.empty() && shutdown_timer_) shutdown_timer_->cancel();
            if (on_closed) on_closed();
        });
    };
    auto channel =
        std::make_shared<Channel>(io_, in_fd, out_fd, id, max_line_, std::move(hooks), &budget_);
    if (stranger) {
        make_room_for_stranger();
        strangers_.insert(id);
        channel->limit_first_line(stranger_max_line);
        gate->deadline = std::make_unique<asio::steady_timer>(io_, stranger_deadline);
        gate->deadline->async_wait([weak = std::weak_ptr<Channel>(channel)](std::error_code ec) {
            if (ec) return; // admitted or closed
            if (auto late = weak.lock()) late->close_now();
        });
    }
    clients_.emplace(id, channel);
    channel->start();
    return id;
}

void Server::make_room_for_stranger() {
    while (strangers_.size() >= max_strangers) {
        ClientId oldest = *strangers_.begin();
        strangers_.erase(strangers_.begin());
        if (auto it = clients_.find(oldest); it != clients_.end()) it->second->close_now();
    }
}

void Server::retry_accept(std::function<void()> again) {
    auto timer = std::make_shared<asio::steady_timer>(io_, std::chrono::milliseconds(100));
    timer->async_wait([this, timer, again = std::move(again)](std::error_code ec) {
        if (!ec && !stopped_) again();
    });
}

void Server::serve_stdio(std::function<void()> on_eof) {
    for (int fd : {0, 1})
        stdio_flags_[fd] = ::fcntl(fd, F_GETFL);
    add_client(::dup(0), ::dup(1), std::move(on_eof));
}

Result<ListenAddress> Server::listen(const ListenAddress& address, const std::string& token) {
    return address.unix_socket ? listen_unix(address) : listen_tcp(address, token);
}

Result<ListenAddress> Server::listen_unix(const ListenAddress& address) {
    using asio::local::stream_protocol;
    if (Status s = claim_socket_path(address.path); !s) return s.error();
    auto acceptor = std::make_unique<stream_protocol::acceptor>(io_);
    std::error_code ec;
    acceptor->open(stream_protocol(), ec);
    // Owner-only: whoever reaches the socket can drive the agent.
    mode_t old_mask = ::umask(0177);
    if (!ec) acceptor->bind(stream_protocol::endpoint(address.path), ec);
    ::umask(old_mask);
    if (!ec) acceptor->listen(asio::socket_base::max_listen_connections, ec);
    if (ec)
        return make_error(ErrorCode::io_error,
                          "cannot listen on unix:" + address.path + ": " + ec.message());
    socket_files_.push_back(address.path);
    accept_unix(*acceptor);
    unix_acceptors_.push_back(std::move(acceptor));
    return address;
}

Result<ListenAddress> Server::listen_tcp(const ListenAddress& address, const std::string& token) {
    using asio::ip::tcp;
    tcp::endpoint endpoint(asio::ip::make_address(address.host), address.port);
    auto acceptor = std::make_unique<tcp::acceptor>(io_);
    std::error_code ec;
    acceptor->open(endpoint.protocol(), ec);
    if (!ec) acceptor->set_option(tcp::acceptor::reuse_address(true), ec);
    if (!ec) acceptor->bind(endpoint, ec);
    if (!ec) acceptor->listen(asio::socket_base::max_listen_connections, ec);
    if (ec)
        return make_error(ErrorCode::io_error,
                          "cannot listen on " + to_string(address) + ": " + ec.message());
    ListenAddress bound = address;
    bound.port = acceptor->local_endpoint().port();
    accept_tcp(*acceptor, token);
    tcp_acceptors_.push_back(std::move(acceptor));
    return bound;
}

void Server::accept_unix(asio::local::stream_protocol::acceptor& acceptor) {
    acceptor.async_accept(
        [this, &acceptor](std::error_code ec, asio::local::stream_protocol::socket socket) {
            if (stopped_ || ec == asio::error::operation_aborted) return;
            if (ec) return retry_accept([this, &acceptor] { accept_unix(acceptor); });
            int fd = socket.release();
            int out = ::dup(fd);
            if (out < 0) {
                ::close(fd);
                return retry_accept([this, &acceptor] { accept_unix(acceptor); });
            }
            add_client(fd, out, nullptr);
            accept_unix(acceptor);
        });
}

void Server::accept_tcp(asio::ip::tcp::acceptor& acceptor, const std::string& token) {
    acceptor.async_accept(
        [this, &acceptor, token](std::error_code ec, asio::ip::tcp::socket socket) {
            if (stopped_ || ec == asio::error::operation_aborted) return;
            if (ec) return retry_accept([this, &acceptor, token] { accept_tcp(acceptor, token); });
            socket.set_option(asio::ip::tcp::no_delay(true), ec);
            int fd = socket.release();
            int out = ::dup(fd);
            if (out < 0) {
                ::close(fd);
                return retry_accept([this, &acceptor, token] { accept_tcp(acceptor, token); });
            }
            add_client(fd, out, nullptr, token);
            accept_tcp(acceptor, token);
        });
}

Emit Server::emitter() {
    // The one place a core event becomes JSON.
    return [this](const CoreEvent& event) {
        asio::post(io_,
                   [this, line = format_event(event_name(event), event_params(event))]() mutable {
                       broadcast(std::move(line));
                   });
    };
}

bool Server::readers_behind() const {
    bool any = false;
    for (const auto& [id, channel] : clients_) {
        if (channel->closed()) continue;
        if (channel->queued_bytes() <= behind_mark) return false;
        any = true;
    }
    return any;
}

void Server::broadcast(std::string line) {
    SharedLine shared = prepared(std::move(line));
    for (auto& [id, channel] : clients_)
        deliver(*channel, shared);
}

SharedLine Server::prepared(std::string line) const {
    if (filter_) filter_(line);
    return std::make_shared<const std::string>(std::move(line));
}

void Server::deliver(Channel& to, const SharedLine& line) {
    while (budget_.used + line->size() > budget_.limit) {
        Channel* slowest = nullptr;
        for (auto& [id, channel] : clients_)
            if (!channel->closed() &&
                (!slowest || channel->queued_bytes() > slowest->queued_bytes()))
                slowest = channel.get();
        if (!slowest || slowest->queued_bytes() == 0) break; // one line larger than the budget
        std::fprintf(stderr, "rio-core: client %llu has %zu MB unread; disconnecting it\n",
                     static_cast<unsigned long long>(slowest->id()),
                     slowest->queued_bytes() / (1024 * 1024));
        slowest->close_now();
    }
    to.send(line);
}

void Server::shutdown(std::chrono::milliseconds grace) {
    if (stopped_) return;
    stopped_ = true;
    // With no client left (the stdio client's end of input is what usually stops the core),
    // a timer would only hold io.run() open for the whole grace period.
    if (!clients_.empty()) {
        shutdown_timer_ = std::make_unique<asio::steady_timer>(io_, grace);
        shutdown_timer_->async_wait([this](std::error_code ec) {
            if (ec) return;
            for (auto& [id, channel] : clients_)
                channel->close_now();
        });
    }
    std::error_code ignored;
    for (auto& acceptor : unix_acceptors_)
        acceptor->close(ignored);
    for (auto& acceptor : tcp_acceptors_)
        acceptor->close(ignored);
    for (const std::string& path : socket_files_)
        ::unlink(path.c_str());
    for (auto& [id, channel] : clients_)
        channel->close_after_flush();
}

} // namespace rio
