#include "host/proxy/host_proxy.hpp"

#include "host/proxy/proxy_request.hpp"

#include <algorithm>
#include <asio/connect.hpp>
#include <asio/write.hpp>
#include <chrono>
#include <sys/socket.h>

namespace rio {

using asio::ip::tcp;

namespace {

// After its own answer the proxy reads on for a while before closing: closing with unread
// bytes makes the kernel reset the connection, and the client may lose the answer to it.
constexpr std::size_t max_drain = std::size_t{1024} * 1024;

struct Reply {
    int code;
    std::string_view reason;
    std::string body;
};

std::string response_text(const Reply& reply) {
    std::string text = "HTTP/1.1 " + std::to_string(reply.code) + " " + std::string(reply.reason);
    text += "\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ";
    text += std::to_string(reply.body.size()) + "\r\nConnection: close\r\n";
    // Tells a refusal by the proxy from a 403 of the server behind it.
    if (reply.code == 403) text += "X-Rio-Refused: 1\r\n";
    return text + "\r\n" + reply.body;
}

std::string authority(const ProxyRequest& request) {
    bool v6 = request.host.find(':') != std::string::npos;
    std::string host = v6 ? "[" + request.host + "]" : request.host;
    return host + ":" + std::to_string(request.port);
}

std::string allowed_list(const std::vector<HostRule>& rules) {
    if (rules.empty()) return "none";
    std::string list;
    for (const auto& rule : rules)
        list += (list.empty() ? "" : ", ") + to_string(rule);
    return list;
}

Reply not_allowed(const std::string& host, const std::vector<HostRule>& rules) {
    return {403, "Forbidden",
            "rio: " + host + " is not among the hosts this command may reach (allowed: " +
                allowed_list(rules) + "). A person can allow it when approving the command.\n"};
}

Reply loopback_refused(const std::string& host) {
    return {403, "Forbidden",
            "rio: " + host +
                " resolves to a loopback address, which only a host named explicitly may "
                "reach.\n"};
}

Reply bad_gateway(std::string body) {
    return {502, "Bad Gateway", std::move(body)};
}

constexpr std::string_view connection_established = "HTTP/1.1 200 Connection established\r\n\r\n";

} // namespace

// One client of the proxy: its head, then a refusal or the relay to the host it asked for.
// Every pending operation holds it by shared_ptr; the proxy holds it weakly, to close it.
class ProxyConnection : public std::enable_shared_from_this<ProxyConnection> {
public:
    ProxyConnection(tcp::socket client, std::weak_ptr<HostProxy> proxy)
        : client_(std::move(client)), upstream_(client_.get_executor()), proxy_(std::move(proxy)),
          chunk_(HostProxy::max_head) {}

    void begin() { read_head(); }
    bool closed() const { return closed_; }

    // Both sockets at once: whatever is pending ends with operation_aborted and finds
    // closed_ set.
    void close() {
        if (closed_) return;
        closed_ = true;
        std::error_code ignored;
        client_.close(ignored);
        upstream_.close(ignored);
    }

private:
    // One direction of the relay: read, write all of it, only then read again, so nothing
    // piles up when one side is slower than the other.
    struct Pipe {
        tcp::socket* from = nullptr;
        tcp::socket* to = nullptr;
        std::vector<char> buffer;
        bool ended = false;
    };

    void read_head() {
        client_.async_read_some(asio::buffer(chunk_),
                                [self = shared_from_this()](std::error_code ec, std::size_t n) {
                                    if (self->closed_) return;
                                    if (ec) return self->close();
                                    self->received_.append(self->chunk_.data(), n);
                                    self->on_received(n);
                                });
    }

    void on_received(std::size_t n) {
        auto from = received_.size() - n;
        auto end = received_.find("\r\n\r\n", from < 3 ? 0 : from - 3);
        if (end == std::string::npos && received_.size() < HostProxy::max_head) return read_head();
        if (end == std::string::npos || end + 4 > HostProxy::max_head)
            return respond({431, "Request Header Fields Too Large",
                            "rio: the request head is longer than " +
                                std::to_string(HostProxy::max_head) + " bytes\n"});
        auto request = read_proxy_request(std::string_view(received_).substr(0, end + 4));
        if (!request)
            return respond({400, "Bad Request", "rio: " + request.error().message + "\n"});
        received_.erase(0, end + 4);
        serve(std::move(*request));
    }

