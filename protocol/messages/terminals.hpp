// Terminals the core owns (decision 0093).
#pragma once

#include "protocol/messages/common.hpp"

namespace rio {

// The person's own shell on a pty the core owns, in the project folder: no sandbox, no agent.
struct TerminalOpenResult {
    std::uint64_t id = 0;
    std::string shell; // the program started ("/bin/bash")
    std::string cwd;   // where, on the core's machine
};
RIO_FIELDS(TerminalOpenResult, id, shell, cwd)

struct TerminalOpenParams {
    static constexpr std::string_view op = op::terminal_open;
    using Result = TerminalOpenResult;
    std::uint64_t cols = 80, rows = 24;
    std::optional<std::string> path; // a project folder to start in; default the root
};
RIO_FIELDS(TerminalOpenParams, cols, rows, path)

// What the person typed or pasted, as the terminal's keys encode it.
struct TerminalInputParams {
    static constexpr std::string_view op = op::terminal_input;
    using Result = Empty;
    std::uint64_t id = 0;
    std::string data;
};
RIO_FIELDS(TerminalInputParams, id, data)

struct TerminalResizeParams {
    static constexpr std::string_view op = op::terminal_resize;
    using Result = Empty;
    std::uint64_t id = 0;
    std::uint64_t cols = 80, rows = 24;
};
RIO_FIELDS(TerminalResizeParams, id, cols, rows)

// The client has shown `bytes` more of the output: the core reads the pty again once what
// is unshown drops below its window (flow control: a flood waits for the screen).
struct TerminalAckParams {
    static constexpr std::string_view op = op::terminal_ack;
    using Result = Empty;
    std::uint64_t id = 0;
    std::uint64_t bytes = 0;
};
RIO_FIELDS(TerminalAckParams, id, bytes)

// Hangs the terminal up (SIGHUP to what runs in it); terminal.exited follows.
struct TerminalCloseParams {
    static constexpr std::string_view op = op::terminal_close;
    using Result = Empty;
    std::uint64_t id = 0;
};
RIO_FIELDS(TerminalCloseParams, id)

// Output as the pty gave it, made UTF-8: a character split between two reads arrives whole in
// the later one, and bytes that are not UTF-8 come as U+FFFD each.
struct TerminalOutputEvent {
    static constexpr std::string_view event = event::terminal_output;
    std::uint64_t id = 0;
    std::string data;
};
RIO_FIELDS(TerminalOutputEvent, id, data)

struct TerminalExitedEvent {
    static constexpr std::string_view event = event::terminal_exited;
    std::uint64_t id = 0;
    std::optional<std::int64_t> code;   // exited with it
    std::optional<std::int64_t> signal; // killed by it
};
RIO_FIELDS(TerminalExitedEvent, id, code, signal)

} // namespace rio
