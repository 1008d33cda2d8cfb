#include "host/process/piped_process.hpp"

#include "host/process/child_leader.hpp"
#include "io/unique_fd.hpp"

#include <array>
#include <asio/posix/stream_descriptor.hpp>
#include <asio/steady_timer.hpp>
#include <asio/write.hpp>
#include <cerrno>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

namespace rio {
namespace {

class Piped final : public PipedProcess, public std::enable_shared_from_this<Piped> {
public:
    Piped(asio::io_context& io, PipedSpec spec, PipedHandlers handlers)
        : spec_(std::move(spec)), handlers_(std::move(handlers)), leader_(io), in_(io), out_(io),
          err_(io), kill_timer_(io) {}

    Status begin() {
        int in[2], out[2], err[2];
        auto failed = [&] {
            return make_error(ErrorCode::io_error,
                              "cannot start " + spec_.argv.at(0) + ": " + std::strerror(errno));
        };
        if (::pipe2(in, O_CLOEXEC) != 0) return failed();
        UniqueFd in_read(in[0]), in_write(in[1]);
        if (::pipe2(out, O_CLOEXEC) != 0) return failed();
        UniqueFd out_read(out[0]), out_write(out[1]);
        if (::pipe2(err, O_CLOEXEC) != 0) return failed();
        UniqueFd err_read(err[0]), err_write(err[1]);
        Result<SpawnedProcess> spawned = spawn_process(
            {spec_.argv, spec_.cwd, spec_.env, in_read.fd, out_write.fd, err_write.fd});
        if (!spawned) return spawned.error();
        leader_.own(spawned->pid, spawned->pidfd);
        in_.assign(in_write.release());
        out_.assign(out_read.release());
        err_.assign(err_read.release());
        leader_.when_exited([self = shared_from_this()] { self->exited(); });
        read_out();
        read_err();
        return Ok{};
    }

    void write_line(std::string line) override {
        line += '\n';
        write(std::move(line));
    }

    void write(std::string bytes) override {
        if (!in_.is_open()) return;
        queue_.push_back(std::move(bytes));
        if (queue_.size() == 1) write_next();
    }

    const std::string& stderr_tail() const override { return result_.stderr_tail; }

    void stop() override {
        if (!leader_.running() || stopping_) return;
        stopping_ = true;
        result_.stopped = true;
        close_stdin();
        leader_.signal_tree(SIGTERM);
        leader_.signal_tree(SIGCONT);
        kill_timer_.expires_after(spec_.kill_grace);
        kill_timer_.async_wait([self = shared_from_this()](std::error_code ec) {
            if (!ec) self->leader_.signal_tree(SIGKILL);
        });
    }

    void forget() override { handlers_ = {}; }

    pid_t pid() const override { return leader_.pid(); }

private:
    void write_next() {
        asio::async_write(in_, asio::buffer(queue_.front()),
                          [self = shared_from_this()](std::error_code ec, std::size_t) {
                              if (ec) {
                                  self->close_stdin(); // it closed its stdin or died
                                  return;
                              }
                              if (self->queue_.empty()) return;
                              self->queue_.pop_front();
                              if (!self->queue_.empty()) self->write_next();
                          });
    }

    void close_stdin() {
        queue_.clear();
        std::error_code ignored;
        in_.close(ignored);
    }

    void read_out() {
        out_.async_read_some(asio::buffer(buffer_),
                             [self = shared_from_this()](std::error_code ec, std::size_t n) {
                                 self->take_output({self->buffer_.data(), n});
                                 if (ec || !self->out_.is_open()) {
                                     self->out_done_ = true;
                                     std::error_code ignored;
                                     self->out_.close(ignored);
                                     self->maybe_finish();
                                     return;
                                 }
                                 self->read_out();
                             });
    }

    void take_output(std::string_view bytes) {
        if (handlers_.on_bytes) {
            // A copy: the handler may forget() this process, which empties handlers_.
            auto on_bytes = handlers_.on_bytes;
            if (!bytes.empty()) on_bytes(bytes);
            return;
        }
        while (!bytes.empty()) {
            std::size_t nl = bytes.find('\n');
            std::string_view piece = bytes.substr(0, nl);
            if (partial_.size() + piece.size() > spec_.max_line) {
                result_.line_too_long = true;
                partial_.clear();
                std::error_code ignored;
                out_.close(ignored);
                leader_.signal_tree(SIGKILL);
                return;
            }
            partial_.append(piece);
            if (nl == std::string_view::npos) return;
            bytes.remove_prefix(nl + 1);
            std::string line = std::move(partial_);
            partial_.clear();
            if (!line.empty() && line.back() == '\r') line.pop_back();
            if (handlers_.on_line) handlers_.on_line(std::move(line));
        }
    }

    void read_err() {
        err_.async_read_some(asio::buffer(err_buffer_),
                             [self = shared_from_this()](std::error_code ec, std::size_t n) {
                                 std::string& tail = self->result_.stderr_tail;
                                 tail.append(self->err_buffer_.data(), n);
                                 if (tail.size() > self->spec_.stderr_tail)
                                     tail.erase(0, tail.size() - self->spec_.stderr_tail);
                                 if (ec) {
                                     std::error_code ignored;
                                     self->err_.close(ignored);
                                     return;
                                 }
                                 self->read_err();
                             });
    }

    void exited() {
        ReapedExit reaped = leader_.reap();
        result_.exit_code = reaped.exit_code;
        result_.signal = reaped.signal;
        kill_timer_.cancel();
        close_stdin();
        exited_ = true;
        maybe_finish();
    }

    void maybe_finish() {
        if (!exited_ || !out_done_ || finished_) return;
        finished_ = true;
        std::error_code ignored;
        err_.close(ignored);
        if (handlers_.on_exit) {
            auto on_exit = std::move(handlers_.on_exit);
            handlers_ = {};
            on_exit(std::move(result_));
        }
    }

    PipedSpec spec_;
    PipedHandlers handlers_;
    ChildLeader leader_;
    asio::posix::stream_descriptor in_, out_, err_;
    asio::steady_timer kill_timer_;
    std::deque<std::string> queue_; // front: being written
    std::array<char, 64 * 1024> buffer_{};
    std::array<char, 4096> err_buffer_{};
    std::string partial_;
    PipedExit result_;
    bool stopping_ = false, exited_ = false, out_done_ = false, finished_ = false;
};

} // namespace

std::string exit_words(const PipedExit& exit) {
    if (exit.line_too_long) return "sent a line longer than the limit and was stopped";
    if (exit.signal)
        return "was killed by signal " + std::to_string(exit.signal) + " (" +
               ::strsignal(exit.signal) + ")";
    return "exited with code " + std::to_string(exit.exit_code);
}

Result<std::shared_ptr<PipedProcess>> start_piped(asio::io_context& io, PipedSpec spec,
                                                  PipedHandlers handlers) {
    if (spec.argv.empty()) return make_error(ErrorCode::bad_request, "no command given");
    auto process = std::make_shared<Piped>(io, std::move(spec), std::move(handlers));
    if (Status started = process->begin(); !started) return started.error();
    return std::shared_ptr<PipedProcess>(process);
}

} // namespace rio
