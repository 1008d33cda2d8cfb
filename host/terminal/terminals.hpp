// The person's own shells on ptys the core owns (issue 47, decision 0093): the frontends'
// terminal panel, local or over ssh, where the project is. Each is $SHELL (else the login
// shell, else /bin/sh) in the project folder, as the person — no sandbox, no agent, no
// rio variables. Output goes out as terminal.output events, at most `window` bytes ahead of
// what the opening client has acknowledged: past it the pty is not read, so a flood waits for
// the screen (and for the kernel's pty buffer, the program) and neither the core nor a client
// holds more than that. A terminal ends with its client (hung up when the client goes) and
// with the core.
#pragma once

#include "core/dispatch.hpp"
#include "core/workspace.hpp"
#include "protocol/core_event.hpp"

#include <asio/io_context.hpp>
#include <map>
#include <memory>

namespace rio {

class Terminals {
public:
    static constexpr std::size_t window = 256 * 1024;
    static constexpr std::size_t max_open = 32;

    Terminals(asio::io_context& io, const Workspace& workspace, Emit emit);
    ~Terminals();
    Terminals(const Terminals&) = delete;
    Terminals& operator=(const Terminals&) = delete;

    Result<TerminalOpenResult> open(ClientId client, const TerminalOpenParams& params);
    Status input(const TerminalInputParams& params);
    Status resize(const TerminalResizeParams& params);
    Status ack(const TerminalAckParams& params);
    Status close(const TerminalCloseParams& params);

    void client_closed(ClientId client); // its terminals are hung up
    void shutdown();                     // every terminal hung up, none opened again

    struct Shell;

private:
    Result<std::shared_ptr<Shell>> find(std::uint64_t id) const;
    void read(const std::shared_ptr<Shell>& shell);
    void await_exit(const std::shared_ptr<Shell>& shell);
    void finish(const std::shared_ptr<Shell>& shell);

    asio::io_context& io_;
    const Workspace& workspace_;
    Emit emit_;
    std::map<std::uint64_t, std::shared_ptr<Shell>> shells_;
    std::uint64_t next_id_ = 1;
    bool stopped_ = false;
};

} // namespace rio
