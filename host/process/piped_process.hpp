// A long-running child spoken to over pipes: what an MCP server over stdio (lines) or a
// language server (Content-Length framed messages) is. Started like every child of rio
// (host/spawn: no shell, own session, nothing inherited), registered with
// host/child_processes so its whole tree ends with it. stdout is read as '\n'-terminated
// lines of bounded length, or handed on as it comes; the end of stderr is kept for error
// messages.
#pragma once

#include "protocol/error.hpp"

#include <asio/io_context.hpp>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

namespace rio {

struct PipedSpec {
    std::vector<std::string> argv; // argv[0] is looked up on PATH
    std::filesystem::path cwd;
    std::optional<std::vector<std::string>> env;  // "NAME=value"; nullopt inherits
    std::size_t max_line = std::size_t{10} << 20; // a longer stdout line ends the process
    std::size_t stderr_tail = 4096;
    std::chrono::milliseconds kill_grace{2'000}; // stop: SIGTERM, then SIGKILL after this
};

struct PipedExit {
    int exit_code = -1;         // when it exited normally
    int signal = 0;             // the signal that ended it, otherwise 0
    bool stopped = false;       // by stop()
    bool line_too_long = false; // it wrote a stdout line past max_line, and was killed
    std::string stderr_tail;    // the last bytes it wrote to stderr
};

// Says in words how it ended: "exited with code 1", "was killed by signal 9", ….
std::string exit_words(const PipedExit& exit);

class PipedProcess {
public:
    virtual ~PipedProcess() = default;
    // Queued and written in order; dropped once stdin is closed.
    virtual void write_line(std::string line) = 0;
    virtual void write(std::string bytes) = 0; // as they are, no '\n' added
    // The last bytes it wrote to stderr so far (at most PipedSpec::stderr_tail).
    virtual const std::string& stderr_tail() const = 0;
    // Closes stdin and ends the process's tree: SIGTERM, SIGKILL after kill_grace. on_exit
    // still comes, with `stopped`.
    virtual void stop() = 0;
    // Neither callback is called again: for an owner going away. Does not stop the process.
    virtual void forget() = 0;
    virtual pid_t pid() const = 0;
};

struct PipedHandlers {
    std::function<void(std::string line)> on_line; // without the '\n' (and a trailing '\r')
    std::function<void(PipedExit)> on_exit;        // once, after the last line
    // When set, stdout is handed on as it is read, whatever it holds, and on_line is unused.
    std::function<void(std::string_view bytes)> on_bytes = {};
};

// Callbacks run on io's thread, never from inside start_piped. Destroying `io` with the
// process running kills its group and reaps it.
Result<std::shared_ptr<PipedProcess>> start_piped(asio::io_context& io, PipedSpec spec,
                                                  PipedHandlers handlers);

} // namespace rio
