#include "cli/line_input.hpp"

#include <asio/post.hpp>
#include <atomic>
#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <editline/readline.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

namespace rio {
namespace {

// libedit's getc hook is a plain function; the one reading thread finds its wake-up fd and
// Ctrl+C flag here. Only one LineInput reads at a time.
std::atomic<int> reading_wake_fd{-1};
std::atomic<bool> ctrl_c_pressed{false};

int read_key(FILE*) {
    pollfd fds[2] = {{0, POLLIN, 0}, {reading_wake_fd.load(), POLLIN, 0}};
    for (;;) {
        if (::poll(fds, 2, -1) < 0) continue;
        if (fds[1].revents) return EOF; // cancelled
        unsigned char c = 0;
        if (::read(0, &c, 1) != 1) return EOF;
        if (c == 0x03) { // Ctrl+C: end this prompt; the session decides what it means
            ctrl_c_pressed = true;
            return EOF;
        }
        return c;
    }
}

} // namespace

LineInput::LineInput(asio::io_context& io, std::function<void()> on_ctrl_c)
    : io_(io), on_ctrl_c_(std::move(on_ctrl_c)),
      wake_fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
    std::setlocale(LC_CTYPE, ""); // libedit edits UTF-8 only in a UTF-8 locale
    rl_catch_signals = 0;
    rl_getc_function = read_key;
}

LineInput::~LineInput() {
    cancel();
    if (wake_fd_ >= 0) ::close(wake_fd_);
}

void LineInput::read(const std::string& prompt, OnLine then) {
    finish();
    std::uint64_t drain = 0;
    (void)!::read(wake_fd_, &drain, sizeof drain); // forget an old cancel
    reading_wake_fd = wake_fd_;
    ctrl_c_pressed = false;
    std::uint64_t generation = ++generation_;
    thread_ = std::thread([this, generation, prompt, then = std::move(then)]() mutable {
        char* raw = ::readline(prompt.c_str());
        std::optional<std::string> line;
        if (raw) {
            line = raw;
            std::free(raw);
            if (!line->empty()) ::add_history(line->c_str());
        }
        bool interrupted = ctrl_c_pressed.exchange(false);
        asio::post(io_, [this, generation, line, interrupted, then = std::move(then)] {
            if (generation != generation_) return; // cancelled meanwhile
            finish();
            if (interrupted) {
                std::fputs("^C\n", stdout);
                on_ctrl_c_();
            } else {
                then(line);
            }
        });
    });
}

void LineInput::cancel() {
    ++generation_;
    if (!thread_.joinable()) return;
    std::uint64_t one = 1;
    (void)!::write(wake_fd_, &one, sizeof one);
    thread_.join();
}

// The reading thread is done (it posted its result); reap it.
void LineInput::finish() {
    if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

} // namespace rio
