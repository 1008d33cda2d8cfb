#include "host/http/loopback_get.hpp"

#include "io/unique_fd.hpp"

#include <arpa/inet.h>
#include <cerrno>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

namespace rio {
namespace {

using Clock = std::chrono::steady_clock;

int left_ms(Clock::time_point deadline) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    return left.count() > 0 ? static_cast<int>(left.count()) : 0;
}

// poll is never restarted after a signal: a child's SIGCHLD at start-up (the core spawns a
// few) would otherwise end the probe at once and the core fall back to echo.
bool wait_for(int fd, short events, Clock::time_point deadline) {
    pollfd p{fd, events, 0};
    int ready = 0;
    while ((ready = ::poll(&p, 1, left_ms(deadline))) < 0 && errno == EINTR) {
    }
    return ready == 1 && (p.revents & (events | POLLHUP));
}

} // namespace

std::optional<std::string> loopback_get(std::uint16_t port, const std::string& path,
                                        std::chrono::milliseconds timeout) {
    auto deadline = Clock::now() + timeout;
    UniqueFd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
    if (fd.fd < 0) return std::nullopt;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd.fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        if (errno != EINPROGRESS || !wait_for(fd.fd, POLLOUT, deadline)) return std::nullopt;
        int error = 0;
        socklen_t len = sizeof error;
        if (::getsockopt(fd.fd, SOL_SOCKET, SO_ERROR, &error, &len) != 0 || error != 0)
            return std::nullopt;
    }
    std::string request = "GET " + path + " HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
    if (::send(fd.fd, request.data(), request.size(), MSG_NOSIGNAL) !=
        static_cast<ssize_t>(request.size()))
        return std::nullopt;
    std::string response;
    char chunk[4096];
    while (response.size() < (1u << 20) && wait_for(fd.fd, POLLIN, deadline)) {
        ssize_t n = ::recv(fd.fd, chunk, sizeof chunk, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        response.append(chunk, static_cast<std::size_t>(n));
    }
    if (response.compare(0, 12, "HTTP/1.0 200") != 0 &&
        response.compare(0, 12, "HTTP/1.1 200") != 0)
        return std::nullopt;
    auto body = response.find("\r\n\r\n");
    if (body == std::string::npos) return std::nullopt;
    return response.substr(body + 4);
}

} // namespace rio
