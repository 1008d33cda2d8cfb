#include "host/proxy/host_proxy.hpp"
#include "host/proxy/host_rules.hpp"
#include "host/proxy/proxy_request.hpp"

#include <arpa/inet.h>
#include <array>
#include <asio/executor_work_guard.hpp>
#include <asio/post.hpp>
#include <asio/write.hpp>
#include <atomic>
#include <cerrno>
#include <fcntl.h>
#include <future>
#include <gtest/gtest.h>
#include <mutex>
#include <netinet/in.h>
#include <optional>
#include <sys/socket.h>
#include <sys/time.h>
#include <thread>
#include <unistd.h>

namespace rio {
namespace {

using asio::ip::tcp;

// Generous on purpose: it turns a hang into a failure, it does not synchronise anything.
constexpr int guard_seconds = 10;

std::vector<HostRule> rules_of(std::vector<std::string> texts) {
    auto rules = read_host_rules(texts);
    EXPECT_TRUE(rules.ok()) << (rules ? "" : rules.error().message);
    return rules ? *rules : std::vector<HostRule>{};
}

std::string refusal_of(std::string_view text) {
    auto rule = read_host_rule(text);
    EXPECT_FALSE(rule.ok()) << "accepted: " << text;
    if (rule) return {};
    EXPECT_EQ(rule.error().code, ErrorCode::bad_request);
    return rule.error().message;
}

std::string refusal_of_request(std::string_view head) {
    auto request = read_proxy_request(head);
    EXPECT_FALSE(request.ok()) << "accepted: " << head;
    if (request) return {};
    EXPECT_EQ(request.error().code, ErrorCode::bad_request);
    return request.error().message;
}

bool has(const std::string& text, std::string_view words) {
    return text.find(words) != std::string::npos;
}

// ---- host rules ----

TEST(HostRules, AcceptsNamesAddressesAndPatterns) {
    struct Case {
        std::string_view text;
        std::string name;
        bool pattern;
    };
    const Case cases[] = {
        {"registry.npmjs.org", "registry.npmjs.org", false},
        {"Registry.NPMJS.org.", "registry.npmjs.org", false},
        {"  example.com\t", "example.com", false},
        {"localhost", "localhost", false},
        {"a-b.x1.example", "a-b.x1.example", false},
        {"xn--bcher-kva.example", "xn--bcher-kva.example", false},
        {"127.0.0.1", "127.0.0.1", false},
        {"::1", "::1", false},
        {"[::1]", "::1", false},
        {"0:0::1", "::1", false},
        {"[2001:DB8::1]", "2001:db8::1", false},
        {"*.example.com", "example.com", true},
        {"*.Example.COM.", "example.com", true},
        {"*.co.uk", "co.uk", true},
    };
    for (const auto& c : cases) {
        auto rule = read_host_rule(c.text);
        ASSERT_TRUE(rule.ok()) << c.text << ": " << rule.error().message;
        EXPECT_EQ(rule->name, c.name) << c.text;
        EXPECT_EQ(rule->pattern, c.pattern) << c.text;
    }
    EXPECT_TRUE(read_host_rule(std::string(63, 'a') + ".example").ok());
}

TEST(HostRules, RefusesWithWordsAPersonCanActOn) {
    EXPECT_TRUE(has(refusal_of(""), "empty"));
    EXPECT_TRUE(has(refusal_of("   "), "empty"));
    EXPECT_EQ(refusal_of("*"),
              "* would allow every host: name the hosts, or approve the whole network");
    EXPECT_TRUE(has(refusal_of("*.com"), "at least two labels"));
    EXPECT_TRUE(has(refusal_of("*.com"), "*.example.com"));
    EXPECT_TRUE(has(refusal_of("a*.example.com"), "only at the front"));
    EXPECT_TRUE(has(refusal_of("*.*.example.com"), "only at the front"));
    EXPECT_TRUE(has(refusal_of("*example.com"), "only at the front"));

    auto url = refusal_of("https://registry.npmjs.org/");
    EXPECT_TRUE(has(url, "is a URL")) << url;
    EXPECT_TRUE(url.ends_with("give the host alone: registry.npmjs.org")) << url;
    EXPECT_TRUE(refusal_of("http://user@Example.com:8080/x?y")
                    .ends_with("give the host alone: example.com"));

    auto path = refusal_of("example.com/x");
    EXPECT_TRUE(has(path, "has a path")) << path;
    EXPECT_TRUE(path.ends_with("give the host alone: example.com")) << path;

    auto port = refusal_of("example.com:443");
    EXPECT_TRUE(
        has(port, "every port of an allowed host is allowed: give example.com without :443"))
        << port;
    EXPECT_TRUE(has(refusal_of("[::1]:8080"), "give ::1 without :8080"));

    EXPECT_TRUE(has(refusal_of("10.0.0.0/8"), "address range"));
    EXPECT_TRUE(has(refusal_of("fd00::/8"), "address range"));

    EXPECT_TRUE(has(refusal_of("exa_mple.com"), "'_', which a host name cannot have"));
    EXPECT_TRUE(has(refusal_of("exa mple.com"), "a space, which a host name cannot have"));
    EXPECT_TRUE(has(refusal_of("example.com;rm"), "';'"));
    EXPECT_TRUE(has(refusal_of("bücher.example"), "xn--"));
    EXPECT_TRUE(has(refusal_of(std::string(64, 'a') + ".example"), "longer than the 63 bytes"));
    EXPECT_TRUE(has(refusal_of("-a.example"), "starts or ends with '-'"));
    EXPECT_TRUE(has(refusal_of("a-.example"), "starts or ends with '-'"));
    EXPECT_TRUE(has(refusal_of("a..example"), "empty label"));
    EXPECT_TRUE(has(refusal_of(".example"), "empty label"));

    std::string long_name;
    for (int i = 0; i < 26; ++i)
        long_name += "abcdefghi.";
    long_name += "example";
    EXPECT_TRUE(has(refusal_of(long_name), "253"));

    EXPECT_TRUE(has(refusal_of("256.1.1.1"), "not a single IPv4 address"));
    EXPECT_TRUE(has(refusal_of("127.1"), "not a single IPv4 address"));
    EXPECT_TRUE(has(refusal_of("*.0.1"), "digits alone"));
    EXPECT_TRUE(has(refusal_of("*.10.0.0.1"), "pattern covers names"));
    EXPECT_TRUE(has(refusal_of("[example.com]"), "only an IPv6 address"));
    EXPECT_TRUE(has(refusal_of("fe80::1%eth0"), "zone index"));
    EXPECT_TRUE(has(refusal_of("1:2:3"), "not an IPv6 address"));
}

TEST(HostRules, ReadsAllOrNamesTheFirstRefusal) {
    auto rules = read_host_rules({"registry.npmjs.org", "*.example.com", "::1"});
    ASSERT_TRUE(rules.ok());
    ASSERT_EQ(rules->size(), 3u);
    EXPECT_TRUE((*rules)[1].pattern);

    auto refused = read_host_rules({"registry.npmjs.org", "example.com:443", "*"});
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code, ErrorCode::bad_request);
    EXPECT_TRUE(refused.error().message.starts_with("example.com:443 ")) << refused.error().message;
}

TEST(HostRules, WritesBackAsAPersonWouldWrite) {
    for (std::string_view text : {"registry.npmjs.org", "*.example.com", "::1", "127.0.0.1"})
        EXPECT_EQ(to_string(*read_host_rule(text)), text);
    EXPECT_EQ(to_string(*read_host_rule("[0:0::1]")), "::1");
}

// ---- matching ----

TEST(MatchHost, NamedExactlyWithCaseAndTrailingDotFolded) {
    auto rules = rules_of({"registry.npmjs.org", "localhost"});
    EXPECT_EQ(match_host(rules, "registry.npmjs.org"), HostMatch::named);
    EXPECT_EQ(match_host(rules, "Registry.NPMjs.ORG."), HostMatch::named);
    EXPECT_EQ(match_host(rules, "localhost"), HostMatch::named);
    EXPECT_EQ(match_host(rules, "npmjs.org"), HostMatch::none);
    EXPECT_EQ(match_host(rules, "x.registry.npmjs.org"), HostMatch::none);
    EXPECT_EQ(match_host(rules, "registry.npmjs.org.evil"), HostMatch::none);
    EXPECT_EQ(match_host(rules, "registry.npmjs.org.."), HostMatch::none);
}

TEST(MatchHost, PatternCoversNamesBelowNotItself) {
    auto rules = rules_of({"*.example.com"});
    EXPECT_EQ(match_host(rules, "a.example.com"), HostMatch::pattern);
    EXPECT_EQ(match_host(rules, "A.B.Example.Com."), HostMatch::pattern);
    EXPECT_EQ(match_host(rules, "example.com"), HostMatch::none);
    EXPECT_EQ(match_host(rules, "badexample.com"), HostMatch::none);
    EXPECT_EQ(match_host(rules, ".example.com"), HostMatch::none);
    EXPECT_EQ(match_host(rules, "a..example.com"), HostMatch::none);
    EXPECT_EQ(match_host(rules, "example.com.evil"), HostMatch::none);

    auto both = rules_of({"*.example.com", "a.example.com"});
    EXPECT_EQ(match_host(both, "a.example.com"), HostMatch::named);
}

TEST(MatchHost, AddressesCompareAsAddresses) {
    auto rules = rules_of({"::1", "10.1.2.3"});
    EXPECT_EQ(match_host(rules, "::1"), HostMatch::named);
    EXPECT_EQ(match_host(rules, "0:0::1"), HostMatch::named);
    EXPECT_EQ(match_host(rules, "[0:0:0:0:0:0:0:1]"), HostMatch::named);
    EXPECT_EQ(match_host(rules, "10.1.2.3"), HostMatch::named);
    EXPECT_EQ(match_host(rules, "::ffff:10.1.2.3"), HostMatch::named);
    EXPECT_EQ(match_host(rules, "10.1.2.4"), HostMatch::none);
    EXPECT_EQ(match_host(rules, "127.0.0.1"), HostMatch::none);
    EXPECT_EQ(match_host(rules, std::string_view("10.1.2.3\0x", 10)), HostMatch::none);
}

TEST(MatchHost, AnAddressNeverMatchesANameOrAPattern) {
    EXPECT_EQ(match_host(rules_of({"localhost"}), "127.0.0.1"), HostMatch::none);
    EXPECT_EQ(match_host(rules_of({"127.0.0.1"}), "localhost"), HostMatch::none);
    // No entry a person can write makes such a pattern; the rule is built by hand to show
    // that an address would not match it anyway.
    EXPECT_EQ(match_host({HostRule{"0.0.1", true}}, "127.0.0.1"), HostMatch::none);
    EXPECT_EQ(match_host({HostRule{"0.0.1", true}}, "127.0.0.1."), HostMatch::none);
    EXPECT_EQ(match_host(rules_of({"*.example.com"}), "[::1]"), HostMatch::none);
}

TEST(IsLoopback, CoversLoopbackUnspecifiedAndTheirMappedForms) {
    for (auto text :
         {"127.0.0.1", "127.255.3.4", "::1", "0.0.0.0", "::", "::ffff:127.0.0.1", "::ffff:0.0.0.0"})
        EXPECT_TRUE(is_loopback(asio::ip::make_address(text))) << text;
    for (auto text : {"10.0.0.1", "192.168.1.1", "::ffff:10.0.0.1", "2001:db8::1", "fe80::1"})
        EXPECT_FALSE(is_loopback(asio::ip::make_address(text))) << text;
}

// ---- requests ----

TEST(ProxyRequestRead, Connect) {
    auto request = read_proxy_request("CONNECT Registry.npmjs.org:443 HTTP/1.1\r\n"
                                      "Host: registry.npmjs.org:443\r\n\r\n");
    ASSERT_TRUE(request.ok()) << request.error().message;
    EXPECT_EQ(request->method, ProxyMethod::connect);
    EXPECT_EQ(request->host, "Registry.npmjs.org");
    EXPECT_EQ(request->port, 443);
    EXPECT_EQ(request->upstream_head, "");
}

TEST(ProxyRequestRead, ConnectToABracketedIpv6) {
    auto request = read_proxy_request("CONNECT [::1]:8080 HTTP/1.1\r\n\r\n");
    ASSERT_TRUE(request.ok()) << request.error().message;
    EXPECT_EQ(request->host, "::1");
    EXPECT_EQ(request->port, 8080);
}

TEST(ProxyRequestRead, ForwardSendsOriginFormWithoutHopHeadersAndClosing) {
    auto request = read_proxy_request("GET http://Example.com:8080/a/b?q=1&r=%20 HTTP/1.1\r\n"
                                      "Host: elsewhere.example\r\n"
                                      "User-Agent: curl/8\r\n"
                                      "Proxy-Connection: Keep-Alive\r\n"
                                      "proxy-authorization: Basic eDp5\r\n"
                                      "Connection: keep-alive\r\n"
                                      "Keep-Alive: timeout=5\r\n"
                                      "Accept: */*\r\n"
                                      "X-Empty:\r\n"
                                      "\r\n");
    ASSERT_TRUE(request.ok()) << request.error().message;
    EXPECT_EQ(request->method, ProxyMethod::forward);
    EXPECT_EQ(request->host, "Example.com");
    EXPECT_EQ(request->port, 8080);
    EXPECT_EQ(request->upstream_head, "GET /a/b?q=1&r=%20 HTTP/1.1\r\n"
                                      "Host: Example.com:8080\r\n"
                                      "User-Agent: curl/8\r\n"
                                      "Accept: */*\r\n"
                                      "X-Empty:\r\n"
                                      "Connection: close\r\n"
                                      "\r\n");
}

TEST(ProxyRequestRead, ForwardDefaultsPortAndPath) {
    auto bare = read_proxy_request("POST HTTP://example.com HTTP/1.0\r\n\r\n");
    ASSERT_TRUE(bare.ok()) << bare.error().message;
    EXPECT_EQ(bare->port, 80);
    EXPECT_EQ(bare->upstream_head,
              "POST / HTTP/1.0\r\nHost: example.com\r\nConnection: close\r\n\r\n");

    auto query = read_proxy_request("GET http://example.com?x=1#frag HTTP/1.1\r\n\r\n");
    ASSERT_TRUE(query.ok()) << query.error().message;
    EXPECT_TRUE(query->upstream_head.starts_with("GET /?x=1 HTTP/1.1\r\n")) << query->upstream_head;

    auto v6 = read_proxy_request("GET http://[::1]:81/ HTTP/1.1\r\n\r\n");
    ASSERT_TRUE(v6.ok()) << v6.error().message;
    EXPECT_EQ(v6->host, "::1");
    EXPECT_EQ(v6->port, 81);
    EXPECT_TRUE(has(v6->upstream_head, "\r\nHost: [::1]:81\r\n"));
}

TEST(ProxyRequestRead, RefusesWithReasons) {
    EXPECT_EQ(refusal_of_request(""), "no request line");
    EXPECT_EQ(refusal_of_request("\r\n\r\n"), "no request line");
    EXPECT_TRUE(has(refusal_of_request("GARBAGE\r\n\r\n"), "METHOD TARGET HTTP/1.x"));
    EXPECT_TRUE(has(refusal_of_request("GET http://x/ HTTP/2\r\n\r\n"), "HTTP/1.x"));
    EXPECT_TRUE(has(refusal_of_request("GET http://x/ HTTP/1.1x\r\n\r\n"), "HTTP/1.x"));

    EXPECT_TRUE(has(refusal_of_request("CONNECT example.com HTTP/1.1\r\n\r\n"), "host:port"));
    EXPECT_TRUE(has(refusal_of_request("CONNECT [::1] HTTP/1.1\r\n\r\n"), "host:port"));
    for (auto port : {"0", "65536", "99999", "https", "", "-1", "443x"})
        EXPECT_TRUE(has(
            refusal_of_request("CONNECT example.com:" + std::string(port) + " HTTP/1.1\r\n\r\n"),
            "not a port"))
            << port;
    EXPECT_TRUE(has(refusal_of_request("CONNECT ::1:443 HTTP/1.1\r\n\r\n"), "[brackets]"));
    EXPECT_TRUE(has(refusal_of_request("CONNECT [nope]:443 HTTP/1.1\r\n\r\n"), "IPv6"));
    EXPECT_TRUE(has(refusal_of_request("CONNECT ex%ample.com:443 HTTP/1.1\r\n\r\n"), "host name"));

    EXPECT_TRUE(has(refusal_of_request("GET https://example.com/ HTTP/1.1\r\n\r\n"),
                    "use CONNECT for https"));
    EXPECT_TRUE(has(refusal_of_request("GET /x HTTP/1.1\r\nHost: example.com\r\n\r\n"),
                    "this is a proxy: ask for an absolute URI"));
    EXPECT_TRUE(has(refusal_of_request("OPTIONS * HTTP/1.1\r\n\r\n"), "absolute URI"));
    EXPECT_TRUE(has(refusal_of_request("GET ftp://example.com/ HTTP/1.1\r\n\r\n"), "http://"));
    EXPECT_TRUE(has(refusal_of_request("GET http:///x HTTP/1.1\r\n\r\n"), "host name"));
    EXPECT_TRUE(has(refusal_of_request("GET http://u:p@example.com/ HTTP/1.1\r\n\r\n"), "user"));
    EXPECT_TRUE(has(refusal_of_request("GET http://example.com:0/ HTTP/1.1\r\n\r\n"), "port"));

    // A bare LF could read as a line break upstream and smuggle a second Host past the proxy.
    EXPECT_TRUE(has(refusal_of_request("GET http://a.example/ HTTP/1.1\r\n"
                                       "X: 1\nHost: b.example\r\n\r\n"),
                    "Name: value"));
    EXPECT_TRUE(has(refusal_of_request("GET http://a.example/ HTTP/1.1\r\nX: 1\r\n folded\r\n\r\n"),
                    "folded"));
    EXPECT_TRUE(has(refusal_of_request("GET http://a.example/ HTTP/1.1\r\nNo colon\r\n\r\n"),
                    "Name: value"));
}

// ---- the proxy on real sockets ----

// A blocking client with guard timeouts, on the test's own thread.
class Client {
public:
    explicit Client(std::uint16_t port) : fd_(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) {
        timeval guard{guard_seconds, 0};
        ::setsockopt(fd_.fd, SOL_SOCKET, SO_RCVTIMEO, &guard, sizeof guard);
        ::setsockopt(fd_.fd, SOL_SOCKET, SO_SNDTIMEO, &guard, sizeof guard);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(port);
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        connected_ = ::connect(fd_.fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
    }

    bool connected() const { return connected_; }

    bool send(std::string_view bytes) {
        while (!bytes.empty()) {
            auto n = ::send(fd_.fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
            if (n <= 0) return false;
            bytes.remove_prefix(static_cast<std::size_t>(n));
        }
        return true;
    }

    void end_sending() { ::shutdown(fd_.fd, SHUT_WR); }

    // Everything up to and including `marker`, or all there was when the stream ended first.
    std::string read_until(std::string_view marker) {
        std::size_t found;
        while ((found = buffer_.find(marker)) == std::string::npos)
            if (!fill()) return take(buffer_.size());
        return take(found + marker.size());
    }

    std::string read_exactly(std::size_t size) {
        while (buffer_.size() < size)
            if (!fill()) break;
        return take(std::min(size, buffer_.size()));
    }

    std::string read_to_end() {
        while (fill()) {
        }
        return take(buffer_.size());
    }

    // The stream ended (or was reset), rather than the guard running out.
    bool ended() {
        char byte;
        auto n = ::recv(fd_.fd, &byte, 1, 0);
        return n == 0 || (n < 0 && errno == ECONNRESET);
    }

private:
    bool fill() {
        char chunk[16 * 1024];
        auto n = ::recv(fd_.fd, chunk, sizeof chunk, 0);
        if (n <= 0) return false;
        buffer_.append(chunk, static_cast<std::size_t>(n));
        return true;
    }

    std::string take(std::size_t size) {
        std::string taken = buffer_.substr(0, size);
        buffer_.erase(0, size);
        return taken;
    }

    UniqueFd fd_;
    std::string buffer_;
    bool connected_ = false;
};

struct Response {
    std::string head; // up to and including the blank line
    std::string body;
    bool has_header(std::string_view line) const {
        return has(head, "\r\n" + std::string(line) + "\r\n");
    }
};

Response split_response(const std::string& text) {
    auto end = text.find("\r\n\r\n");
    if (end == std::string::npos) return {text, {}};
    return {text.substr(0, end + 4), text.substr(end + 4)};
}

Response ask_proxy(std::uint16_t port, std::string_view request) {
    Client client(port);
    EXPECT_TRUE(client.connected());
    EXPECT_TRUE(client.send(request));
    return split_response(client.read_to_end());
}

// A test server behind the proxy, on the proxy's io_context; `serve` takes each connection.
class TestServer {
public:
    TestServer(asio::io_context& io, std::function<void(tcp::socket)> serve)
        : acceptor_(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)),
          serve_(std::move(serve)) {
        accept();
    }
    std::uint16_t port() const { return port_; }
    int accepted() const { return accepted_.load(); }
    void stop() {
        std::error_code ignored;
        acceptor_.close(ignored);
    }

private:
    void accept() {
        acceptor_.async_accept([this](std::error_code ec, tcp::socket socket) {
            if (ec) return;
            ++accepted_;
            serve_(std::move(socket));
            accept();
        });
    }

    tcp::acceptor acceptor_;
    std::uint16_t port_ = acceptor_.local_endpoint().port();
    std::function<void(tcp::socket)> serve_;
    std::atomic<int> accepted_{0};
};

// Sends back what it reads; ends its side when the other does.
class Echo : public std::enable_shared_from_this<Echo> {
public:
    explicit Echo(tcp::socket socket) : socket_(std::move(socket)) {}
    void read() {
        socket_.async_read_some(
            asio::buffer(buffer_), [self = shared_from_this()](std::error_code ec, std::size_t n) {
                if (ec) {
                    std::error_code ignored;
                    self->socket_.shutdown(tcp::socket::shutdown_send, ignored);
                    return;
                }
                asio::async_write(self->socket_, asio::buffer(self->buffer_.data(), n),
                                  [self](std::error_code written, std::size_t) {
                                      if (!written) self->read();
                                  });
            });
    }

private:
    tcp::socket socket_;
    std::array<char, 8192> buffer_{};
};

// Reads one request head, keeps it, answers "hello" and closes.
class Hello : public std::enable_shared_from_this<Hello> {
public:
    Hello(tcp::socket socket, std::function<void(std::string)> seen)
        : socket_(std::move(socket)), seen_(std::move(seen)) {}
    void read() {
        socket_.async_read_some(
            asio::buffer(buffer_), [self = shared_from_this()](std::error_code ec, std::size_t n) {
                if (ec) return;
                self->head_.append(self->buffer_.data(), n);
                auto end = self->head_.find("\r\n\r\n");
                if (end == std::string::npos) return self->read();
                self->seen_(self->head_.substr(0, end + 4));
                asio::async_write(self->socket_, asio::buffer(answer),
                                  [self](std::error_code, std::size_t) {
                                      std::error_code ignored;
                                      self->socket_.shutdown(tcp::socket::shutdown_both, ignored);
                                  });
            });
    }
    static constexpr std::string_view answer =
        "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello";

private:
    tcp::socket socket_;
    std::function<void(std::string)> seen_;
    std::array<char, 4096> buffer_{};
    std::string head_;
};

// Answers every host with `addresses` or `failure`, noting what it was asked, on the spot.
struct FakeDns {
    std::vector<asio::ip::address> addresses;
    std::error_code failure;
    std::mutex mutex;
    std::vector<std::string> asked;

