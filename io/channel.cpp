#include "io/channel.hpp"

#include <asio/write.hpp>
#include <cstdio>

namespace rio {
namespace {

// One gathered write takes at most this much: a slow client with a long queue costs the
// loop a bounded amount of work per write, not a walk over everything it has not read.
constexpr std::size_t max_gather_lines = 256;
constexpr std::size_t max_gather_bytes = 1024 * 1024;

} // namespace

Channel::Channel(asio::io_context& io, int in_fd, int out_fd, ChannelId id, std::size_t max_line,
                 Hooks hooks, OutputBudget* budget)
    : in_(io, in_fd), out_(io, out_fd), id_(id), reader_(max_line), hooks_(std::move(hooks)),
      budget_(budget ? budget : &own_budget_) {}

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
    send(std::make_shared<const std::string>(std::move(line)));
}

void Channel::send(SharedLine line) {
    if (closed_) return;
    if (budget_ == &own_budget_ && budget_->used + line->size() > budget_->limit &&
        queued_bytes_ > 0) {
        std::fprintf(stderr, "rio-core: client %llu reads too slowly; disconnecting it\n",
                     static_cast<unsigned long long>(id_));
        close_now();
        return;
    }
    account(static_cast<std::ptrdiff_t>(line->size()));
    queue_.push_back(std::move(line));
    write_more();
}

void Channel::account(std::ptrdiff_t bytes) {
    queued_bytes_ += static_cast<std::size_t>(bytes);
    budget_->used += static_cast<std::size_t>(bytes);
}

void Channel::write_more() {
    if (writing_ || closed_) return;
    if (queue_.empty()) {
        if (closing_) close_now();
        return;
    }
    std::size_t bytes = 0;
    while (!queue_.empty() && in_flight_.size() < max_gather_lines &&
           (in_flight_.empty() || bytes + queue_.front()->size() <= max_gather_bytes)) {
        bytes += queue_.front()->size();
        in_flight_.push_back(std::move(queue_.front()));
        queue_.pop_front();
    }
    std::vector<asio::const_buffer> buffers;
    buffers.reserve(in_flight_.size());
    for (const SharedLine& line : in_flight_)
        buffers.push_back(asio::buffer(*line));
    writing_ = true;
    asio::async_write(out_, buffers, [self = shared_from_this()](std::error_code ec, std::size_t) {
        self->writing_ = false;
        if (self->closed_) return;
        std::size_t written = 0;
        for (const SharedLine& line : self->in_flight_)
            written += line->size();
        self->account(-static_cast<std::ptrdiff_t>(written));
        self->in_flight_.clear();
        if (ec) {
            self->close_now();
            return;
        }
        if (self->hooks_.on_written) self->hooks_.on_written(*self);
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
    queue_.clear(); // in_flight_ stays until the aborted write's handler has run
    budget_->used -= queued_bytes_;
    queued_bytes_ = 0;
    if (hooks_.on_closed) hooks_.on_closed(*this);
}

} // namespace rio
