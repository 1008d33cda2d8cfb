// rio-acp: rio as an Agent Client Protocol agent (DESIGN §15), for editors that start
// agents over stdio (Zed, JetBrains, Neovim). JSON-RPC lines on stdin/stdout; each ACP
// session gets its own rio-core, or all share one (--connect).
#include "acp/bridge.hpp"
#include "client/core_link.hpp"
#include "core/version.hpp"
#include "io/channel.hpp"
#include "io/user_dirs.hpp"

#include <CLI/CLI.hpp>
#include <asio/io_context.hpp>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <unistd.h>

namespace {

// The SDK's own limit on one message.
constexpr std::size_t max_acp_line = 32u * 1024 * 1024;

} // namespace

int main(int argc, char** argv) {
    rio::acp::BridgeOptions options;
    CLI::App app{"rio-acp: rio's plan mode inside editors that speak the Agent Client Protocol "
                 "(Zed, JetBrains, Neovim). Speaks ACP v1 on stdin/stdout; starts one rio-core "
                 "per session in the session's folder, or shares a running one (--connect).",
                 "rio-acp"};
    app.set_version_flag("--version", std::string("rio-acp ") + rio::version_text);
    app.add_option("--provider", options.provider,
                   "the model for each session's rio-core (see rio-core --help; default: "
                   "$RIO_PROVIDER, else the core's own)");
    app.add_option("--connect", options.connect,
                   "share the running core at unix:PATH or HOST:PORT instead of starting one; "
                   "or ssh://[user@]host[:port]/absolute/path: start each session's core on "
                   "that machine, in that folder, over ssh (never prompting)");
    app.add_option("--token", options.token,
                   "with --connect HOST:PORT: the core's token (default: read from the file "
                   "rio-core wrote in $XDG_RUNTIME_DIR/rio)");
    app.add_option("--core", options.core_binary,
                   "the rio-core to start (default: the one beside rio-acp, else PATH's)");
    try {
        app.parse(argc, argv);
    } catch (const CLI::Success& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    }
    if (options.provider.empty())
        if (const char* env = std::getenv("RIO_PROVIDER")) options.provider = env;
    if (options.core_binary.empty()) options.core_binary = rio::client::find_core_binary();
    if (rio::client::is_remote_spec(options.connect)) {
        auto remote = rio::client::parse_remote_address(options.connect);
        if (!remote) {
            std::cerr << "rio-acp: " << remote.error().message << "\n";
            return 1;
        }
        options.remote = *remote;
        rio::client::RemoteLaunch& launch = options.remote_launch;
        launch = rio::client::configured_remote_launch(
            rio::find_user_dirs("/proc/self/exe").settings_file().string());
        launch.provider = options.provider;
        launch.mode = "build"; // DESIGN §15: an ACP session starts in Review
        launch.batch = true;   // an editor's agent has no terminal to ask on
    }
    options.version = rio::version;

    std::signal(SIGPIPE, SIG_IGN); // a vanished editor is a write error, not a crash
    asio::io_context io;
    std::shared_ptr<rio::Channel> editor;
    rio::acp::Bridge bridge(io, options, [&editor](std::string line) {
        if (editor) editor->send(std::move(line));
    });
    rio::Channel::Hooks hooks;
    hooks.on_frame = [&bridge, &editor](rio::Channel&, const rio::Frame& frame) {
        if (frame.oversize) {
            editor->send(rio::acp::line_of(rio::jsonrpc::error(
                nullptr, {rio::jsonrpc::code::invalid_request,
                          "Invalid request: a message of " + std::to_string(frame.oversize) +
                              " bytes is over the limit of 32 MiB",
                          nullptr})));
            return;
        }
        bridge.take(frame.line);
    };
    hooks.on_closed = [&bridge, &io](rio::Channel&) {
        bridge.client_gone();
        io.stop();
    };
    editor =
        std::make_shared<rio::Channel>(io, ::dup(0), ::dup(1), 0, max_acp_line, std::move(hooks));
    editor->start();
    io.run();
    return 0;
}
