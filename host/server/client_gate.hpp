// The door of a TCP listener (DESIGN §12): any local process, and any web page through the
// user's browser, can reach a loopback port, so a TCP client's first line must be
// session.hello carrying the listener's token. A line that looks like HTTP closes the
// connection without a word: a page POSTing to localhost runs nothing.
#pragma once

#include <string>
#include <string_view>

namespace rio {

enum class GateVerdict {
    admit,  // the hello with the right token: handle it and every later line
    refuse, // JSON, but not that: answer with the reason, then close
    drop,   // HTTP or garbage: close at once
};

GateVerdict check_first_line(std::string_view line, std::string_view token);

// 32 random bytes from the kernel, as hex.
std::string random_token();

} // namespace rio
