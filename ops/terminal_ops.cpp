// terminal.*: the person's own shells on ptys the core owns (host/terminal).
#include "host/terminal/terminals.hpp"
#include "ops/ops.hpp"

namespace rio {

void register_terminal_ops(Dispatcher& dispatcher, Terminals& terminals) {
    dispatcher.on_client<TerminalOpenParams>(
        [&terminals](const TerminalOpenParams& p, ClientId client) {
            return terminals.open(client, p);
        });
    dispatcher.on<TerminalInputParams>([&terminals](const TerminalInputParams& p) -> Result<Empty> {
        if (Status s = terminals.input(p); !s) return s.error();
        return Empty{};
    });
    dispatcher.on<TerminalResizeParams>(
        [&terminals](const TerminalResizeParams& p) -> Result<Empty> {
            if (Status s = terminals.resize(p); !s) return s.error();
            return Empty{};
        });
    dispatcher.on<TerminalAckParams>([&terminals](const TerminalAckParams& p) -> Result<Empty> {
        if (Status s = terminals.ack(p); !s) return s.error();
        return Empty{};
    });
    dispatcher.on<TerminalCloseParams>([&terminals](const TerminalCloseParams& p) -> Result<Empty> {
        if (Status s = terminals.close(p); !s) return s.error();
        return Empty{};
    });
}

} // namespace rio
