// What rio-cli knows about its terminal: whether output is one, whether to colour it
// (never with NO_COLOR or TERM=dumb, never into a pipe), its width; and raw single keys.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <termios.h>

namespace rio {

struct Terminal {
    bool tty = false;
    bool color = false;
    int width = 80;
};

Terminal detect_terminal(int fd);

// SGR sequences rio-cli uses.
namespace sgr {
inline constexpr std::string_view bold = "\x1b[1m";
inline constexpr std::string_view dim = "\x1b[2m";
inline constexpr std::string_view red = "\x1b[31m";
inline constexpr std::string_view green = "\x1b[32m";
inline constexpr std::string_view yellow = "\x1b[33m";
inline constexpr std::string_view cyan = "\x1b[36m";
inline constexpr std::string_view reset = "\x1b[0m";
} // namespace sgr

// `text` wrapped in `style` and a reset, or plain when colour is off.
std::string styled(std::string_view text, std::string_view style, bool color);

// Puts the terminal on `fd` in single-key mode (no line buffering, no echo; Ctrl+C still
// signals) for as long as it lives.
class RawKeys {
public:
    explicit RawKeys(int fd);
    ~RawKeys();
    RawKeys(const RawKeys&) = delete;
    RawKeys& operator=(const RawKeys&) = delete;

private:
    int fd_;
    std::optional<termios> saved_;
};

// While a turn runs nobody reads the terminal, and in its ordinary (canonical) mode it
// would echo typing and "^C" into the reply and turn a typed Ctrl+D into an end-of-file
// mark that reaches the next prompt as a NUL byte. This turns ICANON, ECHO and ECHOCTL off
// (Ctrl+C still signals), so what is typed ahead waits byte for byte for the next prompt,
// for as long as it lives; it restores only the bits it cleared, so that it never undoes
// another mode set meanwhile.
class QuietControlKeys {
public:
    explicit QuietControlKeys(int fd);
    ~QuietControlKeys();
    QuietControlKeys(const QuietControlKeys&) = delete;
    QuietControlKeys& operator=(const QuietControlKeys&) = delete;

private:
    int fd_;
    tcflag_t cleared_ = 0;
};

// libedit prints its prompt before it puts the terminal in its own mode; a key typed as
// soon as the prompt shows would meet the canonical mode (a Ctrl+D lost as above). Called
// before a prompt: the same three bits off; libedit restores its cooked mode after the line.
void hold_typed_keys(int fd);

} // namespace rio
