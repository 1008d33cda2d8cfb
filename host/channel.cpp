#include "host/channel.hpp"

#include <asio/write.hpp>
#include <cstdio>

namespace rio {

Channel::Channel(asio::io_context& io, int in_fd, int out_fd, ClientId id, std::size_t max_line,
                 Hooks hooks)
    : in_(io, in_fd), out_(io, out_fd), id_(id), reader_(max_line), hooks_(std::move(hooks)) {}

void Channel::start() {
    read_more();
}

void Channel::read_more() {
    in_.async_read_some(asio::buffer(read_buffer_),
                        [self = shared_from_this()](std::error_code ec, std::size_t n) {
                            if (self->closing_ || self->closed_) return;
                            bool eof = ec || n == 0;
                            auto frames = eof ? self->reader_.finish()
                                              : self->reader_.feed({self->read_buffer_.data(), n});
                            for (const Frame& frame : frames) {
                                if (self->closed_) return;
                                self->hooks_.on_frame(*self, frame);
                            }
                            if (eof)
                                self->close_after_flush();
                            else
                                self->read_more();
                        });
}

void Channel::send(std::string line) {
    if (closed_) return;
    queued_bytes_ += line.size();
    if (queued_bytes_ > max_queued_output) {
        std::fprintf(stderr, "rio-core: client %llu reads too slowly; disconnecting it\n",
                     static_cast<unsigned long long>(id_));
        close_now();
        return;
    }
    queue_.push_back(std::move(line));
    write_more();
}

void Channel::write_more() {
    if (writing_ || closed_) return;
    if (queue_.empty()) {
        if (closing_) close_now();
        return;
    }
    // Everything queued goes out in one gathered write: events come in bursts.
    in_flight_.assign(std::make_move_iterator(queue_.begin()),
                      std::make_move_iterator(queue_.end()));
    queue_.clear();
    std::vector<asio::const_buffer> buffers;
    buffers.reserve(in_flight_.size());
    for (const std::string& line : in_flight_)
        buffers.push_back(asio::buffer(line));
    writing_ = true;
    asio::async_write(out_, buffers, [self = shared_from_this()](std::error_code ec, std::size_t) {
        self->writing_ = false;
        if (self->closed_) return;
        for (const std::string& line : self->in_flight_)
            self->queued_bytes_ -= line.size();
        self->in_flight_.clear();
        if (ec) {
            self->close_now();
            return;
        }
        self->write_more();
    });
}

void Channel::close_after_flush() {
    closing_ = true;
    std::error_code ignored;
    in_.cancel(ignored);
    write_more();
}

void Channel::close_now() {
    if (closed_) return;
    closed_ = true;
    std::error_code ignored;
    in_.cancel(ignored);
    out_.cancel(ignored);
    in_.close(ignored);
    out_.close(ignored);
    queue_.clear();
    queued_bytes_ = 0;
    if (hooks_.on_closed) hooks_.on_closed(*this);
}

} // namespace rio
