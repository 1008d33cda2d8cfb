// rio-cli's interactive session, reading the terminal: a line with history and completion,
// one key of a question, a secret typed unseen; stdin is read only while one is asked.
#include "cli/interactive.hpp"
#include "cli/line_fill.hpp"
#include "cli/terminal_safe.hpp"

#include <iostream>
#include <unistd.h>
#include <utility>

namespace rio {

void InteractiveSession::ask_line(const std::string& question,
                                  std::function<void(std::string)> then,
                                  LineInput::ReadOptions options) {
    stop_input();
    end_open_line();
    std::cout << std::flush;
    input_ = Input::line;
    lines_.read(
        md::terminal_output(question),
        [this, then = std::move(then)](std::optional<std::string> line) {
            input_ = Input::none;
            if (!line) { // Ctrl+D
                std::cout << "\n";
                return quit(0);
            }
            then(*line);
        },
        std::move(options));
}

void InteractiveSession::ask_key(const std::string& question, const std::string& keys,
                                 std::function<void(char)> then) {
    stop_input();
    std::string lines;
    for (const std::string& line : md::option_lines(question, width()))
        lines += (lines.empty() ? "" : "\n") + line;
    print(styled(lines, sgr::bold, out_.color));
    input_ = Input::key;
    keys_ = keys;
    key_then_ = std::move(then);
    raw_ = std::make_unique<RawKeys>(0);
    watch_stdin();
}

void InteractiveSession::ask_secret(const std::string& question,
                                    std::function<void(std::string)> then) {
    stop_input();
    spinner_.hide();
    raw_ = std::make_unique<RawKeys>(0); // echo off before the question invites typing
    input_ = Input::secret;
    secret_.clear();
    secret_escape_ = false;
    secret_then_ = std::move(then);
    std::cout << md::terminal_output(question) << std::flush;
    watch_stdin();
}

void InteractiveSession::watch_stdin() {
    stdin_.async_wait(asio::posix::stream_descriptor::wait_read, [this](std::error_code ec) {
        if (!ec) stdin_ready();
    });
}

void InteractiveSession::stdin_ready() {
    if (input_ == Input::secret) return secret_ready();
    if (input_ != Input::key) return;
    char key = 0;
    if (::read(0, &key, 1) != 1) return quit(0);
    if (keys_.find(key) == std::string::npos) return watch_stdin();
    auto then = std::move(key_then_);
    stop_input();
    std::cout << key << "\n" << std::flush;
    then(key);
}

// Bytes as the terminal sends them with echo off: Enter ends the line, Backspace and Ctrl+U
// take back, escape sequences (a bracketed paste's markers, arrow keys) are dropped.
void InteractiveSession::secret_ready() {
    char bytes[256];
    ssize_t n = ::read(0, bytes, sizeof bytes);
    if (n <= 0) return quit(0);
    for (ssize_t i = 0; i < n; ++i) {
        const unsigned char c = static_cast<unsigned char>(bytes[i]);
        if (secret_escape_) {
            secret_escape_ = c == '[' || c < 0x40 || c > 0x7e; // up to the final byte
            continue;
        }
        if (c == '\r' || c == '\n') {
            std::string secret = std::exchange(secret_, std::string());
            auto then = std::move(secret_then_);
            stop_input();
            then(std::move(secret));
            return;
        }
        if (c == 0x1b)
            secret_escape_ = true;
        else if (c == 0x7f || c == 0x08) {
            if (!secret_.empty()) secret_.pop_back();
        } else if (c == 0x15)
            secret_.clear();
        else if (c >= 0x20)
            secret_.push_back(static_cast<char>(c));
    }
    watch_stdin();
}

void InteractiveSession::stop_input() {
    if (input_ == Input::line) {
        lines_.cancel();
        std::cout << "\n";
    }
    if (input_ == Input::secret) {
        secret_.clear();
        secret_then_ = nullptr;
        std::cout << "\n";
    }
    raw_.reset();
    std::error_code ignored;
    stdin_.cancel(ignored);
    input_ = Input::none;
}

} // namespace rio