    void serve(ProxyRequest request) {
        auto proxy = proxy_.lock();
        if (!proxy) return close();
        request_ = std::move(request);
        match_ = match_host(proxy->rules_, request_.host);
        if (match_ == HostMatch::none) {
            proxy->note_refused(request_.host + " (not among the allowed hosts)");
            return respond(not_allowed(request_.host, proxy->rules_));
        }
        if (auto address = literal_address(request_.host))
            return connect({tcp::endpoint(*address, request_.port)});
        proxy->resolve_(
            request_.host, request_.port,
            [self = shared_from_this()](std::error_code ec, std::vector<tcp::endpoint> endpoints) {
                if (self->closed_) return;
                self->on_resolved(ec, std::move(endpoints));
            });
    }

    void on_resolved(std::error_code ec, std::vector<tcp::endpoint> endpoints) {
        if (!ec && endpoints.empty()) ec = asio::error::host_not_found;
        if (ec) {
            note_refused(request_.host + " (cannot resolve: " + ec.message() + ")");
            return respond(
                bad_gateway("rio: cannot resolve " + request_.host + ": " + ec.message() + "\n"));
        }
        auto reaches_loopback = [](const tcp::endpoint& e) { return is_loopback(e.address()); };
        if (match_ == HostMatch::pattern &&
            std::any_of(endpoints.begin(), endpoints.end(), reaches_loopback)) {
            note_refused(request_.host + " (resolves to a loopback address, which only a host "
                                         "named explicitly may reach)");
            return respond(loopback_refused(request_.host));
        }
        for (auto& endpoint : endpoints)
            endpoint.port(request_.port);
        connect(std::move(endpoints));
    }

    void note_refused(std::string entry) {
        if (auto proxy = proxy_.lock()) proxy->note_refused(std::move(entry));
    }

    // The addresses in order, the first that answers.
    void connect(std::vector<tcp::endpoint> endpoints) {
        endpoints_ = std::move(endpoints);
        asio::async_connect(upstream_, endpoints_,
                            [self = shared_from_this()](std::error_code ec, const tcp::endpoint&) {
                                if (self->closed_) return;
                                if (ec)
                                    return self->respond(bad_gateway("rio: cannot connect to " +
                                                                     authority(self->request_) +
                                                                     ": " + ec.message() + "\n"));
                                self->on_connected();
                            });
    }

    void on_connected() {
        std::error_code ignored;
        upstream_.set_option(tcp::no_delay(true), ignored);
        if (request_.method == ProxyMethod::forward)
            return write(upstream_, request_.upstream_head + received_, &ProxyConnection::relay);
        write(client_, std::string(connection_established), &ProxyConnection::send_early_bytes);
    }

    // What the client sent past the CONNECT head before it saw the 200 (a TLS hello, say).
    void send_early_bytes() { write(upstream_, std::move(received_), &ProxyConnection::relay); }

    void write(tcp::socket& to, std::string bytes, void (ProxyConnection::*then)()) {
        outgoing_ = std::move(bytes);
        asio::async_write(to, asio::buffer(outgoing_),
                          [self = shared_from_this(), then](std::error_code ec, std::size_t) {
                              if (self->closed_) return;
                              if (ec) return self->close();
                              ((*self).*then)();
                          });
    }

    void relay() {
        received_ = {};
        outgoing_ = {};
        chunk_ = {};
        up_ = {&client_, &upstream_, std::vector<char>(HostProxy::relay_buffer), false};
        down_ = {&upstream_, &client_, std::vector<char>(HostProxy::relay_buffer), false};
        pump(up_);
        pump(down_);
    }

    void pump(Pipe& pipe) {
        pipe.from->async_read_some(
            asio::buffer(pipe.buffer),
            [self = shared_from_this(), &pipe](std::error_code ec, std::size_t n) {
                if (self->closed_) return;
                if (ec == asio::error::eof) return self->pipe_ended(pipe);
                if (ec) return self->close();
                asio::async_write(*pipe.to, asio::buffer(pipe.buffer.data(), n),
                                  [self, &pipe](std::error_code written, std::size_t) {
                                      if (self->closed_) return;
                                      if (written) return self->close();
                                      self->pump(pipe);
                                  });
            });
    }

    // The other side hears the end too, and may still answer: a client that half-closes
    // after its request still gets the response.
    void pipe_ended(Pipe& pipe) {
        pipe.ended = true;
        std::error_code ignored;
        pipe.to->shutdown(tcp::socket::shutdown_send, ignored);
        if (up_.ended && down_.ended) close();
    }

    void respond(const Reply& reply) {
        write(client_, response_text(reply), &ProxyConnection::linger);
    }

