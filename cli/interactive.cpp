#include "cli/interactive.hpp"

#include "cli/trace.hpp"

#include <asio/post.hpp>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sys/wait.h>
#include <unistd.h>

namespace rio {
namespace {

const char* help_text = "Type a task and press Enter. Commands:\n"
                        "  /plan      plan mode: the agent investigates and presents a plan first\n"
                        "  /review    build mode; you review each edit\n"
                        "  /auto      build mode; edits are applied without asking\n"
                        "  /build     build mode, keeping the current edit policy\n"
                        "  /stop      stop the running turn (also Ctrl+C)\n"
                        "  /clear     clear the conversation\n"
                        "  /provider [NAME]   show or switch the provider\n"
                        "  /model [ID]        show or set the model\n"
                        "  /plans     list the plans filed in this project\n"
                        "  /help      this text;  /quit (or Ctrl+D, or Ctrl+C twice) to leave";

std::string trimmed(std::string_view s) {
    std::size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
    return b == std::string_view::npos ? std::string() : std::string(s.substr(b, e - b + 1));
}

} // namespace

InteractiveSession::InteractiveSession(asio::io_context& io, CoreLink& link, Terminal out)
    : link_(link), out_(out), stdin_(io, ::dup(0)), signals_(io, SIGINT), lines_(io, [this] {
          input_ = Input::none; // the prompt is gone already
          interrupt();
      }) {}

InteractiveSession::~InteractiveSession() {
    stop_input();
}

void InteractiveSession::start(std::function<void(int)> finish) {
    finish_ = std::move(finish);
    link_.on_event([this](const std::string& name, const Json& params) { on_event(name, params); });
    link_.on_closed([this] {
        if (done_) return;
        print("rio-cli: the core closed the connection");
        quit(1);
    });
    wait_for_signal();
    link_.request("session.hello", {{"client", "rio-cli"}}, [this](const Json& hello) {
        const Json& root = hello.value("result", Json::object()).value("root", Json());
        root_ = root.is_string() ? root.get<std::string>() : "";
        link_.request("agent.status", {}, [this](const Json& r) {
            Json status = r.value("result", Json::object());
            on_status(status);
            print(styled("rio", sgr::bold, out_.color) + " · " + status.value("provider", "") +
                  " · " + status.value("model", "") + (root_.empty() ? "" : " · " + root_) +
                  "\nType a task, or /help.");
            ask_trust_then_prompt();
        });
    });
}

// DESIGN §12: a project's own allow-list (or MCP servers) applies only once the user says
// so, in words, once per version of the file.
void InteractiveSession::ask_trust_then_prompt() {
    if (root_.empty()) return prompt();
    link_.request("project.trust.get", {}, [this](const Json& r) {
        const Json& trust = r.value("result", Json::object());
        if (trust.value("trusted", true)) return prompt();
        std::string what;
        for (const Json& f : trust.value("files", Json::array()))
            if (!f.value("trusted", false))
                what += "This project's " + f.value("path", "") + " would let the agent " +
                        f.value("summary", "") + ".\n";
        print(styled(what, sgr::yellow, out_.color) +
              "It came with the project; nothing of it applies until you trust it.");
        ask_line("Trust this project? [y/N] ", [this](std::string answer) {
            answer = trimmed(answer);
            if (answer != "y" && answer != "Y" && answer != "yes") {
                print("Not trusted: its rules do not apply.");
                return prompt();
            }
            link_.request("project.trust.set", {{"trust", true}}, [this](const Json& set) {
                print(set.value("ok", false)
                          ? "Trusted as it is now; a change to the file asks again."
                          : "rio-cli: " + set["error"].value("message", ""));
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

void InteractiveSession::on_event(const std::string& name, const Json& params) {
    if (name == "agent.status") return on_status(params);
    if (name == "agent.mode") {
        mode_ = params.value("mode", mode_);
        return;
    }
    if (name == "agent.delta") {
        if (in_thinking_) {
            std::cout << "\n";
            in_thinking_ = false;
        }
        std::cout << params.value("text", "") << std::flush;
        line_open_ = true;
    } else if (name == "agent.thinking") {
        std::cout << styled(params.value("text", ""), sgr::dim, out_.color) << std::flush;
        line_open_ = in_thinking_ = true;
    } else if (name == "agent.tool") {
        print(tool_line(params, out_.color));
    } else if (name == "agent.tool_result") {
        if (std::string failure = tool_failure_line(params, out_.color); !failure.empty())
            print(failure);
    } else if (name == "agent.propose") {
        on_propose(params);
    } else if (name == "agent.decided" && params.value("id", "") == pending_id_) {
        if (input_ == Input::key) {
            stop_input();
            print("(" + params.value("decision", "") + "d elsewhere)");
        }
        pending_id_.clear();
    } else if (name == "agent.error") {
        print(styled("error: " + params.value("code", "") + ": " + params.value("message", ""),
                     sgr::red, out_.color));
    } else if (name == "agent.stopped" || name == "agent.reset") {
        if (input_ == Input::key) stop_input();
        pending_id_.clear();
        print(styled(name == "agent.reset" ? "(conversation cleared)" : "(stopped)", sgr::dim,
                     out_.color));
    }
}

void InteractiveSession::on_status(const Json& status) {
    mode_ = status.value("mode", mode_);
    auto_accept_ = status.value("auto_accept", auto_accept_);
    bool was_busy = busy_;
    busy_ = status.value("busy", busy_);
    turn_ = status.value("turn", turn_);
    // A turn ended (done, stopped, reset): back to the prompt unless a question is up.
    if (was_busy && !busy_ && input_ == Input::none && !done_) prompt();
}

std::string InteractiveSession::mode_label() const {
    if (mode_ == "plan") return "plan";
    return auto_accept_ ? "auto" : "review";
}

void InteractiveSession::on_propose(const Json& p) {
    pending_id_ = p.value("id", "");
    std::string kind = p.value("kind", "");
    if (kind == "plan") return show_plan(p);
    if (kind == "edit") {
        print(styled("Edit " + p.value("path", ""), sgr::bold, out_.color) + "\n" +
              diff_text(p, out_.color));
        ask_key("[y] apply  [n] reject", "yn", [this, p](char k) {
            if (k == 'y')
                approve(p, "");
            else
                reject_with_reason(p);
        });
        return;
    }
    print("Run " + command_text(p, out_.color));
    ask_key("[y] run  [n] reject", "yn", [this, p](char k) {
        if (k == 'y')
            approve(p, "");
        else
            reject_with_reason(p);
    });
}

void InteractiveSession::show_plan(const Json& p) {
    print("\n" + plan_text(p, detect_terminal(1).width, out_.color));
    bool filed = !p.value("path", "").empty();
    std::string choices =
        "[a] approve, review each edit  [A] approve, auto-accept edits  [r] reject";
    if (filed) choices += "  [e] edit the plan";
    ask_key(choices, filed ? "aAre" : "aAr", [this, p](char k) {
        if (k == 'a')
            approve(p, "review");
        else if (k == 'A')
            approve(p, "auto");
        else if (k == 'r')
            reject_with_reason(p);
        else
            edit_plan(p);
    });
}

void InteractiveSession::edit_plan(const Json& p) {
    std::string path = root_ + "/" + p.value("path", "");
    const char* editor = std::getenv("VISUAL");
    if (!editor || !*editor) editor = std::getenv("EDITOR");
    if (!editor || !*editor) editor = "vi";
    // The editor owns the terminal until it exits; events wait in the pipe meanwhile.
    std::string shell_command = std::string(editor) + " \"$1\"";
    pid_t pid = ::fork();
    if (pid == 0) {
        ::execl("/bin/sh", "sh", "-c", shell_command.c_str(), "sh", path.c_str(), nullptr);
        ::_exit(127);
    }
    if (pid > 0) ::waitpid(pid, nullptr, 0);
    link_.request("plans.get", {{"path", p.value("path", "")}}, [this, p](const Json& r) {
        Json shown = p;
        if (r.value("ok", false)) shown["plan"] = r["result"].value("body", "");
        show_plan(shown);
    });
}

void InteractiveSession::approve(const Json& p, const std::string& policy) {
    Json params{
        {"turn", p.value("turn", turn_)}, {"id", p.value("id", "")}, {"decision", "approve"}};
    if (!policy.empty()) params["policy"] = policy;
    link_.request("agent.approve", params, [this](const Json& r) {
        if (!r.value("ok", false)) print("rio-cli: " + r["error"].value("message", ""));
    });
}

void InteractiveSession::reject_with_reason(const Json& p) {
    ask_line("reason (optional, Enter to skip): ", [this, p](std::string reason) {
        Json params{
            {"turn", p.value("turn", turn_)}, {"id", p.value("id", "")}, {"decision", "reject"}};
        if (!trimmed(reason).empty()) params["feedback"] = trimmed(reason);
        link_.request("agent.approve", params, [this](const Json& r) {
            if (!r.value("ok", false)) print("rio-cli: " + r["error"].value("message", ""));
        });
    });
}

void InteractiveSession::on_line(const std::string& raw) {
    std::string line = trimmed(raw);
    if (line.empty()) return prompt();
    if (line.front() == '/') return command(line);
    send(line);
}

void InteractiveSession::send(const std::string& text) {
    busy_ = true;
    link_.request("agent.send", {{"text", text}}, [this](const Json& r) {
        if (r.value("ok", false)) {
            turn_ = r["result"].value("turn", turn_);
            return;
        }
        busy_ = false;
        print("rio-cli: " + r["error"].value("message", ""));
        prompt();
    });
}

void InteractiveSession::command(const std::string& line) {
    std::string name = line.substr(0, line.find(' '));
    std::string arg =
        line.find(' ') == std::string::npos ? "" : trimmed(line.substr(line.find(' ')));
    // Responses come before the events they cause, so the prompt's mode label is taken
    // from the response itself.
    auto then_prompt = [this](const Json& r) {
        if (!r.value("ok", true)) print("rio-cli: " + r["error"].value("message", ""));
        const Json& result = r.value("result", Json::object());
        if (result.contains("mode")) mode_ = result["mode"];
        if (result.contains("on")) auto_accept_ = result["on"];
        prompt();
    };
    if (name == "/quit" || name == "/exit") return quit(0);
    if (name == "/help") {
        print(help_text);
        return prompt();
    }
    if (name == "/plan") return link_.request("agent.mode.set", {{"mode", "plan"}}, then_prompt);
    if (name == "/build") return link_.request("agent.mode.set", {{"mode", "build"}}, then_prompt);
    if (name == "/auto" || name == "/review") {
        link_.request("agent.mode.set", {{"mode", "build"}}, [this](const Json& r) {
            if (r.value("ok", false)) mode_ = r["result"].value("mode", mode_);
        });
        return link_.request("agent.autoaccept.set", {{"on", name == "/auto"}}, then_prompt);
    }
    if (name == "/stop") return link_.request("agent.stop", {}, then_prompt);
    if (name == "/clear") return link_.request("agent.reset", {}, then_prompt);
    if (name == "/provider") {
        if (!arg.empty()) return link_.request("agent.provider.set", {{"name", arg}}, then_prompt);
        return link_.request("agent.providers", {}, [this](const Json& r) {
            std::string out;
            for (const Json& p : r["result"]["providers"])
                out += std::string(p.value("active", false) ? "* " : "  ") + p.value("name", "") +
                       "  (key: " + p.value("key", "") + ")  " + p.value("description", "") + "\n";
            print(out + "Switch with /provider NAME.");
            prompt();
        });
    }
    if (name == "/model") {
        if (!arg.empty())
            return link_.request("agent.options.set", {{"name", "model"}, {"value", arg}},
                                 then_prompt);
        return link_.request("agent.status", {}, [this](const Json& r) {
            print("model: " + r["result"].value("model", "") + "  (set with /model ID)");
            prompt();
        });
    }
    if (name == "/plans") {
        return link_.request("plans.list", {}, [this](const Json& r) {
            std::string out;
            for (const Json& p : r.value("result", Json::object()).value("plans", Json::array()))
                out += p.value("status", "") + "\t" + p.value("path", "") + "\t" +
                       p.value("title", "") + "\n";
            print(out.empty() ? "No plans filed yet." : out);
            prompt();
        });
    }
    print("Unknown command " + name + "; /help lists them.");
    prompt();
}

void InteractiveSession::interrupt() {
    auto now = std::chrono::steady_clock::now();
    bool twice = now - last_interrupt_ < std::chrono::seconds(2);
    last_interrupt_ = now;
    if (busy_ || !pending_id_.empty()) {
        stop_input();
        print(styled("^C stopping…", sgr::dim, out_.color));
        link_.request("agent.stop", {{"turn", turn_}});
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
    signals_.cancel();
    std::cout << std::flush;
    finish_(code);
}

void InteractiveSession::prompt() {
    if (done_ || busy_) return;
    ask_line(mode_label() + " ❯ ", [this](std::string line) { on_line(line); });
}

void InteractiveSession::ask_line(const std::string& question,
                                  std::function<void(std::string)> then) {
    stop_input();
    if (line_open_) {
        std::cout << "\n";
        line_open_ = false;
    }
    std::cout << std::flush;
    input_ = Input::line;
    lines_.read(question, [this, then = std::move(then)](std::optional<std::string> line) {
        input_ = Input::none;
        if (!line) { // Ctrl+D
            std::cout << "\n";
            return quit(0);
        }
        then(*line);
    });
}

void InteractiveSession::ask_key(const std::string& question, const std::string& keys,
                                 std::function<void(char)> then) {
    stop_input();
    print(styled(question, sgr::bold, out_.color));
    input_ = Input::key;
    keys_ = keys;
    key_then_ = std::move(then);
    raw_ = std::make_unique<RawKeys>(0);
    watch_stdin();
}

void InteractiveSession::watch_stdin() {
    stdin_.async_wait(asio::posix::stream_descriptor::wait_read, [this](std::error_code ec) {
        if (!ec) stdin_ready();
    });
}

void InteractiveSession::stdin_ready() {
    if (input_ != Input::key) return;
    char key = 0;
    if (::read(0, &key, 1) != 1) return quit(0);
    if (keys_.find(key) == std::string::npos) return watch_stdin();
    auto then = std::move(key_then_);
    stop_input();
    std::cout << key << "\n" << std::flush;
    then(key);
}

void InteractiveSession::stop_input() {
    if (input_ == Input::line) {
        lines_.cancel();
        std::cout << "\n";
    }
    raw_.reset();
    std::error_code ignored;
    stdin_.cancel(ignored);
    input_ = Input::none;
}

void InteractiveSession::print(const std::string& text) {
    if (line_open_) {
        std::cout << "\n";
        line_open_ = in_thinking_ = false;
    }
    std::cout << text << "\n" << std::flush;
}

} // namespace rio
