// One client connection: reads protocol lines from a descriptor and writes queued lines
// to another (the same socket twice, or stdin and stdout).
#pragma once

#include "protocol/line_reader.hpp"

#include <array>
#include <asio/io_context.hpp>
#include <asio/posix/stream_descriptor.hpp>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace rio {

// A line queued to several clients is held once.
using SharedLine = std::shared_ptr<const std::string>;

// Output waiting to be read by a client, summed over every client of a server: one budget
// for all, so slow readers cannot together take the core's memory (the server decides who
// is cut off when it runs out).
struct OutputBudget {
    std::size_t limit = 256u * 1024 * 1024;
    std::size_t used = 0;
};

using ChannelId = std::uint64_t;

class Channel : public std::enable_shared_from_this<Channel> {
public:
    struct Hooks {
        std::function<void(Channel&, const Frame&)> on_frame;
        std::function<void(Channel&)> on_closed;  // called once, after the last write
        std::function<void(Channel&)> on_written; // after each completed write
    };

    // Takes ownership of both descriptors (which must differ). Without a budget of its own
    // the channel cuts itself off once OutputBudget's default limit is unread.
    Channel(asio::io_context& io, int in_fd, int out_fd, ChannelId id, std::size_t max_line,
            Hooks hooks, OutputBudget* budget = nullptr);

    void start();
    // Before start(): the first line may be at most this long (a stranger's hello).
    void limit_first_line(std::size_t max_line) { reader_.limit_first_line(max_line); }
    void send(std::string line);
    void send(SharedLine line);
    // Stops reading, writes what is queued, then closes.
    void close_after_flush();
    // Closes at once, dropping what is queued.
    void close_now();

    ChannelId id() const { return id_; }
    std::size_t queued_bytes() const { return queued_bytes_; }
    bool closed() const { return closed_; }

private:
    void read_more();
    void write_more();
    void account(std::ptrdiff_t bytes);

    asio::posix::stream_descriptor in_, out_;
    ChannelId id_;
    LineReader reader_;
    Hooks hooks_;
    OutputBudget own_budget_;
    OutputBudget* budget_;
    std::array<char, 64 * 1024> read_buffer_{};
    std::deque<SharedLine> queue_;
    std::vector<SharedLine> in_flight_;
    std::size_t queued_bytes_ = 0; // queued and in flight
    bool writing_ = false;
    bool closing_ = false;
    bool closed_ = false;
};

} // namespace rio
