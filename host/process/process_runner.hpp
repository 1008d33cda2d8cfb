// rio's own process runner, behind the agent's run_command tool: no shell, one session (and
// process group) per command, a timeout, and the command's whole tree killed on stop —
// what left the group or daemonized too (host/child_processes). Boost.Process was measured
// and rejected: it deadlocks on large output and kills only the child, so grandchildren
// outlive the command and hold its output pipe open.
#pragma once

#include "host/sandbox/sandbox_policy.hpp"

#include <asio/io_context.hpp>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rio {

struct CommandSpec {
    std::vector<std::string> argv; // argv[0] is looked up on PATH; never run through a shell
    std::filesystem::path cwd;     // must exist
    std::chrono::milliseconds timeout{120'000};
    // Between SIGTERM and SIGKILL on timeout or cancel: time for the command to clean up.
    std::chrono::milliseconds kill_grace{2'000};
    std::size_t output_cap = 64 * 1024; // stdout+stderr bytes kept: the first and last halves
    // "NAME=value" entries; nullopt inherits this process's environment.
    std::optional<std::vector<std::string>> env;
    // Run in the sandbox (DESIGN §19), with a private TMPDIR made here (the policy's tmpdir)
    // and removed once the command's tree is gone. With hosts in the policy, the proxy they
    // are reached through runs here too, on `io`, for as long as the command does (issue 45). A
    // sandbox that cannot be entered is an error (`started` false), never a command run without it.
    std::optional<SandboxPolicy> sandbox;
};

struct CommandResult {
    bool started = false; // false: the command never ran, see `error`
    std::string error;    // e.g. "no such program: frobnicate"
    int exit_code = -1;   // when it exited normally
    int signal = 0;       // the signal that ended it, otherwise 0
    bool timed_out = false;
    bool cancelled = false;
    // stdout and stderr interleaved as produced. Past the cap, the head and the tail joined
    // by "\n[... N bytes omitted ...]\n", cut on character boundaries. Invalid UTF-8 becomes
    // U+FFFD, which can make this somewhat longer than output_cap.
    std::string output;
    std::size_t output_bytes = 0; // everything the command wrote, kept or not
    // A sandbox limit the command ran into, in words with the setting that changes it ("it
    // used more than the 2 GiB memory limit (sandbox.memory in config.json)"); "" for none.
    std::string limit;
    std::chrono::milliseconds elapsed{0};
    // A command allowed some hosts only (issue 45): it reached the network through rio's
    // proxy alone, which refused these ("evil.example (not among the allowed hosts)").
    bool proxied = false;
    std::vector<std::string> refused_hosts;
};

class RunningCommand {
public:
    virtual ~RunningCommand() = default;
    // SIGTERM to the command's whole tree, SIGKILL after kill_grace. Call on io's thread. Does
    // nothing once the command has exited, was already stopped, or never started.
    virtual void cancel() = 0;
};

// Starts the command on `io`. `done` runs exactly once, on io's thread and never from inside
// start_command, after the command has exited and its output has been read to the end (or,
// if something that escaped the process group still holds the output open, shortly after).
// Dropping the handle does not stop the command. Destroying `io` with the command still
// running kills its group and reaps it.
std::shared_ptr<RunningCommand> start_command(asio::io_context& io, CommandSpec spec,
                                              std::function<void(CommandResult)> done);

} // namespace rio
