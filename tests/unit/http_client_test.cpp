#include "host/http/http_client.hpp"
#include "host/process/process_runner.hpp"
#include "tests/support/temp_dir.hpp"

#include <arpa/inet.h>
#include <asio/steady_timer.hpp>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <gtest/gtest.h>
#include <mutex>
#include <netinet/in.h>
#include <optional>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace rio {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// Generous on purpose: it catches hangs, it does not measure speed (budgets live in bench/).
constexpr auto guard_limit = 10s;
constexpr auto prompt_limit = 2s; // "promptly": the design budget is 100 ms

// A received request, as the test server read it off the socket.
struct Received {
    std::string request_line;
    std::vector<std::pair<std::string, std::string>> headers; // names lower case
    std::string body;

    std::optional<std::string> header(std::string_view name) const {
        for (const auto& [key, value] : headers)
            if (key == name) return value;
        return std::nullopt;
    }
};

std::string lower(std::string text) {
    for (char& c : text)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

// One accepted connection of the test server. Every wait is bounded, so a client that
// misbehaves fails the test instead of hanging it.
class Connection {
public:
    explicit Connection(int fd) : fd_(fd) {}
    ~Connection() { ::close(fd_); }
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    // The request head and its Content-Length body.
    std::optional<Received> read_request() {
        auto deadline = Clock::now() + guard_limit;
        std::size_t end;
        while ((end = buffer_.find("\r\n\r\n")) == std::string::npos)
            if (!read_some(deadline)) return std::nullopt;
        Received r;
        std::string head = buffer_.substr(0, end);
        buffer_.erase(0, end + 4);
        std::size_t line_end = head.find("\r\n");
        r.request_line = head.substr(0, line_end);
        while (line_end != std::string::npos) {
            std::size_t start = line_end + 2;
            line_end = head.find("\r\n", start);
            std::string line = head.substr(start, line_end - start);
            std::size_t colon = line.find(':');
            std::size_t value = line.find_first_not_of(' ', colon + 1);
            r.headers.emplace_back(lower(line.substr(0, colon)),
                                   value == std::string::npos ? "" : line.substr(value));
        }
        std::size_t length = std::stoul(r.header("content-length").value_or("0"));
        while (buffer_.size() < length)
            if (!read_some(deadline)) return std::nullopt;
        r.body = buffer_.substr(0, length);
        buffer_.erase(0, length);
        return r;
    }

    // False once the client has gone.
    bool send(std::string_view bytes) {
        while (!bytes.empty()) {
            ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return false;
            bytes.remove_prefix(static_cast<std::size_t>(n));
        }
        return true;
    }

    // When the client closed its end, or nullopt if it did not within `limit`.
    std::optional<Clock::time_point> wait_for_close(Clock::duration limit = guard_limit) {
        auto deadline = Clock::now() + limit;
        for (;;) {
            char scratch[4096];
            if (!wait_readable(deadline)) return std::nullopt;
            ssize_t n = ::recv(fd_, scratch, sizeof scratch, 0);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return Clock::now();
        }
    }

private:
    bool wait_readable(Clock::time_point deadline) {
        for (;;) {
            auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
            if (left <= 0ms) return false;
            pollfd p{fd_, POLLIN, 0};
            int ready = ::poll(&p, 1, static_cast<int>(left.count()));
            if (ready > 0) return true;
            if (ready < 0 && errno != EINTR) return false;
        }
    }

    bool read_some(Clock::time_point deadline) {
        char scratch[64 * 1024];
        if (!wait_readable(deadline)) return false;
        ssize_t n = ::recv(fd_, scratch, sizeof scratch, 0);
        if (n <= 0) return false;
        buffer_.append(scratch, static_cast<std::size_t>(n));
        return true;
    }

    int fd_;
    std::string buffer_;
};

int loopback_socket(int backlog, bool listening = true) {
    int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        (listening && ::listen(fd, backlog) != 0)) {
        ADD_FAILURE() << "cannot set up a loopback socket: " << std::strerror(errno);
        std::abort();
    }
    return fd;
}

int port_of(int fd) {
    sockaddr_in address{};
    socklen_t size = sizeof address;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size);
    return ntohs(address.sin_port);
}

// A loopback HTTP server scripted by the test: every connection it accepts runs `script` on
// a thread of its own.
class ScriptedServer {
public:
    using Script = std::function<void(Connection&)>;

    explicit ScriptedServer(Script script)
        : fd_(loopback_socket(64)), port_(port_of(fd_)), script_(std::move(script)) {
        acceptor_ = std::thread([this] { accept_loop(); });
    }
    ~ScriptedServer() { stop(); }
    ScriptedServer(const ScriptedServer&) = delete;
    ScriptedServer& operator=(const ScriptedServer&) = delete;

    int port() const { return port_; }
    std::string authority() const { return "127.0.0.1:" + std::to_string(port()); }
    std::string url(std::string_view path = "/") const {
        return "http://" + authority() + std::string(path);
    }
    int accepted() const { return accepted_; }

    // Stops accepting and waits for every connection's script to end.
    void stop() {
        if (stopping_.exchange(true)) return;
        acceptor_.join();
        std::lock_guard lock(mutex_);
        for (std::thread& t : connections_)
            t.join();
        ::close(fd_);
    }

private:
    void accept_loop() {
        while (!stopping_) {
            pollfd p{fd_, POLLIN, 0};
            if (::poll(&p, 1, 10) <= 0) continue;
            int client = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
            if (client < 0) continue;
            ++accepted_;
            std::lock_guard lock(mutex_);
            connections_.emplace_back([this, client] {
                Connection connection(client);
                script_(connection);
            });
        }
    }

