// rio-cli: the terminal frontend (DESIGN §9). Interactive by default; `-p TASK` (or a task
// on stdin) runs one task headless and exits with the codes of DESIGN §11.
#include "cli/headless.hpp"
#include "cli/interactive.hpp"
#include "cli/terminal_safe.hpp"
#include "client/core_link.hpp"
#include "core/version.hpp"
#include "io/user_dirs.hpp"

#include <CLI/CLI.hpp>
#include <asio/io_context.hpp>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <iterator>
#include <unistd.h>

namespace {

struct Options {
    std::string dir;
    std::vector<std::string> positional; // [DIR], or TASK [DIR] after a bare -p
    std::string project;
    std::string task;
    std::string mode;
    std::string approve_plans;
    bool approve_edits = false;
    bool allow_commands = false;
    bool trust_project = false;
    std::string output;
    std::string output_format;
    std::string provider;
    std::string model;
    std::string resume;
    bool continue_latest = false;
    std::string connect;
    std::string token;
};

} // namespace

int main(int argc, char** argv) {
    Options o;
    CLI::App app{
        "rio-cli: rio's terminal frontend. Interactive by default; -p runs one task "
        "without asking anyone (exit codes: 0 done, 2 plan filed and awaiting "
        "approval, 3 a gated action was rejected, 4 provider error, 10 a declared plan step "
        "not verified, 1 anything else).",
        "rio-cli"};
    app.set_version_flag("--version", std::string("rio-cli ") + rio::version_text);
    app.add_option("args", o.positional,
                   "DIR, the project folder (default: the current one); after a bare -p, "
                   "TASK [DIR] (`rio-cli -p --mode plan \"task\"`, as with claude -p)")
        ->expected(0, 2);
    app.add_option("--project", o.project, "project folder (same as DIR)");
    auto* print = app.add_option("-p,--print", o.task,
                                 "run this task headless and print the result (the task may "
                                 "also follow the flags, or come on stdin)")
                      ->expected(0, 1);
    app.add_option("--mode", o.mode,
                   "start in plan or build mode (default: default_mode in "
                   "~/.config/rio/config.json, else plan)")
        ->check(CLI::IsMember({"plan", "build"}));
    app.add_option("--approve-plans", o.approve_plans,
                   "headless: approve presented plans with this edit policy, or never")
        ->check(CLI::IsMember({"review", "auto", "never"}));
    app.add_flag("--approve-edits", o.approve_edits, "headless: apply the agent's edits");
    app.add_flag("--allow-commands", o.allow_commands, "headless: run the agent's commands");
    app.add_flag("--trust-project", o.trust_project,
                 "headless: trust the project as it is now: your allow-list applies in it, and "
                 "its own .rio/allow and .mcp.json (never done otherwise)");
    auto* output = app.add_option("--output", o.output,
                                  "headless output in rio's shapes: text, json (the result "
                                  "object) or events (rio's event stream, one JSON per line)")
                       ->check(CLI::IsMember({"text", "json", "events"}));
    app.add_option("--output-format", o.output_format,
                   "headless output in Claude Code's shapes: text, json or stream-json")
        ->check(CLI::IsMember({"text", "json", "stream-json"}))
        ->excludes(output);
    app.add_option("--model", o.model, "the model for this run (the saved choice stays)");
    auto* resume = app.add_option("-r,--resume", o.resume,
                                  "continue the saved conversation with this id (a plan it left "
                                  "waiting is proposed again: -p --resume ID --approve-plans auto "
                                  "carries it out)");
    app.add_flag("-c,--continue", o.continue_latest,
                 "continue this project's most recent conversation")
        ->excludes(resume);
    app.add_option("--provider", o.provider, "provider for a private core (see rio-core --help)");
    app.add_option("--connect", o.connect,
                   "use a running core at unix:PATH or HOST:PORT, or start one on another "
                   "machine over ssh: ssh://[user@]host[:port]/absolute/path (exit codes: 5 "
                   "host unknown or unreachable, 6 login refused, 7 host key unknown or "
                   "changed, 8 no rio-core there, 9 its protocol differs)");
    app.add_option("--token", o.token,
                   "with --connect HOST:PORT: the core's token (default: read from the file "
                   "rio-core wrote in $XDG_RUNTIME_DIR/rio)");
    try {
        app.parse(argc, argv);
    } catch (const CLI::Success& e) { // --help, --version
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e); // prints the reason
        return rio::exit_other;
    }

    // `-p TASK [DIR]`, or a bare `-p` with the task among the arguments.
    const bool bare_print = print->count() > 0 && o.task.empty();
    if (bare_print && !o.positional.empty()) {
        o.task = o.positional.front();
        o.positional.erase(o.positional.begin());
    }
    if (o.positional.size() > 1) {
        std::cerr << "rio-cli: one project folder, not " << o.positional.size()
                  << " (a task goes after -p)\n";
        return rio::exit_other;
    }
    if (!o.positional.empty()) o.dir = o.positional.front();

    std::signal(SIGPIPE, SIG_IGN);
    bool headless = print->count() > 0 || !o.task.empty() || ::isatty(0) != 1;
    const bool resuming = !o.resume.empty() || o.continue_latest;
    // A resumed session may have its work waiting already: then there need be no task.
    if (headless && o.task.empty() && !(resuming && ::isatty(0) == 1)) {
        o.task.assign(std::istreambuf_iterator<char>(std::cin), {});
        if (o.task.find_first_not_of(" \t\r\n") == std::string::npos) {
            o.task.clear();
            if (!resuming) {
                std::cerr << "rio-cli: no task: give one with -p or on stdin\n";
                return rio::exit_other;
            }
        }
    }
    std::string project = !o.project.empty() ? o.project : !o.dir.empty() ? o.dir : ".";
    // ssh://: a private core on another machine, started with this run's core options.
    std::optional<rio::client::RemoteAddress> remote;
    if (rio::client::is_remote_spec(o.connect)) {
        auto parsed = rio::client::parse_remote_address(o.connect);
        if (!parsed) {
            std::cerr << "rio-cli: " << rio::shown(parsed.error().message) << "\n";
            return rio::exit_other;
        }
        if (!o.project.empty() || !o.dir.empty()) {
            std::cerr << "rio-cli: with --connect ssh://… the project is the folder in the "
                         "address, not a local one\n";
            return rio::exit_other;
        }
        if (!o.token.empty()) {
            std::cerr << "rio-cli: --token is for --connect HOST:PORT; ssh logs in itself\n";
            return rio::exit_other;
        }
        remote = *parsed;
    }
    if (!o.connect.empty() && !remote && !o.model.empty()) {
        std::cerr << "rio-cli: --model chooses the model of a core rio-cli starts; a shared core "
                     "(--connect) keeps its own (agent.options.set changes it for everyone)\n";
        return rio::exit_other;
    }

    asio::io_context io;
    auto link = [&]() -> rio::Result<std::unique_ptr<rio::client::CoreLink>> {
        if (remote) {
            rio::client::RemoteLaunch launch = rio::client::configured_remote_launch(
                rio::find_user_dirs("/proc/self/exe").settings_file().string());
            launch.provider = o.provider;
            launch.model = o.model;
            launch.mode = o.mode;
            launch.batch = true; // rio-cli never lets ssh ask (decision 0060)
            // The far side's stderr is text from outside: terminal-safe, its lines kept.
            return rio::client::CoreLink::ssh(
                io, *remote, launch, "rio-cli", [](std::string_view line) {
                    std::cerr << rio::md::terminal_safe(line, rio::md::Whitespace::block)
                              << std::flush;
                });
        }
        if (!o.connect.empty()) return rio::client::CoreLink::connect(io, o.connect, o.token);
        std::vector<std::string> args{"--stdio", "--project", project};
        if (!o.provider.empty()) args.insert(args.end(), {"--provider", o.provider});
        if (!o.model.empty()) args.insert(args.end(), {"--model", o.model});
        if (!o.mode.empty()) args.insert(args.end(), {"--mode", o.mode});
        return rio::client::CoreLink::spawn(io, rio::client::find_core_binary(), args);
    }();
    if (!link) {
        std::cerr << "rio-cli: " << rio::shown(link.error().message) << "\n";
        return rio::exit_other;
    }
    rio::client::CoreLink& core = **link;
    if (!o.connect.empty() && !remote && (!o.project.empty() || !o.dir.empty()))
        core.call(
            rio::ProjectOpenParams{std::filesystem::absolute(project).string(), std::nullopt});

    int code = rio::exit_other;
    auto finish = [&](int c) {
        code = c;
        // An ssh link that failed before its far core answered: its own code (decision 0060).
        if (auto failure = core.failure()) code = rio::remote_exit_code(failure->kind);
        core.close();
    };
    rio::Terminal out = rio::detect_terminal(1), err = rio::detect_terminal(2);
    std::unique_ptr<rio::HeadlessRun> run;
    std::unique_ptr<rio::InteractiveSession> session;
    if (headless) {
        rio::HeadlessOptions h;
        h.task = o.task;
        if (!o.mode.empty()) h.mode = o.mode;
        if (!o.approve_plans.empty()) h.approve_plans = o.approve_plans;
        h.approve_edits = o.approve_edits;
        h.allow_commands = o.allow_commands;
        using Out = rio::HeadlessOutput;
        h.output = o.output == "json"                 ? Out::json
                   : o.output == "events"             ? Out::events
                   : o.output_format == "json"        ? Out::claude_json
                   : o.output_format == "stream-json" ? Out::claude_stream
                                                      : Out::text;
        if (resuming) h.resume = o.resume;
        h.shared_core = !o.connect.empty() && !remote;
        if (remote) h.remote = o.connect;
        h.trust_project = o.trust_project;
        run = std::make_unique<rio::HeadlessRun>(io, core, h, out, err);
        run->start(finish);
    } else {
        session = std::make_unique<rio::InteractiveSession>(io, core, out);
        if (remote) session->set_remote(o.connect);
        // A shared core keeps its mode unless one is asked for; a private one started in it.
        if (!o.mode.empty() && !o.connect.empty() && !remote) core.call(rio::ModeSetParams{o.mode});
        session->start(finish, resuming ? std::optional<std::string>(o.resume) : std::nullopt);
    }
    io.run();
    return code;
}
