#include "cli/terminal.hpp"

#include <cstdlib>
#include <cstring>
#include <sys/ioctl.h>
#include <unistd.h>

namespace rio {

Terminal detect_terminal(int fd) {
    Terminal t;
    t.tty = ::isatty(fd) == 1;
    const char* no_color = std::getenv("NO_COLOR");
    const char* term = std::getenv("TERM");
    t.color = t.tty && !(no_color && *no_color) && !(term && std::strcmp(term, "dumb") == 0);
    winsize ws{};
    if (t.tty && ::ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        t.width = ws.ws_col;
    else if (const char* columns = std::getenv("COLUMNS"); columns && std::atoi(columns) > 0)
        t.width = std::atoi(columns);
    return t;
}

std::string styled(std::string_view text, std::string_view style, bool color) {
    if (!color) return std::string(text);
    return std::string(style) + std::string(text) + std::string(sgr::reset);
}

RawKeys::RawKeys(int fd) : fd_(fd) {
    termios t{};
    if (::tcgetattr(fd_, &t) != 0) return;
    saved_ = t;
    t.c_lflag &= ~static_cast<tcflag_t>(ICANON | ECHO);
    t.c_cc[VMIN] = 1;
    t.c_cc[VTIME] = 0;
    ::tcsetattr(fd_, TCSANOW, &t);
}

RawKeys::~RawKeys() {
    if (saved_) ::tcsetattr(fd_, TCSANOW, &*saved_);
}

namespace {

constexpr tcflag_t typing_bits = ICANON | ECHO | ECHOCTL;

// Clears `typing_bits` on `fd`'s terminal; returns those that were set and are now clear.
tcflag_t clear_typing_bits(int fd) {
    termios t{};
    if (::tcgetattr(fd, &t) != 0) return 0;
    tcflag_t set = t.c_lflag & typing_bits;
    if (!set) return 0;
    t.c_lflag &= ~set;
    t.c_cc[VMIN] = 1;
    t.c_cc[VTIME] = 0;
    return ::tcsetattr(fd, TCSANOW, &t) == 0 ? set : 0;
}

} // namespace

QuietControlKeys::QuietControlKeys(int fd) : fd_(fd), cleared_(clear_typing_bits(fd)) {}

QuietControlKeys::~QuietControlKeys() {
    termios t{};
    if (!cleared_ || ::tcgetattr(fd_, &t) != 0) return;
    t.c_lflag |= cleared_;
    ::tcsetattr(fd_, TCSANOW, &t);
}

void hold_typed_keys(int fd) {
    if (::isatty(fd) == 1) clear_typing_bits(fd);
}

} // namespace rio