    void linger() {
        std::error_code ignored;
        client_.shutdown(tcp::socket::shutdown_send, ignored);
        drain(max_drain);
    }

    void drain(std::size_t left) {
        client_.async_read_some(asio::buffer(chunk_), [self = shared_from_this(),
                                                       left](std::error_code ec, std::size_t n) {
            if (self->closed_) return;
            if (ec || n >= left) return self->close();
            self->drain(left - n);
        });
    }

    tcp::socket client_;
    tcp::socket upstream_;
    std::weak_ptr<HostProxy> proxy_;
    std::vector<char> chunk_; // reads before the relay: the head, then what is drained
    std::string received_;    // the head, then what came after it
    std::string outgoing_;    // what the proxy writes itself, alive until written
    ProxyRequest request_;
    HostMatch match_ = HostMatch::none;
    std::vector<tcp::endpoint> endpoints_;
    Pipe up_;   // client to upstream
    Pipe down_; // upstream to client
    bool closed_ = false;
};

Resolver system_resolver(asio::io_context& io) {
    return [&io](const std::string& host, std::uint16_t port, ResolveDone done) {
        auto resolver = std::make_shared<tcp::resolver>(io);
        resolver->async_resolve(
            host, std::to_string(port), tcp::resolver::numeric_service,
            [resolver, done = std::move(done)](std::error_code ec,
                                               const tcp::resolver::results_type& results) {
                std::vector<tcp::endpoint> endpoints;
                for (const auto& entry : results)
                    endpoints.push_back(entry.endpoint());
                done(ec, std::move(endpoints));
            });
    };
}

HostProxy::HostProxy(asio::io_context& io, std::vector<HostRule> rules, Resolver resolve)
    : acceptor_(io), retry_(io), rules_(std::move(rules)), resolve_(std::move(resolve)) {}

HostProxy::~HostProxy() {
    stop();
}

std::shared_ptr<HostProxy> HostProxy::start(asio::io_context& io, UniqueFd listener,
                                            std::vector<HostRule> rules, Resolver resolve) {
    sockaddr_storage bound{};
    socklen_t length = sizeof bound;
    if (::getsockname(listener.fd, reinterpret_cast<sockaddr*>(&bound), &length) != 0)
        return nullptr;
    if (bound.ss_family != AF_INET && bound.ss_family != AF_INET6) return nullptr;
    if (!resolve) resolve = system_resolver(io);
    std::shared_ptr<HostProxy> proxy(new HostProxy(io, std::move(rules), std::move(resolve)));
    std::error_code ec;
    proxy->acceptor_.assign(bound.ss_family == AF_INET6 ? tcp::v6() : tcp::v4(), listener.fd, ec);
    if (ec) return nullptr;
    listener.release();
    proxy->accept();
    return proxy;
}

void HostProxy::stop() {
    if (stopped_) return;
    stopped_ = true;
    std::error_code ignored;
    acceptor_.close(ignored);
    retry_.cancel();
    for (const auto& weak : open_)
        if (auto connection = weak.lock()) connection->close();
    open_.clear();
}

void HostProxy::accept() {
    acceptor_.async_accept([weak = weak_from_this()](std::error_code ec, tcp::socket socket) {
        auto self = weak.lock();
        if (!self || self->stopped_ || ec == asio::error::operation_aborted) return;
        if (ec) return self->accept_later();
        self->admit(std::move(socket));
        self->accept();
    });
}

void HostProxy::accept_later() {
    retry_.expires_after(std::chrono::milliseconds(100));
    retry_.async_wait([weak = weak_from_this()](std::error_code ec) {
        auto self = weak.lock();
        if (!self || self->stopped_ || ec) return;
        self->accept();
    });
}

void HostProxy::admit(tcp::socket socket) {
    ++accepted_;
    std::erase_if(open_, [](const std::weak_ptr<ProxyConnection>& weak) {
        auto connection = weak.lock();
        return !connection || connection->closed();
    });
    if (open_.size() >= max_open) return;
    std::error_code ignored;
    socket.set_option(tcp::no_delay(true), ignored);
    auto connection = std::make_shared<ProxyConnection>(std::move(socket), weak_from_this());
    open_.push_back(connection);
    connection->begin();
}

void HostProxy::note_refused(std::string entry) {
    if (refused_.size() >= max_refused) return;
    if (std::find(refused_.begin(), refused_.end(), entry) != refused_.end()) return;
    refused_.push_back(std::move(entry));
}

} // namespace rio
