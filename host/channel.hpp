// One client connection: reads protocol lines from a descriptor and writes queued lines
// to another (the same socket twice, or stdin and stdout).
#pragma once

#include "core/dispatch.hpp"
#include "core/line_reader.hpp"

#include <array>
#include <asio/io_context.hpp>
#include <asio/posix/stream_descriptor.hpp>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace rio {

// A client that lets this much output pile up unread is cut off rather than letting the
// core's memory grow without bound.
inline constexpr std::size_t max_queued_output = 256u * 1024 * 1024;

class Channel : public std::enable_shared_from_this<Channel> {
public:
    struct Hooks {
        std::function<void(Channel&, const Frame&)> on_frame;
        std::function<void(Channel&)> on_closed; // called once, after the last write
    };

    // Takes ownership of both descriptors (which must differ).
    Channel(asio::io_context& io, int in_fd, int out_fd, ClientId id, std::size_t max_line,
            Hooks hooks);

    void start();
    void send(std::string line);
    // Stops reading, writes what is queued, then closes.
    void close_after_flush();

    ClientId id() const { return id_; }

private:
    void read_more();
    void write_more();
    void close_now();

    asio::posix::stream_descriptor in_, out_;
    ClientId id_;
    LineReader reader_;
    Hooks hooks_;
    std::array<char, 64 * 1024> read_buffer_{};
    std::deque<std::string> queue_;
    std::vector<std::string> in_flight_;
    std::size_t queued_bytes_ = 0;
    bool writing_ = false;
    bool closing_ = false;
    bool closed_ = false;
};

} // namespace rio