    int fd_;
    int port_;
    Script script_;
    std::atomic<bool> stopping_ = false;
    std::atomic<int> accepted_ = 0;
    std::thread acceptor_;
    std::mutex mutex_;
    std::vector<std::thread> connections_;
};

std::string chunk(std::string_view data) {
    char size[16];
    std::snprintf(size, sizeof size, "%zx\r\n", data.size());
    return size + std::string(data) + "\r\n";
}

const std::string last_chunk = "0\r\n\r\n";

std::string chunked_head(int status = 200, std::string_view extra = "") {
    return "HTTP/1.1 " + std::to_string(status) +
           " Whatever\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n" +
           std::string(extra) + "\r\n";
}

std::string whole_response(int status, std::string_view body, std::string_view extra = "") {
    return "HTTP/1.1 " + std::to_string(status) +
           " Whatever\r\nContent-Length: " + std::to_string(body.size()) + "\r\n" +
           std::string(extra) + "\r\n" + std::string(body);
}

// A flag one thread raises and another waits for, boundedly.
class Signal {
public:
    void raise() {
        std::lock_guard lock(mutex_);
        raised_ = true;
        changed_.notify_all();
    }
    bool wait(Clock::duration limit = guard_limit) {
        std::unique_lock lock(mutex_);
        return changed_.wait_for(lock, limit, [&] { return raised_; });
    }
    bool raised() {
        std::lock_guard lock(mutex_);
        return raised_;
    }

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    bool raised_ = false;
};

// What a request's callbacks saw, in order.
struct Seen {
    std::vector<std::string> events; // "head", "body", "done"
    std::optional<HttpHead> head;
    std::string body;
    std::vector<std::string> pieces;
    int done_calls = 0;
    std::optional<Error> error;
    Clock::time_point done_at{};
    int callbacks() const { return static_cast<int>(events.size()); }
};

HttpCallbacks record(Seen& seen) {
    return HttpCallbacks{[&seen](const HttpHead& head) {
                             seen.events.push_back("head");
                             seen.head = head;
                         },
                         [&seen](std::string_view bytes) {
                             seen.events.push_back("body");
                             seen.body += bytes;
                             seen.pieces.emplace_back(bytes);
                         },
                         [&seen](std::optional<Error> error) {
                             seen.events.push_back("done");
                             ++seen.done_calls;
                             seen.error = std::move(error);
                             seen.done_at = Clock::now();
                         }};
}

HttpRequest post(std::string url, std::string body = "{}") {
    HttpRequest request;
    request.url = std::move(url);
    request.body = std::move(body);
    request.headers = {{"Content-Type", "application/json"}};
    return request;
}

HttpRequest get(std::string url) {
    HttpRequest request;
    request.method = "GET";
    request.url = std::move(url);
    return request;
}

// Runs io until nothing is in flight; the guard only catches hangs.
void run(asio::io_context& io) {
    io.restart();
    io.run_for(guard_limit);
}

// Runs io's handlers one at a time until `done()`; false if it never came (io ran out of work,
// or the guard caught a hang).
bool run_until(asio::io_context& io, const std::function<bool()>& done) {
    io.restart();
    auto deadline = Clock::now() + guard_limit;
    while (!done())
        if (io.run_one_until(deadline) == 0) return done();
    return true;
}

// A round trip through the client's transfer thread (HttpClient::sync), the barrier before
// checking that something did not happen: once it is back, the thread has taken up every
// start and cancel made before and looked at the idle timers against the clock again, and
// every callback that brought about has run.
bool round_trip(HttpClient& client, asio::io_context& io) {
    bool back = false;
    client.sync([&back] { back = true; });
    return run_until(io, [&back] { return back; });
}

// The idle timeouts' clock, moved on by the test alone: no idle timeout waits on the wall
// clock. Read on the transfer thread.
class ManualClock {
public:
    HttpIdleClock reader() {
        return [this] { return Clock::time_point(Clock::duration(ticks_.load())); };
    }
    void advance(Clock::duration by) { ticks_ += by.count(); }

private:
    std::atomic<Clock::rep> ticks_{Clock::duration(1h).count()};
};

std::size_t thread_count() {
    namespace fs = std::filesystem;
    return static_cast<std::size_t>(std::distance(fs::directory_iterator("/proc/self/task"), {}));
}

double ms_exact(Clock::duration d) {
    return std::chrono::duration<double, std::milli>(d).count();
}

// The proxy variables curl reads are cleared for each test, so a proxy in the environment
// of whoever runs the tests does not reroute the loopback traffic; the proxy test sets its
// own. SSL_CERT_FILE too, which the CA tests set. Nothing else in these tests touches the
// environment while a transfer runs.
class HttpClientTest : public ::testing::Test {
protected:
    static constexpr const char* proxy_variables[] = {"http_proxy",  "HTTP_PROXY", "https_proxy",
                                                      "HTTPS_PROXY", "all_proxy",  "ALL_PROXY",
                                                      "no_proxy",    "NO_PROXY",   "SSL_CERT_FILE"};