    Resolver resolver() {
        return [this](const std::string& host, std::uint16_t, ResolveDone done) {
            {
                std::lock_guard lock(mutex);
                asked.push_back(host);
            }
            if (failure) return done(failure, {});
            std::vector<tcp::endpoint> endpoints;
            for (const auto& address : addresses)
                endpoints.emplace_back(address, 0); // the proxy sets the port
            done({}, std::move(endpoints));
        };
    }
    std::vector<std::string> hosts() {
        std::lock_guard lock(mutex);
        return asked;
    }
};

UniqueFd loopback_listener(std::uint16_t& port) {
    UniqueFd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (::bind(fd.fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        ::listen(fd.fd, 64) != 0 ||
        ::getsockname(fd.fd, reinterpret_cast<sockaddr*>(&address), &length) != 0)
        return UniqueFd(-1);
    port = ntohs(address.sin_port);
    return fd;
}

// A port nothing listens on: bound, then closed.
std::uint16_t closed_port() {
    std::uint16_t port = 0;
    loopback_listener(port);
    return port;
}

class HostProxyTest : public ::testing::Test {
protected:
    // Everything on the io_context is set up before its thread runs, and touched afterwards
    // only through on_io().
    void start_proxy(std::vector<std::string> allowed, Resolver resolve) {
        proxy_ = HostProxy::start(io_, loopback_listener(proxy_port_), rules_of(std::move(allowed)),
                                  std::move(resolve));
        ASSERT_TRUE(proxy_);
        runner_ = std::thread([this] { io_.run(); });
    }

    template <typename F> auto on_io(F f) {
        auto task = std::make_shared<std::packaged_task<decltype(f())()>>(std::move(f));
        auto result = task->get_future();
        asio::post(io_, [task] { (*task)(); });
        return result.get();
    }

    std::vector<std::string> refused() {
        return on_io([this] { return proxy_->refused(); });
    }

    void TearDown() override {
        if (runner_.joinable()) {
            on_io([this] {
                if (proxy_) proxy_->stop();
                for (auto* server : {&hello_, &echo_})
                    if (*server) (*server)->stop();
            });
            work_.reset();
            io_.stop();
            runner_.join();
        }
    }

    void start_hello() {
        hello_.emplace(io_, [this](tcp::socket socket) {
            std::make_shared<Hello>(std::move(socket), [this](std::string head) {
                std::lock_guard lock(mutex_);
                heads_.push_back(std::move(head));
            })->read();
        });
    }
    std::vector<std::string> heads() {
        std::lock_guard lock(mutex_);
        return heads_;
    }
    void start_echo() {
        echo_.emplace(
            io_, [](tcp::socket socket) { std::make_shared<Echo>(std::move(socket))->read(); });
    }

    asio::io_context io_;
    asio::executor_work_guard<asio::io_context::executor_type> work_ = asio::make_work_guard(io_);
    std::optional<TestServer> hello_;
    std::optional<TestServer> echo_;
    std::shared_ptr<HostProxy> proxy_;
    std::uint16_t proxy_port_ = 0;
    std::thread runner_;
    std::mutex mutex_;
    std::vector<std::string> heads_;
};

TEST_F(HostProxyTest, ForwardsAPlainGetToAnAllowedHost) {
    start_hello();
    start_proxy({"localhost"}, {});
    auto port = std::to_string(hello_->port());
    auto response = ask_proxy(proxy_port_, "GET http://localhost:" + port +
                                               "/hello?x=1 HTTP/1.1\r\n"
                                               "Host: localhost:" +
                                               port +
                                               "\r\n"
                                               "Proxy-Connection: keep-alive\r\n"
                                               "User-Agent: test\r\n\r\n");
    EXPECT_TRUE(response.head.starts_with("HTTP/1.1 200 OK\r\n")) << response.head;
    EXPECT_EQ(response.body, "hello");
    ASSERT_EQ(heads().size(), 1u);
    EXPECT_EQ(heads()[0], "GET /hello?x=1 HTTP/1.1\r\nHost: localhost:" + port +
                              "\r\nUser-Agent: test\r\nConnection: close\r\n\r\n");
    EXPECT_EQ(on_io([this] { return proxy_->connections(); }), 1u);
    EXPECT_TRUE(refused().empty());
}

TEST_F(HostProxyTest, ConnectRelaysBothWaysEarlyBytesFirst) {
    start_echo();
    start_proxy({"localhost"}, {});
    Client client(proxy_port_);
    auto target = "localhost:" + std::to_string(echo_->port());
    ASSERT_TRUE(
        client.send("CONNECT " + target + " HTTP/1.1\r\nHost: " + target + "\r\n\r\nearly"));
    EXPECT_EQ(client.read_until("\r\n\r\n"), "HTTP/1.1 200 Connection established\r\n\r\n");
    EXPECT_EQ(client.read_exactly(5), "early");
    ASSERT_TRUE(client.send("ping"));
    EXPECT_EQ(client.read_exactly(4), "ping");
    client.end_sending();
    EXPECT_EQ(client.read_to_end(), "");
}

TEST_F(HostProxyTest, AnAddressNotNamedIsRefusedEvenOnTheSameMachine) {
    start_hello();
    start_proxy({"localhost"}, {});
    auto response =
        ask_proxy(proxy_port_, "GET http://127.0.0.1:" + std::to_string(hello_->port()) +
                                   "/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    EXPECT_TRUE(response.head.starts_with("HTTP/1.1 403 Forbidden\r\n")) << response.head;
    EXPECT_TRUE(response.has_header("X-Rio-Refused: 1"));
    EXPECT_TRUE(response.has_header("Connection: close"));
    EXPECT_TRUE(response.has_header("Content-Type: text/plain; charset=utf-8"));
    EXPECT_TRUE(response.has_header("Content-Length: " + std::to_string(response.body.size())));
    EXPECT_EQ(response.body, "rio: 127.0.0.1 is not among the hosts this command may reach "
                             "(allowed: localhost). A person can allow it when approving the "
                             "command.\n");
    EXPECT_EQ(refused(), std::vector<std::string>{"127.0.0.1 (not among the allowed hosts)"});
    EXPECT_EQ(hello_->accepted(), 0);
}

TEST_F(HostProxyTest, AHostNotAllowedIsNeverResolved) {
    FakeDns dns;
    dns.failure = asio::error::host_not_found;
    start_proxy({"allowed.example", "*.example.test"}, dns.resolver());
    auto response = ask_proxy(proxy_port_, "CONNECT evil.example:443 HTTP/1.1\r\n\r\n");
    EXPECT_TRUE(response.head.starts_with("HTTP/1.1 403 ")) << response.head;
    EXPECT_TRUE(has(response.body, "(allowed: allowed.example, *.example.test)")) << response.body;
    EXPECT_TRUE(dns.hosts().empty());

    // The same resolver is asked for a host that is allowed.
    ask_proxy(proxy_port_, "CONNECT allowed.example:443 HTTP/1.1\r\n\r\n");
    EXPECT_EQ(dns.hosts(), std::vector<std::string>{"allowed.example"});
}

TEST_F(HostProxyTest, APatternResolvingToLoopbackIsRefused) {
    start_echo();
    FakeDns dns;
    dns.addresses = {asio::ip::make_address("10.9.9.9"), asio::ip::make_address("127.0.0.1")};
    start_proxy({"*.example.test"}, dns.resolver());
    auto response =
        ask_proxy(proxy_port_,
                  "CONNECT x.example.test:" + std::to_string(echo_->port()) + " HTTP/1.1\r\n\r\n");
    EXPECT_TRUE(response.head.starts_with("HTTP/1.1 403 Forbidden\r\n")) << response.head;
    EXPECT_TRUE(response.has_header("X-Rio-Refused: 1"));
    EXPECT_TRUE(has(response.body, "x.example.test resolves to a loopback address"))
        << response.body;
    EXPECT_EQ(refused(), std::vector<std::string>{"x.example.test (resolves to a loopback address, "
                                                  "which only a host named explicitly may reach)"});
    EXPECT_EQ(echo_->accepted(), 0);
}

TEST_F(HostProxyTest, AHostNamedExplicitlyMayResolveToLoopback) {
    start_echo();
    FakeDns dns;
    dns.addresses = {asio::ip::make_address("127.0.0.1")};
    start_proxy({"box.example.test"}, dns.resolver());
    Client client(proxy_port_);
    ASSERT_TRUE(client.send("CONNECT box.example.test:" + std::to_string(echo_->port()) +
                            " HTTP/1.1\r\n\r\n"));
    EXPECT_EQ(client.read_until("\r\n\r\n"), "HTTP/1.1 200 Connection established\r\n\r\n");
    ASSERT_TRUE(client.send("hi"));
    EXPECT_EQ(client.read_exactly(2), "hi");
}

TEST_F(HostProxyTest, AResolveFailureIs502AndListed) {
    FakeDns dns;
    dns.failure = asio::error::host_not_found;
    start_proxy({"nowhere.example"}, dns.resolver());
    auto response = ask_proxy(proxy_port_, "GET http://nowhere.example/ HTTP/1.1\r\n\r\n");
    EXPECT_TRUE(response.head.starts_with("HTTP/1.1 502 Bad Gateway\r\n")) << response.head;
    EXPECT_FALSE(response.has_header("X-Rio-Refused: 1"));
    EXPECT_TRUE(response.body.starts_with("rio: cannot resolve nowhere.example: "))
        << response.body;
    ASSERT_EQ(refused().size(), 1u);
    EXPECT_TRUE(refused()[0].starts_with("nowhere.example (cannot resolve: ")) << refused()[0];
}

TEST_F(HostProxyTest, AConnectFailureIs502) {
    start_proxy({"127.0.0.1"}, {});
    auto port = std::to_string(closed_port());
    auto response = ask_proxy(proxy_port_, "CONNECT 127.0.0.1:" + port + " HTTP/1.1\r\n\r\n");
    EXPECT_TRUE(response.head.starts_with("HTTP/1.1 502 Bad Gateway\r\n")) << response.head;
    EXPECT_TRUE(response.body.starts_with("rio: cannot connect to 127.0.0.1:" + port + ": "))
        << response.body;
    EXPECT_TRUE(refused().empty());
}

TEST_F(HostProxyTest, ABadRequestIs400WithItsReason) {
    FakeDns dns;
    start_proxy({"example.com"}, dns.resolver());
    auto response = ask_proxy(proxy_port_, "GET /x HTTP/1.1\r\nHost: example.com\r\n\r\n");
    EXPECT_TRUE(response.head.starts_with("HTTP/1.1 400 Bad Request\r\n")) << response.head;
    EXPECT_TRUE(response.body.starts_with("rio: this is a proxy: ask for an absolute URI"))
        << response.body;
    EXPECT_TRUE(dns.hosts().empty());
}

TEST_F(HostProxyTest, AnOversizedHeadIs431) {
    FakeDns dns;
    start_proxy({"example.com"}, dns.resolver());
    Client client(proxy_port_);
    std::string head = "GET http://example.com/ HTTP/1.1\r\n";
    while (head.size() <= HostProxy::max_head + 4096)
        head += "X-Padding: " + std::string(100, 'a') + "\r\n";
    ASSERT_TRUE(client.send(head));
    auto response = split_response(client.read_to_end());
    EXPECT_TRUE(response.head.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"))
        << response.head;
    EXPECT_TRUE(dns.hosts().empty());
}

TEST_F(HostProxyTest, RefusedListsEachOnceAndAtMostTwenty) {
    start_proxy({"localhost"}, {});
    ask_proxy(proxy_port_, "CONNECT evil.example:443 HTTP/1.1\r\n\r\n");
    ask_proxy(proxy_port_, "CONNECT evil.example:80 HTTP/1.1\r\n\r\n");
    EXPECT_EQ(refused(), std::vector<std::string>{"evil.example (not among the allowed hosts)"});
    for (int i = 0; i < 25; ++i)
        ask_proxy(proxy_port_, "CONNECT h" + std::to_string(i) + ".example:443 HTTP/1.1\r\n\r\n");
    auto listed = refused();
    ASSERT_EQ(listed.size(), HostProxy::max_refused);
    EXPECT_EQ(listed[1], "h0.example (not among the allowed hosts)");
    EXPECT_EQ(on_io([this] { return proxy_->connections(); }), 27u);
}

TEST_F(HostProxyTest, StopMidRelayClosesTheClient) {
    start_echo();
    start_proxy({"localhost"}, {});
    Client client(proxy_port_);
    ASSERT_TRUE(client.send("CONNECT localhost:" + std::to_string(echo_->port()) +
                            " HTTP/1.1\r\n\r\nping"));
    EXPECT_EQ(client.read_until("\r\n\r\n"), "HTTP/1.1 200 Connection established\r\n\r\n");
    EXPECT_EQ(client.read_exactly(4), "ping");
    on_io([this] { proxy_->stop(); });
    EXPECT_TRUE(client.ended());
    on_io([this] { proxy_->stop(); }); // idempotent
    // The listener is gone too.
    EXPECT_FALSE(Client(proxy_port_).connected());
}

TEST_F(HostProxyTest, StopWhileAResolveIsInFlightIsHarmless) {
    std::promise<void> asked;
    ResolveDone held;
    Resolver hold = [&](const std::string&, std::uint16_t, ResolveDone done) {
        held = std::move(done);
        asked.set_value();
    };
    start_proxy({"*.example.test"}, hold);
    Client client(proxy_port_);
    ASSERT_TRUE(client.send("CONNECT slow.example.test:443 HTTP/1.1\r\n\r\n"));
    asked.get_future().get();
    on_io([this] { proxy_->stop(); });
    EXPECT_EQ(client.read_to_end(), "");
    // The answer arrives after all, and goes nowhere.
    on_io([&] {
        held({}, {tcp::endpoint(asio::ip::make_address("192.0.2.1"), 443)});
        held = nullptr;
    });
    EXPECT_TRUE(refused().empty());
}

TEST_F(HostProxyTest, LettingGoOfTheProxyClosesItsConnections) {
    start_echo();
    start_proxy({"localhost"}, {});
    Client client(proxy_port_);
    ASSERT_TRUE(client.send("CONNECT localhost:" + std::to_string(echo_->port()) +
                            " HTTP/1.1\r\n\r\nping"));
    EXPECT_EQ(client.read_until("\r\n\r\n"), "HTTP/1.1 200 Connection established\r\n\r\n");
    EXPECT_EQ(client.read_exactly(4), "ping");
    on_io([this] { proxy_.reset(); });
    EXPECT_TRUE(client.ended());
}

TEST_F(HostProxyTest, RelaysAMebibyteIntactBothWays) {
    start_echo();
    start_proxy({"localhost"}, {});
    std::string payload(1024 * 1024, '\0');
    for (std::size_t i = 0; i < payload.size(); ++i)
        payload[i] = static_cast<char>((i * 7919 + i / 251) & 0xff);
    Client client(proxy_port_);
    ASSERT_TRUE(
        client.send("CONNECT localhost:" + std::to_string(echo_->port()) + " HTTP/1.1\r\n\r\n"));
    EXPECT_EQ(client.read_until("\r\n\r\n"), "HTTP/1.1 200 Connection established\r\n\r\n");
    // Sending and reading at once: the echo fills every buffer on the way back long before
    // a mebibyte is sent.
    std::thread sender([&] {
        EXPECT_TRUE(client.send(payload));
        client.end_sending();
    });
    auto echoed = client.read_to_end();
    sender.join();
    EXPECT_EQ(echoed.size(), payload.size());
    EXPECT_TRUE(echoed == payload);
}

TEST(HostProxy, StartRefusesWhatIsNotATcpSocket) {
    asio::io_context io;
    int pipe_fds[2];
    ASSERT_EQ(::pipe2(pipe_fds, O_CLOEXEC), 0);
    UniqueFd keep(pipe_fds[1]);
    EXPECT_EQ(HostProxy::start(io, UniqueFd(pipe_fds[0]), {}, {}), nullptr);
}

} // namespace
} // namespace rio
