#include "cli/interactive.hpp"

#include "cli/resume.hpp"
#include "cli/state_dir.hpp"
#include "cli/terminal_safe.hpp"
#include "client/remote_address.hpp"
#include "client/trust_question.hpp"
#include "text/trim.hpp"

#include <filesystem>
#include <iostream>
#include <unistd.h>
#include <utility>

namespace rio {
namespace {

// What Tab completes at the start of a line.
const std::vector<std::string> command_names = {
    "/plan",  "/plans", "/steps",    "/check",  "/sessions", "/review", "/auto",     "/build",
    "/stop",  "/clear", "/compact",  "/status", "/undo",     "/output", "/provider", "/key",
    "/model", "/mcp",   "/problems", "/diff",   "/help",     "/quit",   "/exit"};

std::filesystem::path history_file() {
    auto dir = cli_state_dir();
    return dir ? *dir / "history" : std::filesystem::path();
}

} // namespace

InteractiveSession::InteractiveSession(asio::io_context& io, client::CoreLink& link, Terminal out)
    : link_(link), out_(out), stdin_(io, ::dup(0)), signals_(io, SIGINT),
      lines_(
          io,
          [this] {
              input_ = Input::none; // the prompt is gone already
              interrupt();
          },
          history_file(), command_names),
      spinner_(io, out.tty, out.color) {}

InteractiveSession::~InteractiveSession() {
    stop_input();
}

void InteractiveSession::start(std::function<void(int)> finish, std::optional<std::string> resume) {
    finish_ = std::move(finish);
    link_.on_event([this](const client::CoreEvent& event) { on_event(event); });
    link_.on_lost([this](const std::string& why) {
        if (done_) return;
        print("rio-cli: " + shown(why));
        // A far core that had answered keeps its conversation in its session file.
        if (!remote_.empty() && !link_.failure())
            print("rio-cli: " + shown(client::far_resume_hint(remote_)));
        quit(1);
    });
    wait_for_signal();
    HelloParams hello;
    hello.client = "rio-cli";
    link_.call(hello, [this, resume](const client::Typed<HelloParams>& r) {
        if (r && r->root) root_ = *r->root;
        // The banner first: a resumed session's pending proposal asks right after "Resumed".
        greet([this, resume] {
            if (!resume) return ask_trust_then_prompt();
            resume_session(link_, *resume, [this](const Result<SessionResumeResult>& resumed) {
                if (!resumed) {
                    print("rio-cli: " + shown(resumed.error().message));
                    return quit(1);
                }
                if (resumed->warning)
                    print(styled(shown(*resumed->warning), sgr::yellow, out_.color));
                print("Resumed “" + shown(resumed->session.title) + "” · " +
                      std::to_string(resumed->messages) + " messages · session " +
                      shown(resumed->session.id));
                ask_trust_then_prompt();
            });
        });
    });
}

void InteractiveSession::greet(std::function<void()> then) {
    link_.call(StatusParams{}, [this, then](const client::Typed<StatusParams>& status) {
        if (status) session_.apply_status(*status);
        const client::SessionState& s = session_.state();
        print(styled("rio", sgr::bold, out_.color) + " · " + shown(s.provider) + " · " +
              shown(s.model) + (root_.empty() ? "" : " · " + shown(root_)) +
              "\nType a task, or /help.");
        if (s.provider == "echo")
            print(styled("echo only repeats what you type. To connect a model: /provider "
                         "anthropic (or openai), then /key.",
                         sgr::dim, out_.color));
        then();
    });
}

// DESIGN §12: nothing of a project grants the agent power until the user says so, in words,
// once per version of its files; the answer names what was shown (a change meanwhile asks
// again).
void InteractiveSession::ask_trust_then_prompt() {
    if (root_.empty()) return prompt();
    link_.call(ProjectTrustGetParams{}, [this](const client::Typed<ProjectTrustGetParams>& trust) {
        if (!trust || !client::trust_matters(*trust)) return prompt();
        std::string what;
        for (const std::string& reason : client::trust_reasons(*trust))
            what += shown(reason) + "\n";
        print(styled(what, sgr::yellow, out_.color) + "None of this applies until you trust it.");
        ask_line("Trust this project? [y/N] ", [this, shown_now = *trust](std::string answer) {
            answer = std::string(trimmed(answer));
            if (answer != "y" && answer != "Y" && answer != "yes") {
                print("Not trusted: commands ask first, its files grant nothing, and no "
                      "language or MCP server of yours starts here.");
                return prompt();
            }
            link_.call(client::trust_answer(shown_now),
                       [this](const client::Typed<ProjectTrustSetParams>& typed) {
                           const client::Reply set = client::reply_of(typed);
                           if (set.ok()) {
                               print("Trusted as it is now; a change to its files asks again.");
                               return prompt();
                           }
                           print("rio-cli: " + shown(set.error->message));
                           // Changed since it was shown: ask about what it is now.
                           if (set.error->code == ErrorCode::conflict)
                               return ask_trust_then_prompt();
                           prompt();
                       });
        });
    });
}

void InteractiveSession::wait_for_signal() {
    signals_.async_wait([this](std::error_code ec, int) {
        if (ec || done_) return;
        interrupt();
        if (!done_) wait_for_signal();
    });
}

void InteractiveSession::on_event(const client::CoreEvent& event) {
    const bool was_busy = session_.state().busy || sending_;
    const bool was_pending = session_.state().pending.has_value();
    session_.apply(event);
    activity_.apply(event);
    if (!activity_.words().empty()) spinner_.activity(activity_.words());
    if (std::holds_alternative<AgentStatus>(event)) {
        if (!session_.state().busy) sending_ = false;
        if (was_busy && !session_.state().busy) {
            // A turn ended (done, stopped, reset): back to the prompt unless a question is up.
            end_answer();
            spinner_.hide();
            if (std::string line = turn_summary(); !line.empty())
                print(styled(line, sgr::dim, out_.color));
            quiet_keys_.reset();
            stopping_ = false;
            if (input_ == Input::none && !done_) prompt();
        }
        return;
    }
    if (auto* decided = std::get_if<DecidedEvent>(&event)) {
        if (was_pending && !session_.state().pending && input_ != Input::none) {
            stop_input();
            print("(" + shown(decided->decision.name()) + "d elsewhere)");
        }
        return;
    }
    show(event);
    busy_line();
}

void InteractiveSession::report(const client::Reply& reply) {
    if (!reply.ok()) print("rio-cli: " + shown(reply.error->message));
}

void InteractiveSession::on_line(const std::string& raw) {
    std::string line(trimmed(raw));
    if (line.empty()) return prompt();
    if (line.front() == '/') return command(line);
    send(line);
}

void InteractiveSession::send(const std::string& text) {
    sending_ = true;
    if (out_.tty && ::isatty(0)) quiet_keys_.emplace(0); // where Ctrl+C is typed
    spinner_.begin_turn();
    busy_line();
    session_.sent(text);
    link_.call(SendParams{text}, [this](const client::Typed<SendParams>& r) {
        if (r) return;
        sending_ = false;
        spinner_.hide();
        quiet_keys_.reset();
        print("rio-cli: " + shown(r.error().message));
        prompt();
    });
}

// Responses come before the events they cause, so the prompt's mode label is taken from
// the response itself.
void InteractiveSession::then_prompt(const client::Reply& r) {
    report(r);
    if (r.ok() && r.result.is_object()) {
        if (auto mode = r.result.find("mode"); mode != r.result.end() && mode->is_string())
            session_.apply(ModeEvent{mode->get<std::string>()});
        if (auto on = r.result.find("on"); on != r.result.end() && on->is_boolean())
            session_.apply_auto_accept(on->get<bool>());
    }
    prompt();
}

void InteractiveSession::interrupt() {
    auto now = std::chrono::steady_clock::now();
    bool twice = now - last_interrupt_ < std::chrono::seconds(2);
    last_interrupt_ = now;
    if (session_.state().busy || sending_ || session_.state().pending) {
        if (stopping_) return; // said once; the stop is on its way
        stopping_ = true;
        stop_input();
        print(styled("stopping…", sgr::dim, out_.color));
        link_.call(StopParams{session_.state().turn});
        return;
    }
    if (twice) return quit(0);
    stop_input();
    print(styled("(Ctrl+C again to quit)", sgr::dim, out_.color));
    prompt();
}

void InteractiveSession::quit(int code) {
    if (done_) return;
    done_ = true;
    stop_input();
    spinner_.hide();
    quiet_keys_.reset();
    signals_.cancel();
    std::cout << std::flush;
    finish_(code);
}

void InteractiveSession::prompt() {
    if (done_ || session_.state().busy || sending_) return;
    LineInput::ReadOptions options;
    options.typed = std::exchange(typed_ahead_, {});
    options.on_shift_tab = [this](std::string typed) {
        input_ = Input::none;
        // The prompt is drawn again in place, naming the new mode, with the line kept.
        if (out_.tty)
            std::cout << "\r\033[K" << std::flush;
        else
            std::cout << "\n";
        typed_ahead_ = std::move(typed);
        choose_mode(client::next_choice(session_.state().choice()));
    };
    ask_line(
        std::string(client::mode_word(session_.state().choice())) + " ❯ ",
        [this](std::string line) { on_line(line); }, std::move(options));
}

} // namespace rio