    void SetUp() override {
        for (const char* name : proxy_variables) {
            if (const char* value = std::getenv(name)) saved_.emplace_back(name, value);
            ::unsetenv(name);
        }
    }
    void TearDown() override {
        for (const char* name : proxy_variables)
            ::unsetenv(name);
        for (const auto& [name, value] : saved_)
            ::setenv(name.c_str(), value.c_str(), 1);
    }

    asio::io_context io;

private:
    std::vector<std::pair<std::string, std::string>> saved_;
};

TEST_F(HttpClientTest, PostBodyAndHeadersReachTheServer) {
    std::mutex mutex;
    std::optional<Received> received;
    ScriptedServer server([&](Connection& c) {
        auto r = c.read_request();
        {
            std::lock_guard lock(mutex);
            received = r;
        }
        c.send(whole_response(200, "ok"));
    });
    // Past 1 MiB curl would add "Expect: 100-continue" and wait for the server's go-ahead.
    std::string body(std::size_t{2} * 1024 * 1024, 'x');
    body.replace(0, 8, "{\"a\":1}\n");
    HttpRequest request = post(server.url("/v1/messages?beta=true"), body);
    request.headers = {{"Content-Type", "application/json"},
                       {"x-api-key", "sk-test"},
                       {"anthropic-version", "2023-06-01"},
                       {"Accept", "text/event-stream"}};
    HttpClient client(io);
    Seen seen;
    client.start(request, record(seen));
    run(io);

    ASSERT_EQ(seen.done_calls, 1);
    EXPECT_FALSE(seen.error) << seen.error->message;
    EXPECT_EQ(seen.body, "ok");
    server.stop();
    ASSERT_TRUE(received);
    EXPECT_EQ(received->request_line, "POST /v1/messages?beta=true HTTP/1.1");
    EXPECT_EQ(received->header("content-type"), "application/json");
    EXPECT_EQ(received->header("x-api-key"), "sk-test");
    EXPECT_EQ(received->header("anthropic-version"), "2023-06-01");
    EXPECT_EQ(received->header("accept"), "text/event-stream");
    EXPECT_EQ(received->header("content-length"), std::to_string(body.size()));
    EXPECT_EQ(received->header("host"), server.authority());
    EXPECT_FALSE(received->header("expect"));
    EXPECT_FALSE(received->header("accept-encoding")) << "an event stream must not be compressed";
    EXPECT_TRUE(received->body == body) << "the body arrives intact";
}

TEST_F(HttpClientTest, GetSendsNoBodyAndNoFormContentType) {
    std::mutex mutex;
    std::optional<Received> received;
    ScriptedServer server([&](Connection& c) {
        auto r = c.read_request();
        {
            std::lock_guard lock(mutex);
            received = r;
        }
        c.send(whole_response(200, "[]"));
    });
    HttpClient client(io);
    Seen seen;
    client.start(get(server.url("/v1/models")), record(seen));
    run(io);
    EXPECT_EQ(seen.events, (std::vector<std::string>{"head", "body", "done"}));
    server.stop();
    ASSERT_TRUE(received);
    EXPECT_EQ(received->request_line, "GET /v1/models HTTP/1.1");
    EXPECT_FALSE(received->header("content-length"));
    EXPECT_FALSE(received->header("content-type"));
}

TEST_F(HttpClientTest, StatusAndHeadersArriveBeforeTheBody) {
    Signal head_seen;
    std::atomic<bool> waited_for_head = false;
    ScriptedServer server([&](Connection& c) {
        c.read_request();
        c.send(chunked_head(200, "X-Request-Id: req_123\r\nRetry-After: 0\r\n"));
        // The body is sent only once the client has reported the head.
        waited_for_head = head_seen.wait();
        c.send(chunk("data: {}\n\n") + last_chunk);
    });
    HttpClient client(io);
    Seen seen;
    HttpCallbacks callbacks = record(seen);
    callbacks.on_head = [&, inner = callbacks.on_head](const HttpHead& head) {
        inner(head);
        head_seen.raise();
    };
    client.start(post(server.url()), callbacks);
    run(io);

    EXPECT_TRUE(waited_for_head);
    EXPECT_EQ(seen.events, (std::vector<std::string>{"head", "body", "done"}));
    ASSERT_TRUE(seen.head);
    EXPECT_EQ(seen.head->status, 200);
    EXPECT_EQ(seen.head->header("x-request-id"), "req_123");
    EXPECT_EQ(seen.head->header("X-REQUEST-ID"), "req_123") << "names match whatever their case";
    EXPECT_EQ(seen.head->header("content-type"), "text/event-stream");
    EXPECT_FALSE(seen.head->header("x-missing"));
    for (const auto& [name, value] : seen.head->headers)
        EXPECT_EQ(name, lower(name));
    EXPECT_EQ(seen.body, "data: {}\n\n");
}

