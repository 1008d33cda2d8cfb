// rio-core: the UI-less core. Serves the protocol on stdio and/or sockets (DESIGN §1, §11).
#include "core/dispatch.hpp"
#include "core/version.hpp"
#include "core/workspace.hpp"
#include "host/files/files.hpp"
#include "host/http/http_client.hpp"
#include "host/lsp/lsp_servers.hpp"
#include "host/process/child_processes.hpp"
#include "host/sandbox/sandbox_probe.hpp"
#include "host/server/client_gate.hpp"
#include "host/server/editor_reader.hpp"
#include "host/server/server.hpp"
#include "host/store/command_settings.hpp"
#include "host/store/default_mode.hpp"
#include "host/store/redact.hpp"
#include "host/store/sandbox_setting.hpp"
#include "host/store/secrets.hpp"
#include "host/store/shipped_prompts.hpp"
#include "host/terminal/terminals.hpp"
#include "io/exit_deadline.hpp"
#include "ops/agent_ops.hpp"
#include "ops/ops.hpp"
#include "ops/project_access.hpp"
#include "ops/project_watch.hpp"
#include "providers/registry.hpp"

#include <CLI/CLI.hpp>
#include <asio/io_context.hpp>
#include <asio/signal_set.hpp>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <string>
#include <vector>

