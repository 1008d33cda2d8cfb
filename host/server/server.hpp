// Serves the protocol to every connected client: stdio and/or listening sockets. Responses
// go to the requester, events to everyone.
#pragma once

#include "core/dispatch.hpp"
#include "protocol/core_event.hpp"
#include "io/channel.hpp"
#include "io/listen_address.hpp"

#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/local/stream_protocol.hpp>
#include <asio/steady_timer.hpp>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace rio {

class Server {
public:
    Server(asio::io_context& io, const Dispatcher& dispatcher,
           std::size_t max_line = default_max_line);
    ~Server();
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    // stdin/stdout as one client; `on_eof` runs once its last response has been written.
    void serve_stdio(std::function<void()> on_eof);

    // Binds and starts accepting. Returns the bound address (the real port for port 0). A
    // TCP listener admits a client only once its first line is session.hello {token}
    // (host/client_gate); a unix socket is the owner's alone (0600) and needs none.
    Result<ListenAddress> listen(const ListenAddress& address, const std::string& token = {});

    // Broadcasts an event after the response being formed now: a response always precedes
    // the events its request caused.
    Emit emitter();

    void broadcast(std::string line);

    // Runs on every line before it goes to a client: key redaction (DESIGN §12).
    void set_filter(std::function<void(std::string&)> filter) { filter_ = std::move(filter); }

    // Stops accepting, removes socket files, flushes and closes every client; whoever has
    // not read its output within `grace` is closed anyway, so a stuck reader cannot keep
    // the core from exiting.
    void shutdown(std::chrono::milliseconds grace = std::chrono::milliseconds(500));

    std::size_t client_count() const { return clients_.size(); }
    // Runs after a client's channel closed, with its id.
    void on_client_closed(std::function<void(ClientId)> closed) { closed_ = std::move(closed); }

    // Every client has more than `behind_mark` unread: what is streamed can wait for the
    // fastest of them (host/http_client's hold_while). `caught_up` runs when one is no
    // longer behind.
    static constexpr std::size_t behind_mark = 512 * 1024;
    bool readers_behind() const;
    void on_reader_caught_up(std::function<void()> caught_up) { caught_up_ = std::move(caught_up); }

    // A TCP client that has not yet shown the token (DESIGN §12) is a stranger: anyone on the
    // machine, or a web page, can be one. Strangers get a deadline for their first line, a
    // small first line, and a few places; a new one beyond them takes the oldest one's place,
    // so a flood of idle connections costs a handful of descriptors, never the user's saves.
    static constexpr std::chrono::seconds stranger_deadline{5};
    static constexpr std::size_t max_strangers = 32;
    static constexpr std::size_t stranger_max_line = 16 * 1024;

    // Every client's unread output together (DESIGN: one budget, so slow readers cannot
    // take the core's memory and a slow reader never holds up another).
    static constexpr std::size_t output_budget = 128u * 1024 * 1024;

private:
    // `token` non-empty: the client's first line must carry it.
    ClientId add_client(int in_fd, int out_fd, std::function<void()> on_closed,
                        std::string token = {});
    // Queues a line for one client; past the budget, the client with the most unread
    // output is cut off first (the one being sent to, if it is the slowest).
    void deliver(Channel& to, const SharedLine& line);
    SharedLine prepared(std::string line) const;
    Result<ListenAddress> listen_unix(const ListenAddress& address);
    Result<ListenAddress> listen_tcp(const ListenAddress& address, const std::string& token);
    void accept_unix(asio::local::stream_protocol::acceptor& acceptor);
    void accept_tcp(asio::ip::tcp::acceptor& acceptor, const std::string& token);
    // accept() failed (out of descriptors, say): `again` shortly, not in a busy loop.
    void retry_accept(std::function<void()> again);
    // Room for one more stranger: the oldest one goes when they are max_strangers.
    void make_room_for_stranger();

    asio::io_context& io_;
    const Dispatcher& dispatcher_;
    std::size_t max_line_;
    ClientId next_id_ = 1;
    std::map<ClientId, std::shared_ptr<Channel>> clients_;
    std::set<ClientId> strangers_; // TCP clients not admitted yet; the oldest first
    OutputBudget budget_{output_budget, 0};
    std::function<void(std::string&)> filter_;
    std::function<void()> caught_up_;
    std::function<void(ClientId)> closed_;
    std::unique_ptr<asio::steady_timer> shutdown_timer_;
    std::vector<std::unique_ptr<asio::local::stream_protocol::acceptor>> unix_acceptors_;
    std::vector<std::unique_ptr<asio::ip::tcp::acceptor>> tcp_acceptors_;
    std::vector<std::string> socket_files_;
    int stdio_flags_[2] = {-1, -1}; // restored on exit: O_NONBLOCK would leak to the shell
    bool stopped_ = false;
};

} // namespace rio