TEST_F(HttpClientTest, ChunksStreamInOrderAsTheyArrive) {
    Signal first_seen;
    std::atomic<bool> waited_for_first = false;
    ScriptedServer server([&](Connection& c) {
        c.read_request();
        c.send(chunked_head() + chunk("event: one\n\n"));
        waited_for_first = first_seen.wait();
        for (int i = 2; i <= 5; ++i) {
            c.send(chunk("event: " + std::to_string(i) + "\n\n"));
            std::this_thread::sleep_for(5ms);
        }
        c.send(last_chunk);
    });
    HttpClient client(io);
    Seen seen;
    HttpCallbacks callbacks = record(seen);
    callbacks.on_body = [&, inner = callbacks.on_body](std::string_view bytes) {
        inner(bytes);
        first_seen.raise();
    };
    client.start(post(server.url()), callbacks);
    run(io);

    EXPECT_TRUE(waited_for_first) << "the first chunk reaches the caller before the second exists";
    EXPECT_EQ(seen.pieces.front(), "event: one\n\n");
    EXPECT_EQ(seen.body, "event: one\n\nevent: 2\n\nevent: 3\n\nevent: 4\n\nevent: 5\n\n");
    EXPECT_EQ(seen.events.front(), "head");
    EXPECT_EQ(seen.events.back(), "done");
    EXPECT_EQ(seen.done_calls, 1);
    EXPECT_FALSE(seen.error);
}

TEST_F(HttpClientTest, AnErrorStatusStillDeliversHeadAndBody) {
    std::string error_body = R"({"type":"error","error":{"type":"rate_limit_error"}})";
    ScriptedServer server([&](Connection& c) {
        c.read_request();
        c.send(whole_response(429, error_body,
                              "Retry-After: 7\r\nContent-Type: application/json\r\n"));
    });
    HttpClient client(io);
    Seen seen;
    client.start(post(server.url()), record(seen));
    run(io);

    ASSERT_TRUE(seen.head);
    EXPECT_EQ(seen.head->status, 429);
    EXPECT_EQ(seen.head->header("retry-after"), "7");
    EXPECT_EQ(seen.body, error_body);
    EXPECT_EQ(seen.done_calls, 1);
    EXPECT_FALSE(seen.error) << "the caller decides what a 429 means";
}

TEST_F(HttpClientTest, AnInterimResponseIsNotTheHead) {
    ScriptedServer server([&](Connection& c) {
        c.read_request();
        c.send("HTTP/1.1 103 Early Hints\r\nLink: </style.css>\r\n\r\n" +
               whole_response(200, "final", "X-Final: yes\r\n"));
    });
    HttpClient client(io);
    Seen seen;
    client.start(get(server.url()), record(seen));
    run(io);

    EXPECT_EQ(seen.events, (std::vector<std::string>{"head", "body", "done"}));
    ASSERT_TRUE(seen.head);
    EXPECT_EQ(seen.head->status, 200);
    EXPECT_EQ(seen.head->header("x-final"), "yes");
    EXPECT_FALSE(seen.head->header("link"));
    EXPECT_EQ(seen.body, "final");
}

TEST_F(HttpClientTest, ConnectionRefusedIsANetworkError) {
    // Bound but not listening: a connection attempt is refused at once.
    int fd = loopback_socket(0, false);
    std::string authority = "127.0.0.1:" + std::to_string(port_of(fd));
    HttpClient client(io);
    Seen seen;
    client.start(post("http://" + authority + "/"), record(seen));
    run(io);
    ::close(fd);

    EXPECT_EQ(seen.events, std::vector<std::string>{"done"});
    ASSERT_TRUE(seen.error);
    EXPECT_EQ(seen.error->code, ErrorCode::network);
    EXPECT_EQ(seen.error->message, "cannot connect to " + authority + ": Connection refused");
}

TEST_F(HttpClientTest, TheIdleTimeoutFiresWhenTheServerStalls) {
    ScriptedServer server([&](Connection& c) {
        c.read_request();
        c.send(chunked_head() + chunk("event: ping\n\n"));
        c.wait_for_close(); // stalls until the client gives up
    });
    HttpRequest request = post(server.url());
    request.idle_timeout = 300ms;
    ManualClock clock;
    HttpClient client(io, clock.reader());
    Seen seen;
    client.start(request, record(seen));
    ASSERT_TRUE(run_until(io, [&] { return seen.body == "event: ping\n\n"; }));

    // Silent for just short of the timeout: nothing happens.
    clock.advance(299ms);
    ASSERT_TRUE(round_trip(client, io));
    EXPECT_EQ(seen.done_calls, 0);
    // Silent for the whole timeout: the request fails.
    clock.advance(1ms);
    ASSERT_TRUE(round_trip(client, io));
    EXPECT_EQ(seen.events.back(), "done");
    EXPECT_EQ(seen.done_calls, 1);
    EXPECT_EQ(seen.body, "event: ping\n\n");
    ASSERT_TRUE(seen.error);
    EXPECT_EQ(seen.error->code, ErrorCode::network);
    EXPECT_EQ(seen.error->message, "no data from " + server.authority() + " for 0.3 s");
}

