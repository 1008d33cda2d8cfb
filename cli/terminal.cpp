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

QuietControlKeys::QuietControlKeys(int fd) : fd_(fd) {
    termios t{};
    if (::tcgetattr(fd_, &t) != 0 || !(t.c_lflag & ECHOCTL)) return;
    t.c_lflag &= ~static_cast<tcflag_t>(ECHOCTL);
    cleared_ = ::tcsetattr(fd_, TCSANOW, &t) == 0;
}

QuietControlKeys::~QuietControlKeys() {
    termios t{};
    if (!cleared_ || ::tcgetattr(fd_, &t) != 0) return;
    t.c_lflag |= ECHOCTL;
    ::tcsetattr(fd_, TCSANOW, &t);
}

} // namespace rio
