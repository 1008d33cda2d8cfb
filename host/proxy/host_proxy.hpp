// The only way out of a sandboxed command's network namespace (DESIGN §19, issue 45): an HTTP
// proxy on the core's io_context, listening on a socket made inside that namespace, that lets
// each connection through only to a host a person allowed. CONNECT (https) and plain HTTP
// with an absolute URI; no SOCKS.
//
// A host that is not allowed is never resolved, so not even its name leaves the machine. A
// name allowed only through a pattern must not resolve to a loopback address: whoever runs
// the DNS of example.com could otherwise point *.example.com at the services on the core's
// own machine.
#pragma once

#include "host/proxy/host_rules.hpp"
#include "io/unique_fd.hpp"

#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/steady_timer.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

namespace rio {

// Resolves a host to addresses. Injectable so a test can see that a host that is not allowed
// is never resolved. `done` runs on the io_context's thread, at most once; the proxy sets the
// port of each endpoint itself.
using ResolveDone = std::function<void(std::error_code, std::vector<asio::ip::tcp::endpoint>)>;
using Resolver = std::function<void(const std::string& host, std::uint16_t port, ResolveDone done)>;
// asio's asynchronous resolver (getaddrinfo on asio's own thread).
Resolver system_resolver(asio::io_context& io);

class ProxyConnection;

class HostProxy : public std::enable_shared_from_this<HostProxy> {
public:
    static constexpr std::size_t max_head = 16 * 1024;
    static constexpr std::size_t relay_buffer = 64 * 1024;
    static constexpr std::size_t max_refused = 20;
    // Each connection holds two of the core's descriptors, so a command cannot take them all:
    // past this many open at once, a new one is closed unanswered.
    static constexpr std::size_t max_open = 256;

    // Starts accepting on `listener` (a bound, listening TCP socket; the proxy owns it from
    // now on). An empty `resolve` is system_resolver(io). nullptr when `listener` is not a
    // TCP socket. Runs until stop() or until its last owner lets go of it.
    static std::shared_ptr<HostProxy> start(asio::io_context& io, UniqueFd listener,
                                            std::vector<HostRule> rules, Resolver resolve);
    // Destroy on io's thread, or once io no longer runs: it stops.
    ~HostProxy();
    HostProxy(const HostProxy&) = delete;
    HostProxy& operator=(const HostProxy&) = delete;

    // Closes the listener and every connection. Call on io's thread. Idempotent. Resolves in
    // flight finish into nothing.
    void stop();

    // What it refused, each once, in order, for the command's result: "127.0.0.1 (not among
    // the allowed hosts)", "x.example.com (resolves to a loopback address, which only a host
    // named explicitly may reach)", "nowhere.example (cannot resolve: …)". At most
    // max_refused entries.
    std::vector<std::string> refused() const { return refused_; }
    std::uint64_t connections() const { return accepted_; } // accepted so far

private:
    friend class ProxyConnection;

    HostProxy(asio::io_context& io, std::vector<HostRule> rules, Resolver resolve);
    void accept();
    // accept() failed (out of descriptors, say): again shortly, not in a busy loop.
    void accept_later();
    void admit(asio::ip::tcp::socket socket);
    void note_refused(std::string entry);

    asio::ip::tcp::acceptor acceptor_;
    asio::steady_timer retry_;
    std::vector<HostRule> rules_;
    Resolver resolve_;
    std::vector<std::weak_ptr<ProxyConnection>> open_;
    std::vector<std::string> refused_;
    std::uint64_t accepted_ = 0;
    bool stopped_ = false;
};

} // namespace rio