TEST_F(HttpClientTest, TheIdleTimerRestartsWithEveryByte) {
    constexpr int drips = 12;
    std::vector<Signal> go(drips + 1); // the server's next byte, then its end
    ScriptedServer server([&](Connection& c) {
        c.read_request();
        c.send(chunked_head());
        for (int i = 0; i < drips; ++i)
            if (!go[i].wait() || !c.send(chunk("."))) return;
        if (go[drips].wait()) c.send(last_chunk);
    });
    // After a failed assertion the server must not wait out its guard for the rest.
    struct Release {
        std::vector<Signal>& go;
        ~Release() {
            for (Signal& s : go)
                s.raise();
        }
    } release{go};
    HttpRequest request = post(server.url());
    request.idle_timeout = 300ms;
    ManualClock clock;
    HttpClient client(io, clock.reader());
    Seen seen;
    client.start(request, record(seen));
    ASSERT_TRUE(run_until(io, [&] { return seen.head.has_value(); }));

    // 3 s of slow drip in all, far past the idle timeout, but never 300 ms of silence.
    for (int i = 0; i < drips; ++i) {
        clock.advance(250ms);
        ASSERT_TRUE(round_trip(client, io));
        ASSERT_EQ(seen.done_calls, 0) << "after " << i << " bytes";
        go[i].raise();
        ASSERT_TRUE(run_until(io, [&] { return seen.body.size() == std::size_t(i) + 1; }));
    }
    go[drips].raise();
    run(io);

    EXPECT_EQ(seen.done_calls, 1);
    EXPECT_FALSE(seen.error) << seen.error->message;
    EXPECT_EQ(seen.body, std::string(drips, '.'));
}

TEST_F(HttpClientTest, AConnectionClosedMidBodyIsANetworkError) {
    ScriptedServer server([&](Connection& c) {
        c.read_request();
        c.send("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial...");
    });
    HttpClient client(io);
    Seen seen;
    client.start(post(server.url()), record(seen));
    run(io);

    EXPECT_EQ(seen.events.front(), "head");
    EXPECT_EQ(seen.body, "partial...");
    ASSERT_TRUE(seen.error);
    EXPECT_EQ(seen.error->code, ErrorCode::network);
    EXPECT_EQ(seen.error->message.rfind("connection to " + server.authority() + " failed: ", 0), 0u)
        << seen.error->message;
}

