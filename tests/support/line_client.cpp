#include "tests/support/line_client.hpp"

#include <cerrno>
#include <cstring>
#include <poll.h>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <utility>

namespace rio::test {

LineClient::LineClient(LineClient&& other) noexcept {
    *this = std::move(other);
}

LineClient& LineClient::operator=(LineClient&& other) noexcept {
    if (this != &other) {
        close();
        in_ = std::exchange(other.in_, -1);
        out_ = std::exchange(other.out_, -1);
        buffer_ = std::move(other.buffer_);
        scanned_ = std::exchange(other.scanned_, 0);
        events_ = std::move(other.events_);
        next_id_ = other.next_id_;
        eof_ = other.eof_;
        transcript_ = std::move(other.transcript_);
    }
    return *this;
}

LineClient::~LineClient() {
    close();
}

LineClient LineClient::connect_unix(const std::string& path) {
    int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, path.c_str(), sizeof addr.sun_path - 1);
    if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
        throw std::runtime_error("cannot connect to " + path + ": " + std::strerror(errno));
    return LineClient(fd, ::dup(fd));
}

void LineClient::send_raw(std::string_view bytes) {
    while (!bytes.empty()) {
        ssize_t n = ::write(out_, bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw std::runtime_error(std::string("write to core: ") + std::strerror(errno));
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
}

Json LineClient::request(std::string_view op, const Json& params) {
    long id = next_id_++;
    send_raw(Json{{"id", id}, {"op", op}, {"params", params}}.dump() + "\n");
    return response_to(id);
}

Json LineClient::response_to(const Json& id, std::chrono::milliseconds deadline) {
    auto until = std::chrono::steady_clock::now() + deadline;
    for (;;) {
        Json message = next_message(std::chrono::duration_cast<std::chrono::milliseconds>(
            until - std::chrono::steady_clock::now()));
        if (message.contains("event")) {
            events_.push_back(std::move(message));
            continue;
        }
        if (message["id"] == id) return message;
        throw std::runtime_error("unexpected response: " + message.dump());
    }
}

Json LineClient::next_event(std::string_view name, std::chrono::milliseconds deadline) {
    for (auto it = events_.begin(); it != events_.end(); ++it)
        if ((*it)["event"] == name) {
            Json event = std::move(*it);
            events_.erase(it);
            return event;
        }
    auto until = std::chrono::steady_clock::now() + deadline;
    for (;;) {
        Json message = next_message(std::chrono::duration_cast<std::chrono::milliseconds>(
            until - std::chrono::steady_clock::now()));
        if (message.contains("event") && message["event"] == name) return message;
        if (message.contains("event")) events_.push_back(std::move(message));
    }
}

void LineClient::forget_events(std::string_view name) {
    std::erase_if(events_, [name](const Json& event) { return event["event"] == name; });
}

std::vector<Json> LineClient::events_until(std::string_view name,
                                           std::chrono::milliseconds deadline) {
    std::vector<Json> seen;
    while (!events_.empty()) {
        seen.push_back(std::move(events_.front()));
        events_.pop_front();
        if (seen.back()["event"] == name) return seen;
    }
    auto until = std::chrono::steady_clock::now() + deadline;
    for (;;) {
        Json message = next_message(std::chrono::duration_cast<std::chrono::milliseconds>(
            until - std::chrono::steady_clock::now()));
        if (!message.contains("event")) continue; // a late response nobody waits for
        seen.push_back(std::move(message));
        if (seen.back()["event"] == name) return seen;
    }
}

std::vector<Json> LineClient::drain(std::chrono::milliseconds wait) {
    std::vector<Json> seen(std::make_move_iterator(events_.begin()),
                           std::make_move_iterator(events_.end()));
    events_.clear();
    auto until = std::chrono::steady_clock::now() + wait;
    for (;;) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            until - std::chrono::steady_clock::now());
        auto line = read_line(std::max(left, std::chrono::milliseconds(0)));
        if (!line) return seen;
        Json message = Json::parse(*line);
        if (message.contains("event")) seen.push_back(std::move(message));
    }
}

Json LineClient::next_message(std::chrono::milliseconds deadline) {
    auto line = read_line(deadline);
    if (!line) throw std::runtime_error(eof_ ? "core closed the channel" : "no message in time");
    return Json::parse(*line);
}

bool LineClient::quiet_for(std::chrono::milliseconds wait) {
    if (!events_.empty()) return false;
    return !read_line(wait).has_value() && !eof_;
}

std::optional<std::string> LineClient::read_line(std::chrono::milliseconds deadline) {
    auto until = std::chrono::steady_clock::now() + deadline;
    for (;;) {
        // Only bytes not yet looked at: a 20 MB line arrives in 320 reads.
        if (auto nl = buffer_.find('\n', scanned_); nl != std::string::npos) {
            std::string line = buffer_.substr(0, nl);
            buffer_.erase(0, nl + 1);
            scanned_ = 0;
            if (transcript_) transcript_->push_back(line);
            return line;
        }
        scanned_ = buffer_.size();
        if (eof_) return std::nullopt;
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            until - std::chrono::steady_clock::now());
        if (left.count() <= 0) return std::nullopt;
        pollfd p{in_, POLLIN, 0};
        int r = ::poll(&p, 1, static_cast<int>(left.count()));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return std::nullopt;
        char chunk[65536];
        ssize_t n = ::read(in_, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            eof_ = true;
            continue;
        }
        buffer_.append(chunk, static_cast<std::size_t>(n));
    }
}

void LineClient::close_writing() {
    if (out_ < 0) return;
    ::shutdown(out_, SHUT_WR); // a socket's dup would otherwise keep the connection half open
    ::close(std::exchange(out_, -1));
}

void LineClient::close() {
    close_writing();
    if (in_ >= 0) ::close(std::exchange(in_, -1));
}

} // namespace rio::test