namespace {

struct Options {
    bool stdio = false;
    std::vector<std::string> listen;
    bool listen_any = false;
    std::string project;
    std::string provider;
    std::string model;
    std::string mode;
    double exit_deadline_s = 0.9;
};

int fail(const std::string& message) {
    std::fprintf(stderr, "rio-core: %s\n", message.c_str());
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    // Before anything starts a child: no command may find a key in its parent's environment.
    rio::take_key_variables(rio::ProviderRegistry::key_variables());
    Options options;
    CLI::App app{"rio-core: the rio editor's core. Speaks rio's JSON-lines protocol "
                 "(docs/protocol.md) on stdio or on sockets.",
                 "rio-core"};
    app.set_version_flag("--version", std::string("rio-core ") + rio::version_text);
    app.add_flag("--stdio", options.stdio,
                 "serve one client on stdin/stdout (the default without --listen)");
    app.add_option("--listen", options.listen,
                   "serve clients on unix:PATH or HOST:PORT (loopback only; repeatable)");
    app.add_flag("--listen-any", options.listen_any,
                 "allow --listen on a non-loopback address (anyone who reaches it can drive "
                 "the agent)");
    app.add_option("--project", options.project, "open this folder as the project at start");
    app.add_option("--provider", options.provider,
                   "the model provider: anthropic, openai, echo (offline) or script:FILE; also "
                   "RIO_PROVIDER. Default: the configured one, else by API key, else a local "
                   "Ollama, else echo");
    app.add_option("--model", options.model,
                   "the model for this run (the provider's model option is left as saved)");
    app.add_option("--mode", options.mode,
                   "the mode to start in, plan or build. Default: default_mode in "
                   "$XDG_CONFIG_HOME/rio/config.json, else plan")
        ->check(CLI::IsMember({"plan", "build"}));
    app.add_option("--exit-deadline", options.exit_deadline_s,
                   "once asked to exit (its stdin closed, SIGTERM), how many seconds the core "
                   "waits for what still runs, such as a command that ignores SIGTERM, before "
                   "it exits anyway; it exits at once when nothing runs")
        ->check(CLI::Range(0.0, 3600.0))
        ->capture_default_str();
    CLI11_PARSE(app, argc, argv);

    std::signal(SIGPIPE, SIG_IGN); // a vanished client is a write error, not a crash
    // The sandbox probe has a throwaway child try a mount namespace (3-7 ms, most of it the
    // namespace's teardown): it runs while the core opens the project and its services, and
    // is waited for where the agent is told. The child makes only system calls.
    std::future<rio::SandboxSupport> sandbox_support =
        std::async(std::launch::async, rio::probe_sandbox);

    rio::UserDirs dirs = rio::find_user_dirs("/proc/self/exe");
    if (auto missing = rio::missing_shipped_prompts(dirs)) {
        std::fprintf(stderr, "rio-core: %s\n", missing->c_str());
        return 1;
    }
    // A core killed while saving left its temporary file beside the file it was saving.
    rio::remove_stale_temp_files(dirs.write_journal());

    rio::Workspace workspace;
    if (!options.project.empty()) {
        auto root = rio::project_root(options.project);
        if (!root) return fail(root.error().message);
        if (rio::Status s = rio::open_project(workspace, *root, dirs.write_journal()); !s)
            return fail(s.error().message);
    }

    asio::io_context io;
    // Orphans of the agent's commands come to the core, which kills them with the command.
    if (rio::Status s = asio::use_service<rio::ChildProcesses>(io).become_subreaper(); !s)
        std::fprintf(stderr, "rio-core: %s; a command's daemons may outlive it\n",
                     s.error().message.c_str());
    rio::HttpClient http(io);
    rio::ProviderRegistry providers(io, http, dirs);
    if (options.provider.empty())
        if (const char* env = std::getenv("RIO_PROVIDER"); env && *env) options.provider = env;
    if (rio::Status s = options.provider.empty()
                            ? providers.select_default()
                            : providers.select(options.provider, /*remember=*/false);
        !s)
        return fail(s.error().message);
    if (!options.model.empty()) providers.use_model(options.model);

    rio::Dispatcher dispatcher;
    rio::Server server(io, dispatcher);
    server.set_filter([&providers](std::string& line) { rio::redact(line, providers.secrets()); });
    // A reply streams as fast as the fastest client reads it, no faster.
    http.hold_while([&server] { return server.readers_behind(); });
    server.on_reader_caught_up([&http] { http.readers_caught_up(); });
    rio::McpServers mcp(io, http, dirs, workspace, server.emitter(),
                        rio::ProviderRegistry::key_variables());
    // Language servers follow the buffers and the project through the events the core emits.
    rio::LspServers lsp(io, dirs, workspace, server.emitter());
    // What other programs change in the project; the core's own writes are told apart.
    rio::ProjectWatch watch(io, workspace, lsp.observing(server.emitter()));
    rio::EditorReader editor(io, server.emitter());
    rio::Terminals terminals(io, workspace, server.emitter());
    rio::AgentRuntime agent(io, workspace, watch.emitter(), providers, dirs, mcp, editor, &lsp);
    const rio::StartMode start = options.mode.empty()
                                     ? rio::configured_mode(dirs)
                                     : rio::StartMode{*rio::from_wire<rio::Mode>(options.mode), ""};
    if (!start.warning.empty()) std::fprintf(stderr, "rio-core: %s\n", start.warning.c_str());
    agent.start_in(start.mode);
    const rio::SandboxSetting sandbox = rio::configured_sandbox(dirs);
    if (!sandbox.warning.empty()) std::fprintf(stderr, "rio-core: %s\n", sandbox.warning.c_str());
    agent.sandbox_commands(sandbox_support.get(), sandbox);
    if (const char* home = std::getenv("HOME"); home && *home == '/')
        if (auto commands = rio::configured_commands(dirs, home); !commands.warning.empty())
            std::fprintf(stderr, "rio-core: %s\n", commands.warning.c_str());
    rio::OpContext context{workspace,
                           watch.emitter(),
                           dirs,
                           [&watch, &agent] {
                               watch.follow();
                               agent.project_changed();
                           },
                           [&mcp] { mcp.reload(); },
                           &io};
    context.project_leaving = [&agent] { agent.leave_project(); };
    server.on_client_closed([&editor, &context, &terminals](rio::ClientId client) {
        editor.client_closed(client);
        terminals.client_closed(client);
        context.client_names.erase(client);
    });
    context.waiting_for_trust = [&lsp, &mcp](rio::ProjectTrustState& state) {
        state.language_servers = lsp.waiting_for_trust();
        state.mcp_servers = mcp.waiting_for_trust();
    };
    rio::register_all_ops(dispatcher, context, agent, mcp, editor, lsp, terminals);
    // A power-granting file changed (by the agent, a save, a `git pull`): trust follows now; a
    // file the approved plan names changed by something else: drift, said now.
    watch.on_changed([&context, &agent](const std::vector<std::string>& paths) {
        rio::paths_changed(context, paths);
        agent.files_changed(paths);
    });
    watch.follow();
    mcp.reload();
    lsp.reload();

    asio::signal_set signals(io, SIGTERM, SIGINT, SIGHUP);
    rio::ExitDeadline deadline(io);
    auto stop = [&] {
        deadline.arm(std::chrono::milliseconds(std::llround(options.exit_deadline_s * 1000)));
        // A turn in flight holds a connection or a command open, the watcher its pending
        // read; end them so the loop can end too.
        agent.shutdown();
        mcp.shutdown();
        lsp.shutdown();
        terminals.shutdown();
        watch.stop();
        server.shutdown();
        signals.cancel();
        asio::use_service<rio::ChildProcesses>(io).stop_reaping();
    };
    signals.async_wait([&](std::error_code ec, int) {
        if (!ec) stop();
    });

    std::vector<std::filesystem::path> token_files;
    for (const std::string& spec : options.listen) {
        auto address = rio::parse_listen_address(spec, options.listen_any);
        if (!address) return fail(address.error().message);
        // DESIGN §12: any local process or web page reaches a TCP port; only a client that
        // can read this owner-only file may drive the core.
        std::string token = address->unix_socket ? std::string() : rio::random_token();
        auto bound = server.listen(*address, token);
        if (!bound) return fail(bound.error().message);
        std::string note;
        if (!token.empty()) {
            auto file = dirs.token_file(bound->host, bound->port);
            if (rio::Status s = rio::write_private_file(file, token + "\n", file.string()); !s)
                return fail(s.error().message);
            token_files.push_back(file);
            note = " (token in " + file.string() + ")";
        }
        // Clients and tests wait for this line; it carries the real port for port 0.
        std::fprintf(stderr, "rio-core: listening on %s%s\n", rio::to_string(*bound).c_str(),
                     note.c_str());
    }
    if (options.stdio || options.listen.empty()) server.serve_stdio(stop);

    io.run();
    for (const auto& file : token_files)
        std::filesystem::remove(file);
    return 0;
}