// A blackhole on the loopback: a listening socket whose one-place accept queue is already
// taken by a connection nobody accepts. Linux drops further SYNs while the queue is full, so
// a connection attempt neither completes nor fails until the client gives up. (A backlog
// that is merely never accepted does complete handshakes, and an unroutable address is not
// ours to send to.)
TEST_F(HttpClientTest, TheConnectTimeoutFiresWhenTheHandshakeNeverCompletes) {
    int listener = loopback_socket(0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(static_cast<std::uint16_t>(port_of(listener)));
    int filler = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    ASSERT_EQ(::connect(filler, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    std::string authority = "127.0.0.1:" + std::to_string(port_of(listener));

    HttpRequest request = post("http://" + authority + "/");
    request.connect_timeout = 300ms; // curl's, on the wall clock
    request.idle_timeout = 100ms;
    ManualClock clock;
    HttpClient client(io, clock.reader());
    Seen seen;
    auto started = Clock::now();
    client.start(request, record(seen));
    // Long past by its clock while the handshake hangs, the idle timeout must still not apply:
    // it starts with the connection.
    clock.advance(1h);
    ASSERT_TRUE(round_trip(client, io));
    run(io);
    ::close(filler);
    ::close(listener);

    EXPECT_EQ(seen.events, std::vector<std::string>{"done"});
    ASSERT_TRUE(seen.error);
    EXPECT_EQ(seen.error->code, ErrorCode::network);
    EXPECT_EQ(seen.error->message, "cannot connect to " + authority + " within 0.3 s");
    EXPECT_GE(seen.done_at - started, 250ms);
    EXPECT_LT(seen.done_at - started, prompt_limit);
}

TEST_F(HttpClientTest, CancelMidStreamClosesTheConnectionAndSilencesTheRequest) {
    std::mutex mutex;
    std::optional<Clock::time_point> closed_at;
    ScriptedServer server([&](Connection& c) {
        c.read_request();
        c.send(chunked_head() + chunk("event: 0\n\n"));
        // Keeps streaming, so events are on their way while the client cancels, and watches
        // for the close all the while.
        for (int i = 1; i < 2000; ++i) {
            if (auto at = c.wait_for_close(5ms)) {
                std::lock_guard lock(mutex);
                closed_at = at;
                return;
            }
            c.send(chunk("event: " + std::to_string(i) + "\n\n"));
        }
    });
    HttpClient client(io);
    Seen seen;
    HttpClient::Id id = 0;
    int callbacks_at_cancel = -1;
    Clock::time_point cancelled_at{};
    HttpCallbacks callbacks = record(seen);
    callbacks.on_body = [&, inner = callbacks.on_body](std::string_view bytes) {
        inner(bytes);
        if (seen.pieces.size() == 3) {
            cancelled_at = Clock::now();
            client.cancel(id);
            client.cancel(id); // twice is harmless
            callbacks_at_cancel = seen.callbacks();
        }
    };
    id = client.start(post(server.url()), callbacks);
    run(io);
    ASSERT_TRUE(round_trip(client, io)); // whatever was on its way has arrived, or never will
    server.stop();

    ASSERT_GE(callbacks_at_cancel, 0) << "the stream reached the cancel";
    EXPECT_EQ(seen.callbacks(), callbacks_at_cancel) << "no callback after cancel";
    EXPECT_EQ(seen.done_calls, 0);
    ASSERT_TRUE(closed_at) << "the server saw the connection closed";
    auto latency = *closed_at - cancelled_at;
    EXPECT_LT(latency, prompt_limit);
    std::printf("[ measured ] cancel to server EOF: %.3f ms\n", ms_exact(latency));
    EXPECT_EQ(server.accepted(), 1);
}

TEST_F(HttpClientTest, CancelRightAfterStartRunsNoCallback) {
    ScriptedServer server([&](Connection& c) {
        if (c.read_request()) c.send(whole_response(200, "too late"));
    });
    HttpClient client(io);
    Seen seen;
    HttpClient::Id id = client.start(post(server.url()), record(seen));
    client.cancel(id);
    run(io);
    ASSERT_TRUE(round_trip(client, io)); // whatever was on its way has arrived, or never will
    EXPECT_EQ(seen.callbacks(), 0);
}

TEST_F(HttpClientTest, CancelBeforeTheResponseStartsClosesTheConnection) {
    Signal request_read;
    std::mutex mutex;
    std::optional<Clock::time_point> closed_at;
    ScriptedServer server([&](Connection& c) {
        c.read_request();
        request_read.raise();
        auto at = c.wait_for_close(); // thinks forever, as a model may before its first token
        std::lock_guard lock(mutex);
        closed_at = at;
    });
    HttpClient client(io);
    Seen seen;
    HttpClient::Id id = client.start(post(server.url()), record(seen));
    Clock::time_point cancelled_at{};
    asio::steady_timer poll(io);
    std::function<void()> cancel_once_read = [&] {
        poll.expires_after(2ms);
        poll.async_wait([&](std::error_code) {
            if (!request_read.raised()) return cancel_once_read();
            cancelled_at = Clock::now();
            client.cancel(id);
        });
    };
    cancel_once_read();
    run(io);
    ASSERT_TRUE(round_trip(client, io)); // whatever was on its way has arrived, or never will
    server.stop();

    EXPECT_EQ(seen.callbacks(), 0);
    ASSERT_TRUE(closed_at) << "the server saw the connection closed";
    EXPECT_LT(*closed_at - cancelled_at, prompt_limit);
    std::printf("[ measured ] cancel (before the response) to server EOF: %.3f ms\n",
                ms_exact(*closed_at - cancelled_at));
}

TEST_F(HttpClientTest, ManyRequestsRunConcurrently) {
    constexpr int count = 16;
    std::mutex mutex;
    std::condition_variable all_in;
    int arrived = 0;
    std::atomic<bool> all_arrived = false;
    ScriptedServer server([&](Connection& c) {
        auto r = c.read_request();
        if (!r) return;
        {
            // Nobody is answered until every request is in: they must be in flight at once.
            std::unique_lock lock(mutex);
            ++arrived;
            all_in.notify_all();
            if (all_in.wait_for(lock, guard_limit, [&] { return arrived == count; }))
                all_arrived = true;
        }
        std::string path = r->request_line.substr(5, r->request_line.find(' ', 5) - 5);
        c.send(chunked_head() + chunk("answer to " + path) + last_chunk);
    });
    HttpClient client(io);
    std::vector<Seen> seen(count);
    for (int i = 0; i < count; ++i)
        client.start(post(server.url("/" + std::to_string(i))), record(seen[i]));
    run(io);

    EXPECT_TRUE(all_arrived);
    for (int i = 0; i < count; ++i) {
        EXPECT_EQ(seen[i].done_calls, 1);
        EXPECT_FALSE(seen[i].error);
        EXPECT_EQ(seen[i].body, "answer to /" + std::to_string(i));
    }
}

TEST_F(HttpClientTest, DestroyingTheClientMidTransferLeavesNoThreadOrConnection) {
    std::size_t baseline = thread_count();
    constexpr int count = 4;
    std::atomic<int> closed = 0;
    {
        ScriptedServer server([&](Connection& c) {
            c.read_request();
            c.send(chunked_head() + chunk("event: 0\n\n"));
            if (c.wait_for_close(prompt_limit)) ++closed;
        });
        auto client = std::make_unique<HttpClient>(io);
        std::vector<Seen> seen(count);
        int heads = 0;
        for (int i = 0; i < count; ++i) {
            HttpCallbacks callbacks = record(seen[i]);
            callbacks.on_head = [&, inner = callbacks.on_head](const HttpHead& head) {
                inner(head);
                if (++heads == count) io.stop();
            };
            client->start(post(server.url()), callbacks);
        }
        EXPECT_GT(thread_count(), baseline); // the transfer thread, since the first start()
        run(io);
        ASSERT_EQ(heads, count);
        std::vector<int> before;
        before.reserve(count);
        for (const Seen& s : seen)
            before.push_back(s.callbacks());
        client.reset();
        // Whatever was already posted must not reach a callback. The transfer thread is
        // joined, so all of it is in io's queue, and run() returns once that is empty.
        run(io);
        for (int i = 0; i < count; ++i)
            EXPECT_EQ(seen[i].callbacks(), before[i]);
        server.stop();
        EXPECT_EQ(closed, count) << "every connection was closed";
    }
    EXPECT_EQ(thread_count(), baseline);
}

// Start-up must not pay for HTTP (decision 0019): a client that was never asked for a
// request has no thread, and neither libcurl nor TLS is loaded.
TEST_F(HttpClientTest, AClientStartsNothingBeforeItsFirstRequest) {
    std::size_t baseline = thread_count();
    auto client = std::make_unique<HttpClient>(io);
    EXPECT_EQ(thread_count(), baseline);
    client.reset();
    EXPECT_EQ(thread_count(), baseline);
}

TEST_F(HttpClientTest, DestroyingTheClientFromItsOwnCallbackIsSafe) {
    ScriptedServer server([&](Connection& c) {
        c.read_request();
        c.send(chunked_head() + chunk("a") + chunk("b"));
        c.wait_for_close(prompt_limit);
    });
    auto client = std::make_unique<HttpClient>(io);
    Seen seen;
    HttpCallbacks callbacks = record(seen);
    callbacks.on_body = [&, inner = callbacks.on_body](std::string_view bytes) {
        inner(bytes);
        client.reset();
    };
    client->start(post(server.url()), callbacks);
    // The client is destroyed (its transfer thread joined) from inside run(), which goes on
    // until every event already posted has been handled.
    run(io);
    EXPECT_EQ(seen.pieces.size(), 1u);
    EXPECT_EQ(seen.done_calls, 0);
}

TEST_F(HttpClientTest, ProxyEnvironmentVariablesAreHonoured) {
    std::mutex mutex;
    std::optional<Received> received;
    ScriptedServer proxy([&](Connection& c) {
        auto r = c.read_request();
        {
            std::lock_guard lock(mutex);
            received = r;
        }
        c.send(whole_response(200, "via proxy"));
    });
    ScriptedServer origin([&](Connection& c) { c.send(whole_response(200, "direct")); });
    ::setenv("http_proxy", proxy.url("").c_str(), 1);
    HttpClient client(io);
    Seen seen;
    client.start(post(origin.url("/v1/messages")), record(seen));
    run(io);
    proxy.stop();
    origin.stop();

    EXPECT_FALSE(seen.error) << seen.error->message;
    EXPECT_EQ(seen.body, "via proxy");
    ASSERT_TRUE(received);
    EXPECT_EQ(received->request_line,
              "POST http://" + origin.authority() + "/v1/messages HTTP/1.1");
    EXPECT_EQ(origin.accepted(), 0);
}

TEST_F(HttpClientTest, NoProxyIsHonouredToo) {
    ScriptedServer proxy([&](Connection& c) { c.send(whole_response(200, "via proxy")); });
    ScriptedServer origin([&](Connection& c) {
        c.read_request();
        c.send(whole_response(200, "direct"));
    });
    ::setenv("http_proxy", proxy.url("").c_str(), 1);
    ::setenv("no_proxy", "127.0.0.1", 1);
    HttpClient client(io);
    Seen seen;
    client.start(post(origin.url()), record(seen));
    run(io);

    EXPECT_EQ(seen.body, "direct");
    EXPECT_EQ(proxy.accepted(), 0);
}

TEST_F(HttpClientTest, ACompletedRequestLeavesItsConnectionForTheNext) {
    ScriptedServer server([&](Connection& c) {
        while (c.read_request())
            c.send(whole_response(200, "again"));
    });
    HttpClient client(io);
    for (int i = 0; i < 3; ++i) {
        Seen seen;
        client.start(post(server.url()), record(seen));
        run(io);
        EXPECT_FALSE(seen.error);
        EXPECT_EQ(seen.body, "again");
    }
    EXPECT_EQ(server.accepted(), 1) << "one kept-alive connection served all three";
}

CommandResult run_command(std::vector<std::string> argv, const std::filesystem::path& cwd) {
    asio::io_context io;
    CommandSpec spec;
    spec.argv = std::move(argv);
    spec.cwd = cwd;
    spec.timeout = guard_limit;
    CommandResult result;
    start_command(io, spec, [&](CommandResult r) { result = std::move(r); });
    io.run();
    return result;
}

bool accepts_connections(int port) {
    int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    bool connected = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
    ::close(fd);
    return connected;
}

// `openssl s_server -www` on the loopback with a self-signed certificate for 127.0.0.1
// (cert.pem in `dir`), until stop().
struct TlsServer {
    explicit TlsServer(asio::io_context& io) {
        CommandResult made = run_command({"openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                                          "ec_paramgen_curve:prime256v1", "-nodes", "-subj",
                                          "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                                          "-days", "1", "-keyout", "key.pem", "-out", "cert.pem"},
                                         dir.path());
        if (made.exit_code != 0) {
            problem = made.output;
            return;
        }
        int probe = loopback_socket(0, false);
        port = port_of(probe);
        ::close(probe);
        CommandSpec spec;
        spec.argv = {"openssl", "s_server", "-accept", "127.0.0.1:" + std::to_string(port),
                     "-cert",   "cert.pem", "-key",    "key.pem",
                     "-www",    "-quiet"};
        spec.cwd = dir.path();
        spec.timeout = guard_limit;
        spec.kill_grace = 0ms;
        process = start_command(io, spec, [](const CommandResult&) {});
        auto deadline = Clock::now() + guard_limit;
        while (!accepts_connections(port) && Clock::now() < deadline)
            std::this_thread::sleep_for(10ms);
    }
    std::string url() const { return "https://127.0.0.1:" + std::to_string(port) + "/"; }
    std::string cert() const { return (dir.path() / "cert.pem").string(); }
    void stop() {
        if (process) process->cancel();
    }

    test::TempDir dir;
    std::string problem; // why the certificate could not be made
    int port = 0;
    std::shared_ptr<RunningCommand> process;
};

// One GET to the TLS server; the server stops once it is answered.
Seen tls_get(asio::io_context& io, TlsServer& server, std::string ca_file = "") {
    HttpClient client(io);
    Seen seen;
    HttpCallbacks callbacks = record(seen);
    callbacks.on_done = [&, inner = callbacks.on_done](std::optional<Error> error) {
        inner(std::move(error));
        server.stop();
    };
    HttpRequest request = get(server.url());
    request.ca_file = std::move(ca_file);
    client.start(std::move(request), callbacks);
    run(io);
    return seen;
}

// Verification is curl's default and must stay on: a certificate no system CA vouches for
// ends the request before anything is sent.
TEST_F(HttpClientTest, AnUntrustedCertificateIsRefused) {
    if (::access("/usr/bin/openssl", X_OK) != 0) GTEST_SKIP() << "needs the openssl program";
    TlsServer server(io);
    ASSERT_EQ(server.problem, "");
    Seen seen = tls_get(io, server);

    EXPECT_EQ(seen.events, std::vector<std::string>{"done"});
    ASSERT_TRUE(seen.error);
    EXPECT_EQ(seen.error->code, ErrorCode::network);
    std::string expected = "TLS failure with 127.0.0.1:" + std::to_string(server.port) + ": ";
    EXPECT_EQ(seen.error->message.rfind(expected, 0), 0u) << seen.error->message;
    EXPECT_NE(seen.error->message.find("certificate"), std::string::npos) << seen.error->message;
}

// A server whose certificate the user's CA file vouches for is trusted, whether the file
// comes with the request (a provider's ca_file) or from SSL_CERT_FILE.
TEST_F(HttpClientTest, TheUsersCaFileIsTrusted) {
    if (::access("/usr/bin/openssl", X_OK) != 0) GTEST_SKIP() << "needs the openssl program";
    {
        TlsServer server(io);
        ASSERT_EQ(server.problem, "");
        Seen seen = tls_get(io, server, server.cert());
        EXPECT_FALSE(seen.error) << seen.error->message;
        ASSERT_TRUE(seen.head);
        EXPECT_EQ(seen.head->status, 200);
    }
    {
        TlsServer server(io);
        ASSERT_EQ(server.problem, "");
        ::setenv("SSL_CERT_FILE", server.cert().c_str(), 1);
        Seen seen = tls_get(io, server);
        EXPECT_FALSE(seen.error) << seen.error->message;
        ASSERT_TRUE(seen.head);
        EXPECT_EQ(seen.head->status, 200);
    }
}

TEST_F(HttpClientTest, ACaFileThatCannotBeUsedIsNamed) {
    HttpClient client(io);
    Seen missing, from_env, garbage;
    HttpRequest request = get("https://127.0.0.1:1/");
    request.ca_file = "/nonexistent/company-ca.pem";
    client.start(request, record(missing));
    run(io);
    ASSERT_TRUE(missing.error);
    EXPECT_EQ(missing.error->code, ErrorCode::not_configured);
    EXPECT_EQ(missing.error->message, "cannot read the CA file /nonexistent/company-ca.pem "
                                      "(ca_file): No such file or directory");

    ::setenv("SSL_CERT_FILE", "/nonexistent/env-ca.pem", 1);
    client.start(get("https://127.0.0.1:1/"), record(from_env));
    run(io);
    ASSERT_TRUE(from_env.error);
    EXPECT_EQ(from_env.error->message, "cannot read the CA file /nonexistent/env-ca.pem "
                                       "(SSL_CERT_FILE): No such file or directory");
    ::unsetenv("SSL_CERT_FILE");

    // Readable but no certificate: curl itself refuses it, as it sets up TLS for a
    // connection (here to a loopback listener that never answers).
    test::TempDir dir;
    std::filesystem::path bad = dir.path() / "not-a-ca.pem";
    std::FILE* f = std::fopen(bad.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("not a certificate\n", f);
    std::fclose(f);
    int listener = loopback_socket(4);
    request.url = "https://127.0.0.1:" + std::to_string(port_of(listener)) + "/";
    request.ca_file = bad.string();
    client.start(request, record(garbage));
    run(io);
    ::close(listener);
    ASSERT_TRUE(garbage.error);
    EXPECT_EQ(garbage.error->code, ErrorCode::not_configured) << garbage.error->message;
    EXPECT_EQ(garbage.error->message.rfind(
                  "the CA file " + bad.string() + " (ca_file) holds no usable certificate: ", 0),
              0u)
        << garbage.error->message;
}

TEST_F(HttpClientTest, ARequestThatCannotBeSentFailsWithoutReachingTheNetwork) {
    HttpClient client(io);
    Seen bad_scheme, bad_header, get_with_body;
    client.start(post("ftp://127.0.0.1/file"), record(bad_scheme));
    HttpRequest injected = post("http://127.0.0.1:1/");
    injected.headers = {{"x-api-key", "sk\r\nX-Evil: 1"}};
    client.start(injected, record(bad_header));
    HttpRequest with_body = get("http://127.0.0.1:1/");
    with_body.body = "x";
    client.start(with_body, record(get_with_body));
    EXPECT_EQ(bad_scheme.callbacks(), 0) << "never from inside start()";
    run(io);

    for (const Seen* s : {&bad_scheme, &bad_header, &get_with_body}) {
        EXPECT_EQ(s->events, std::vector<std::string>{"done"});
        ASSERT_TRUE(s->error);
        EXPECT_EQ(s->error->code, ErrorCode::bad_request);
    }
    EXPECT_EQ(bad_scheme.error->message, "not an http:// or https:// URL");
    EXPECT_EQ(bad_header.error->message, "bad HTTP header: x-api-key");
}

} // namespace
} // namespace rio
