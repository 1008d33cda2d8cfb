#include "cli/interactive.hpp"

#include "cli/ansi_painter.hpp"
#include "cli/plan_review_text.hpp"
#include "cli/resume.hpp"
#include "cli/state_dir.hpp"
#include "cli/terminal_safe.hpp"
#include "cli/trace.hpp"
#include "client/plan_revision.hpp"
#include "client/problems.hpp"
#include "client/trace_words.hpp"
#include "client/trust_question.hpp"
#include "text/trim.hpp"

#include <algorithm>
#include <asio/post.hpp>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>

namespace rio {
namespace {

const char* help_text = "Type a task and press Enter. Commands:\n"
                        "  /plan      plan mode: the agent investigates and presents a plan first\n"
                        "  /review    build mode; you review each edit\n"
                        "  /auto      build mode; edits are applied without asking\n"
                        "  /build     build mode, keeping the current edit policy\n"
                        "  /stop      stop the running turn (also Ctrl+C)\n"
                        "  /clear     clear the conversation\n"
                        "  /compact [INSTRUCTIONS]  make the conversation smaller: old tool "
                        "outputs cleared, older turns summarized\n"
                        "  /status    the provider, model, mode, session and how full the "
                        "context is\n"
                        "  /undo [TURN]  put back what the agent's edits of the last turn (or "
                        "TURN) replaced\n"
                        "  /output [N]   all that command N (default: the last) printed\n"
                        "  /provider [NAME]   show or switch the provider\n"
                        "  /key [clear] [NAME]  store the provider's API key (typed unseen), or "
                        "remove it\n"
                        "  /model [ID]        pick the model from the provider's list, or set it\n"
                        "  /model plan PROVIDER [ID] | off  who answers in plan mode; the "
                        "model above takes over at approval\n"
                        "  /plans     list the plans filed in this project, and show one\n"
                        "  /steps     the approved plan's steps and how far they came\n"
                        "  /sessions  list this project's conversations, and continue one\n"
                        "  /mcp [restart NAME]  the MCP servers, their state and tools\n"
                        "  /problems [PATH]  errors and warnings the language servers report\n"
                        "  /help      this text;  /quit (or Ctrl+D, or Ctrl+C twice) to leave";

// How many of a command's last lines show under it; /output N shows all of them.
constexpr std::size_t output_lines = 8;

// The editor $VISUAL, else $EDITOR, names (with the variable's name, for when it cannot be
// run), else vi.
std::pair<std::string, std::string> chosen_editor() {
    for (const char* variable : {"VISUAL", "EDITOR"})
        if (const char* editor = std::getenv(variable); editor && *editor)
            return {editor, variable};
    return {"vi", ""};
}

// Whether the first word of an editor's command line names a program that can be run.
bool runnable(const std::string& command) {
    std::string program = command.substr(0, command.find_first_of(" \t"));
    if (program.empty()) return false;
    if (program.find('/') != std::string::npos) return ::access(program.c_str(), X_OK) == 0;
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/bin:/bin";
    for (std::size_t at = 0; at <= dirs.size();) {
        std::size_t end = std::min(dirs.find(':', at), dirs.size());
        std::string dir = dirs.substr(at, end - at);
        if (::access(((dir.empty() ? "." : dir) + "/" + program).c_str(), X_OK) == 0) return true;
        at = end + 1;
    }
    return false;
}

// Runs $VISUAL (or $EDITOR, or vi) on a temporary file holding `text` and returns what it
// holds afterwards; nullopt when the file could not be made. The editor owns the terminal
// until it exits; events wait in the pipe meanwhile.
std::optional<std::string> edit_in_editor(const std::string& text) {
    const char* tmp = std::getenv("TMPDIR");
    std::string path = std::string(tmp && *tmp ? tmp : "/tmp") + "/rio-plan-XXXXXX.md";
    int fd = ::mkstemps(path.data(), 3);
    if (fd < 0) return std::nullopt;
    bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ::close(fd);
    if (!written) {
        ::unlink(path.c_str());
        return std::nullopt;
    }
    std::string shell_command = chosen_editor().first + " \"$1\"";
    pid_t pid = ::fork();
    if (pid == 0) {
        ::execl("/bin/sh", "sh", "-c", shell_command.c_str(), "sh", path.c_str(), nullptr);
        ::_exit(127);
    }
    if (pid > 0) ::waitpid(pid, nullptr, 0);
    std::ifstream in(path, std::ios::binary);
    std::string edited((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ::unlink(path.c_str());
    return edited;
}

// What Tab completes at the start of a line.
const std::vector<std::string> command_names = {
    "/plan", "/plans", "/steps",   "/sessions", "/review", "/auto",   "/build",
    "/stop", "/clear", "/compact", "/status",   "/undo",   "/output", "/provider",
    "/key",  "/model", "/mcp",     "/problems", "/help",   "/quit",   "/exit"};

// The events show() writes a line for, after the reply so far.
bool prints_a_line(const client::CoreEvent& event) {
    return std::holds_alternative<ToolEvent>(event) ||
           std::holds_alternative<ToolResultEvent>(event) ||
           std::holds_alternative<ToolProgressEvent>(event) ||
           std::holds_alternative<Proposal>(event) ||
           std::holds_alternative<PlanReportEvent>(event) ||
           std::holds_alternative<PlanProgressEvent>(event) ||
           std::holds_alternative<FreshEvent>(event) || std::holds_alternative<ErrorEvent>(event) ||
           std::holds_alternative<StoppedEvent>(event) ||
           std::holds_alternative<ResetEvent>(event) ||
           std::holds_alternative<CompactedEvent>(event);
}

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
        print(styled(what, sgr::yellow, out_.color) +
              "It came with the project; none of this applies until you trust it.");
        ask_line("Trust this project? [y/N] ", [this, shown_now = *trust](std::string answer) {
            answer = std::string(trimmed(answer));
            if (answer != "y" && answer != "Y" && answer != "yes") {
                print("Not trusted: commands ask first, and its files grant nothing.");
                return prompt();
            }
            link_.request(op::project_trust_set, Json(client::trust_answer(shown_now)),
                          [this](const client::Reply& set) {
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
            print("(" + shown(decided->decision) + "d elsewhere)");
        }
        return;
    }
    show(event);
    busy_line();
}

void InteractiveSession::show(const client::CoreEvent& event) {
    if (auto* delta = std::get_if<DeltaEvent>(&event)) {
        show_answer(answer_.feed(delta->text));
        return;
    }
    if (auto* thinking = std::get_if<ThinkingEvent>(&event)) return show_thinking(thinking->text);
    if (std::holds_alternative<MessageEvent>(event)) {
        return end_answer();
    }
    // An event that prints nothing (plans.changed, agent.checkpoints, agent.usage, …) may
    // arrive between two words of a reply; it must not cut the paragraph in two.
    if (!prints_a_line(event)) return;
    end_answer(); // whatever comes next follows the reply so far
    if (auto* tool = std::get_if<ToolEvent>(&event)) {
        print(tool_line(*tool, out_.color));
    } else if (auto* progress = std::get_if<ToolProgressEvent>(&event)) {
        print(tool_progress_line(*progress, out_.color));
    } else if (auto* result = std::get_if<ToolResultEvent>(&event)) {
        std::string line = tool_result_line(*result, session_.outcome(*result), out_.color);
        if (!line.empty()) print(line);
        if (result->output && !result->output->empty()) {
            outputs_.push_back(*result->output);
            print(command_output_text(*result->output, output_lines, outputs_.size(), out_.color));
        }
    } else if (auto* proposal = std::get_if<Proposal>(&event)) {
        on_propose(*proposal);
    } else if (auto* report = std::get_if<PlanReportEvent>(&event)) {
        if (std::string words = client::plan_report_text(*report); !words.empty())
            print(styled(shown(words), sgr::yellow, out_.color));
    } else if (auto* progress = std::get_if<PlanProgressEvent>(&event)) {
        // One line as the plan moves on (DESIGN §20); a file outside it is said at once.
        std::string line = "plan " + client::plan_progress_line(*progress);
        if (line != plan_line_) print(styled(shown(line), sgr::cyan, out_.color));
        plan_line_ = line;
        if (progress->unplanned.size() < plan_unplanned_) plan_unplanned_ = 0; // another plan
        for (std::size_t i = plan_unplanned_; i < progress->unplanned.size(); ++i)
            print(styled("outside the plan: " + shown(progress->unplanned[i]), sgr::yellow,
                         out_.color));
        plan_unplanned_ = progress->unplanned.size();
    } else if (std::holds_alternative<FreshEvent>(event)) {
        print(styled("(continuing in a fresh context: your request and the approved plan)",
                     sgr::dim, out_.color));
    } else if (auto* compacted = std::get_if<CompactedEvent>(&event)) {
        print(styled("(" + client::compacted_text(*compacted) + ")", sgr::dim, out_.color));
    } else if (auto* error = std::get_if<ErrorEvent>(&event)) {
        print(styled("error: " + shown(error->code) + ": " + shown(error->message), sgr::red,
                     out_.color));
    } else if (std::holds_alternative<StoppedEvent>(event) ||
               std::holds_alternative<ResetEvent>(event)) {
        if (input_ == Input::key) stop_input();
        // Ctrl+C said "stopping…" already; a stop from elsewhere is said here.
        if (std::holds_alternative<ResetEvent>(event))
            print(styled("(conversation cleared)", sgr::dim, out_.color));
        else if (!stopping_)
            print(styled("(stopped)", sgr::dim, out_.color));
    }
}

int InteractiveSession::width() const {
    return out_.tty ? detect_terminal(1).width : out_.width;
}

void InteractiveSession::show_thinking(const std::string& text) {
    spinner_.hide();
    if (!in_thinking_) {
        end_answer();
        if (line_open_) std::cout << "\n";
        thinking_ = WordStream(width());
        in_thinking_ = line_open_ = true;
    }
    std::cout << styled(thinking_.feed(text), sgr::dim, out_.color) << std::flush;
}

void InteractiveSession::show_answer(const std::string& markdown) {
    if (markdown.find_first_not_of(" \t\r\n") == std::string::npos) return;
    std::string painted = markdown_text(markdown, width(), out_.color);
    if (!painted.empty() && painted.back() == '\n') painted.pop_back();
    print((answer_started_ ? "\n" : "") + painted);
    answer_started_ = true;
}

void InteractiveSession::end_answer() {
    std::string rest = answer_.finish();
    show_answer(rest);
    answer_started_ = false;
}

void InteractiveSession::busy_line() {
    if (!done_ && (session_.state().busy || sending_) && input_ == Input::none && !in_thinking_)
        spinner_.show();
}

void InteractiveSession::on_propose(const Proposal& p) {
    if (p.kind == "plan") return show_plan(p);
    auto decide = [this, p](char k) {
        if (k == 'y')
            approve(p, "");
        else
            reject_with_reason(p);
    };
    if (p.kind == "edit") {
        print(styled("Edit " + shown(p.text("path")), sgr::bold, out_.color) + "\n" +
              diff_text(p, width(), out_.color));
        return ask_key("[y] apply  [n] reject", "yn", decide);
    }
    if (p.kind == "mcp") {
        print("Call " + styled(shown(client::mcp_call_text(p)), sgr::bold, out_.color));
        return ask_key("[y] call  [n] reject", "yn", decide);
    }
    print("Run " + command_text(p, out_.color));
    // A sandboxed command may be let out for this one call (DESIGN §19).
    const Json sandbox = p.fields.value("sandbox", Json::object());
    if (sandbox.value("profile", "") != "workspace-write")
        return ask_key("[y] run  [n] reject", "yn", decide);
    ask_key("[y] run  [w] run with the network  [u] run without the sandbox  [n] reject", "ywun",
            [this, p, decide](char k) {
                if (k == 'w' || k == 'u')
                    approve_command(p, /*network=*/k == 'w', /*unsandboxed=*/k == 'u');
                else
                    decide(k);
            });
}

void InteractiveSession::show_plan(const Proposal& p) {
    comments_.clear();
    numbered_for_.clear();
    print("\n" + plan_text(p, width(), out_.color));
    if (p.text("revises").empty() || p.text("path").empty()) return decide_plan(p);
    show_revision(p, [this, p] { decide_plan(p); });
}

// Both texts as filed (each with its title, neither with its review), so the diff shows what
// the model changed.
void InteractiveSession::show_revision(const Proposal& p, std::function<void()> then) {
    link_.call(PlansGetParams{p.text("revises")}, [this, p,
                                                   then](const client::Typed<PlansGetParams>& old) {
        link_.call(PlansGetParams{p.text("path")}, [this, old, then](
                                                       const client::Typed<PlansGetParams>& now) {
            if (!old || !now) {
                print(styled("(the previous plan could not be read)", sgr::dim, out_.color));
                return then();
            }
            std::string a = old->plan, b = now->plan;
            link_.call(client::revision_diff_request(a, b),
                       [this, a, b, then](const client::Typed<DiffLinesParams>& diff) {
                           if (diff) {
                               std::string text =
                                   revision_text(client::mark_revision(a, b, *diff), out_.color);
                               print(text.empty() ? styled("(no changes since the previous plan)",
                                                           sgr::dim, out_.color)
                                                  : text);
                           }
                           then();
                       });
        });
    });
}

void InteractiveSession::decide_plan(const Proposal& p) {
    bool filed = !p.text("path").empty();
    bool notes = !comments_.empty();
    if (notes) print(comments_text(comments_, out_.color));
    std::string choices = notes ? "[a] approve with notes, review each edit  [A] approve with "
                                  "notes, auto-accept edits  [f] approve in a fresh context  "
                                  "[r] request changes"
                                : "[a] approve, review each edit  [A] approve, auto-accept edits  "
                                  "[f] approve in a fresh context  [r] reject";
    choices += "  [c] comment";
    if (filed) choices += "  [e] edit the plan";
    ask_key(choices, filed ? "aAfrce" : "aAfrc", [this, p](char k) {
        if (k == 'a')
            approve(p, "review");
        else if (k == 'A')
            approve(p, "auto");
        else if (k == 'f')
            approve(p, "review", true);
        else if (k == 'r')
            reject_with_reason(p);
        else if (k == 'c')
            comment_on(p);
        else
            edit_plan(p);
    });
}

void InteractiveSession::comment_on(const Proposal& p) {
    std::string plan = p.text("plan");
    if (numbered_for_ != p.id) {
        numbered_for_ = p.id;
        print(numbered_lines(plan, out_.color) +
              styled("Comment on lines: 12-14 what to change · -N removes comment N · Enter "
                     "when done",
                     sgr::dim, out_.color));
    }
    ask_line("c ", [this, p, plan](std::string line) {
        CommentCommand command = read_comment_command(line, plan, comments_.size());
        using Kind = CommentCommand::Kind;
        if (command.kind == Kind::add) comments_.push_back(std::move(command.comment));
        if (command.kind == Kind::remove)
            comments_.erase(comments_.begin() + static_cast<long>(command.index - 1));
        if (command.kind == Kind::invalid) print(styled(command.error, sgr::yellow, out_.color));
        if (command.kind == Kind::remove && comments_.empty()) print("No comments left.");
        decide_plan(p);
    });
}

// The plan goes through the core: the editor gets the buffer's text (the body; the core
// keeps the front matter), and what it saves comes back as an edit of the buffer, saved, so
// every client sees it and the approval reads it.
void InteractiveSession::edit_plan(const Proposal& p) {
    std::string rel = p.text("path");
    link_.call(BufferListParams{}, [this, p, rel](const client::Typed<BufferListParams>& list) {
        bool was_open = false;
        if (list)
            for (const BufferState& b : list->buffers)
                was_open |= b.path == rel;
        link_.call(BufferOpenParams{rel}, [this, p, rel, was_open](
                                              const client::Typed<BufferOpenParams>& opened) {
            if (!opened || !opened->text) {
                print("rio-cli: " +
                      (opened ? std::string("no text") : shown(opened.error().message)));
                return decide_plan(p);
            }
            if (auto [editor, variable] = chosen_editor(); !runnable(editor)) {
                print(styled((variable.empty() ? std::string("vi, the editor rio-cli uses when "
                                                             "$VISUAL and $EDITOR are unset,")
                                               : "$" + variable + " (" + editor + ")") +
                                 " cannot be run: it is not installed or not on PATH. Set $" +
                                 (variable.empty() ? "EDITOR" : variable) +
                                 " to an editor you have.",
                             sgr::yellow, out_.color));
                if (!was_open) link_.call(BufferCloseParams{rel, std::nullopt}, nullptr);
                return decide_plan(p);
            }
            auto edited = edit_in_editor(*opened->text);
            if (!edited) print("rio-cli: the plan could not be handed to the editor");
            if (!edited || *edited == *opened->text) return show_edited_plan(p, rel, was_open);
            BufferReplaceParams replace{rel, *edited, std::nullopt, std::nullopt, opened->version};
            link_.call(replace, [this, p, rel,
                                 was_open](const client::Typed<BufferReplaceParams>& replaced) {
                if (!replaced) {
                    print("rio-cli: " + shown(replaced.error().message));
                    return show_edited_plan(p, rel, was_open);
                }
                link_.call(BufferSaveParams{rel, std::nullopt},
                           [this, p, rel, was_open](const client::Typed<BufferSaveParams>& saved) {
                               if (!saved) print("rio-cli: " + shown(saved.error().message));
                               show_edited_plan(p, rel, was_open || !saved);
                           });
            });
        });
    });
}

// A buffer rio-cli opened only to edit the plan is closed again (unless saving failed: then
// the edit stays in it, and the approval still reads it); the plan is shown as it is now.
void InteractiveSession::show_edited_plan(const Proposal& p, const std::string& rel,
                                          bool keep_open) {
    if (!keep_open) link_.call(BufferCloseParams{rel, std::nullopt}, nullptr);
    link_.call(PlansGetParams{rel}, [this, p](const client::Typed<PlansGetParams>& r) {
        Proposal shown = p;
        if (r) shown.fields["plan"] = r->body;
        numbered_for_.clear(); // the lines are the edited plan's now
        print("\n" + plan_text(shown, width(), out_.color));
        decide_plan(shown);
    });
}

void InteractiveSession::approve(const Proposal& p, const std::string& policy, bool fresh) {
    ApproveParams params;
    params.turn = p.turn ? p.turn : session_.state().turn;
    params.id = p.id;
    params.decision = "approve";
    if (!policy.empty()) params.policy = policy;
    if (p.kind == "plan" && !comments_.empty()) params.comments = comments_;
    if (fresh) params.fresh = true;
    link_.request(op::agent_approve, Json(params), [this](const client::Reply& r) { report(r); });
}

void InteractiveSession::approve_command(const Proposal& p, bool network, bool unsandboxed) {
    ApproveParams params;
    params.turn = p.turn ? p.turn : session_.state().turn;
    params.id = p.id;
    params.decision = "approve";
    if (network) params.network = true;
    if (unsandboxed) params.unsandboxed = true;
    link_.request(op::agent_approve, Json(params), [this](const client::Reply& r) { report(r); });
}

void InteractiveSession::reject_with_reason(const Proposal& p) {
    ask_line("reason (optional, Enter to skip): ", [this, p](std::string reason) {
        ApproveParams params;
        params.turn = p.turn ? p.turn : session_.state().turn;
        params.id = p.id;
        params.decision = "reject";
        if (!trimmed(reason).empty()) params.feedback = std::string(trimmed(reason));
        if (p.kind == "plan" && !comments_.empty()) params.comments = comments_;
        link_.request(op::agent_approve, Json(params),
                      [this](const client::Reply& r) { report(r); });
    });
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

void InteractiveSession::command(const std::string& line) {
    std::string name = line.substr(0, line.find(' '));
    std::string arg = line.find(' ') == std::string::npos
                          ? ""
                          : std::string(trimmed(line.substr(line.find(' '))));
    auto prompt_after = [this](const client::Reply& r) { then_prompt(r); };
    auto choose = [this](client::ModeChoice choice) {
        auto requests = client::mode_requests(choice);
        for (std::size_t i = 0; i < requests.size(); ++i)
            link_.request(requests[i].op, requests[i].params,
                          [this, last = i + 1 == requests.size()](const client::Reply& r) {
                              if (last) return then_prompt(r);
                              report(r);
                              if (r.ok() && r.result.contains("on"))
                                  session_.apply_auto_accept(r.result.value("on", false));
                          });
    };
    if (name == "/quit" || name == "/exit") return quit(0);
    if (name == "/help") {
        print(help_text);
        return prompt();
    }
    if (name == "/plan") return choose(client::ModeChoice::plan);
    if (name == "/review") return choose(client::ModeChoice::review);
    if (name == "/auto") return choose(client::ModeChoice::auto_accept);
    if (name == "/build")
        return link_.request(op::agent_mode_set, Json(ModeSetParams{"build"}), prompt_after);
    if (name == "/stop") return link_.request(op::agent_stop, Json::object(), prompt_after);
    if (name == "/clear") return link_.request(op::agent_reset, Json::object(), prompt_after);
    if (name == "/compact") {
        CompactParams compact;
        if (!arg.empty()) compact.instructions = arg;
        print(styled("(compacting…)", sgr::dim, out_.color));
        // Like a message: the prompt comes back with the status that ends the compaction.
        sending_ = true;
        return link_.request(op::agent_compact, Json(compact), [this](const client::Reply& r) {
            if (r.ok()) return;
            sending_ = false;
            then_prompt(r);
        });
    }
    if (name == "/status") {
        return link_.call(StatusParams{}, [this](const client::Typed<StatusParams>& status) {
            if (status) session_.apply_status(*status);
            print(status_text());
            prompt();
        });
    }
    if (name == "/undo") return undo(arg);
    if (name == "/output") return show_output(arg);
    if (name == "/provider") {
        if (!arg.empty())
            return link_.call(ProviderSetParams{arg, std::nullopt},
                              [this](const client::Typed<ProviderSetParams>& r) {
                                  if (!r) return then_prompt(client::Reply{nullptr, r.error()});
                                  say_if_not_ready(*r);
                                  prompt();
                              });
        return link_.request(op::agent_providers, Json::object(), [this](const client::Reply& r) {
            std::string out;
            for (const Json& p : r.result.value("providers", Json::array()))
                out += std::string(p.value("active", false) ? "* " : "  ") +
                       shown(p.value("name", "")) + "  (key: " + shown(p.value("key", "")) + ")  " +
                       shown(p.value("description", "")) + "\n";
            print(out + "Switch with /provider NAME.");
            prompt();
        });
    }
    if (name == "/key") return key_command(arg);
    if (name == "/model") {
        if (arg == "plan" || arg.rfind("plan ", 0) == 0) return set_plan_model(arg.substr(4));
        if (!arg.empty())
            return link_.request(op::agent_options_set, Json{{"name", "model"}, {"value", arg}},
                                 prompt_after);
        return pick_model();
    }
    if (name == "/plans") return list_plans();
    if (name == "/steps") return show_steps();
    if (name == "/sessions") return list_sessions();
    if (name == "/mcp") return list_mcp(arg);
    if (name == "/problems") return list_problems(arg);
    print("Unknown command " + name + "; /help lists them.");
    prompt();
}

// /model plan PROVIDER [ID], /model plan off; /model plan alone says who plans now.
void InteractiveSession::set_plan_model(std::string words) {
    std::istringstream in(words);
    std::string provider, model, extra;
    in >> provider >> model >> extra;
    if (provider.empty()) {
        const auto& planner = session_.state().plan_model;
        print(planner ? "Plan mode answers with " + shown(planner->provider) + " · " +
                            shown(planner->model.empty() ? "its model option" : planner->model) +
                            "; the builder takes over at approval."
                      : "The builder's model plans too; set another with /model plan PROVIDER "
                        "[ID].");
        return prompt();
    }
    if (!extra.empty()) {
        print("Usage: /model plan PROVIDER [ID], or /model plan off");
        return prompt();
    }
    PlanModelSetParams set;
    if (provider != "off") {
        set.provider = provider;
        set.model = model;
    }
    link_.call(set, [this](const client::Typed<PlanModelSetParams>& r) {
        if (!r) return then_prompt(client::Reply{nullptr, r.error()});
        print(r->plan_model ? "Plan mode answers with " + shown(r->plan_model->provider) + " · " +
                                  shown(r->plan_model->model.empty() ? "its model option"
                                                                     : r->plan_model->model) +
                                  "; " + shown(r->current) + " · " + shown(r->model) +
                                  " takes over at approval."
                            : "The builder's model plans too.");
        prompt();
    });
}

// /undo: the newest turn that can still be undone; /undo TURN: that one. A refusal is the
// core's, which names the files that changed since (as the desktop says it).
void InteractiveSession::undo(const std::string& arg) {
    std::optional<std::uint64_t> named;
    if (!arg.empty()) {
        char* end = nullptr;
        unsigned long long turn = std::strtoull(arg.c_str(), &end, 10);
        if (end == arg.c_str() || *end != '\0' || turn == 0) {
            print("Usage: /undo, or /undo TURN (a turn's number)");
            return prompt();
        }
        named = turn;
    }
    link_.call(CheckpointsParams{}, [this, named](const client::Typed<CheckpointsParams>& kept) {
        if (!kept) return then_prompt(client::Reply{nullptr, kept.error()});
        if (!named && kept->turns.empty()) {
            print("Nothing to undo: the agent's edits of this conversation are undone, or it "
                  "made none.");
            return prompt();
        }
        std::uint64_t turn = named.value_or(kept->turns.empty() ? 0 : kept->turns.back().turn);
        link_.call(UndoParams{turn, std::nullopt}, [this](const client::Typed<UndoParams>& r) {
            if (!r) {
                std::string why = r.error().message;
                if (!why.empty()) why[0] = static_cast<char>(std::toupper(why[0]));
                print(styled(why, sgr::yellow, out_.color));
                return prompt();
            }
            std::string done;
            auto list = [](const std::vector<std::string>& paths) {
                std::string out;
                for (const std::string& path : paths)
                    out += (out.empty() ? "" : ", ") + path;
                return out;
            };
            if (!r->restored.empty()) done += "put back " + list(r->restored);
            if (!r->deleted.empty())
                done += (done.empty() ? "" : "; ") + ("deleted " + list(r->deleted));
            print("Undone turn " + std::to_string(r->turn) + ": " + done);
            prompt();
        });
    });
}

void InteractiveSession::show_output(const std::string& arg) {
    std::size_t index = outputs_.size();
    if (!arg.empty()) {
        char* end = nullptr;
        index = static_cast<std::size_t>(std::strtoull(arg.c_str(), &end, 10));
        if (end == arg.c_str() || *end != '\0') index = 0;
    }
    if (outputs_.empty())
        print("No command has printed anything yet.");
    else if (index == 0 || index > outputs_.size())
        print("Usage: /output N, N from 1 to " + std::to_string(outputs_.size()));
    else
        print(command_output_text(outputs_[index - 1], std::nullopt, std::nullopt, out_.color));
    prompt();
}

void InteractiveSession::list_plans() {
    link_.request(op::plans_list, Json::object(), [this](const client::Reply& r) {
        if (!r.ok()) return then_prompt(r);
        std::vector<PickEntry> entries;
        std::vector<std::string> paths;
        for (const Json& p : r.result.value("plans", Json::array())) {
            entries.push_back(
                {p.value("title", ""), p.value("status", "") + " · " + p.value("path", "")});
            paths.push_back(p.value("path", ""));
        }
        if (entries.empty()) {
            print("No plans filed yet.");
            return prompt();
        }
        print("Plans filed in this project, newest first:");
        pick(entries, "Show which? (number, Enter for none) ", [this, paths](std::size_t i) {
            link_.request(op::plans_get, Json{{"path", paths[i]}}, [this](const client::Reply& r) {
                if (!r.ok()) return then_prompt(r);
                Proposal plan;
                plan.kind = "plan";
                plan.fields = {{"title", r.result.value("title", "")},
                               {"plan", r.result.value("body", "")},
                               {"path", r.result.value("path", "")}};
                std::string status = r.result.value("status", "");
                print(
                    "\n" + plan_text(plan, width(), out_.color) +
                    styled(status.empty() ? "" : "(" + shown(status) + ")", sgr::dim, out_.color));
                if (r.result.contains("steps")) {
                    std::vector<PlanStep> steps = r.result["steps"].get<std::vector<PlanStep>>();
                    print(md::terminal_safe(client::plan_steps_text(steps), md::Whitespace::block));
                    if (r.result.contains("warning"))
                        print(styled("(" + shown(r.result.value("warning", "")) + ")", sgr::yellow,
                                     out_.color));
                }
                prompt();
            });
        });
    });
}

// The steps as the last plans.progress said them (with notes); after a resume, before any,
// as the plan file says them.
void InteractiveSession::show_steps() {
    const client::SessionState& s = session_.state();
    if (s.plan) {
        print(md::terminal_safe(client::plan_steps_text(s.plan->steps), md::Whitespace::block) +
              styled("(" + client::plan_summary_text(*s.plan) + ")", sgr::dim, out_.color));
        return prompt();
    }
    if (!s.plan_tally || s.plan_tally->path.empty()) {
        print("No plan was approved in this conversation.");
        return prompt();
    }
    link_.call(PlansGetParams{s.plan_tally->path}, [this](const client::Typed<PlansGetParams>& r) {
        if (!r) return then_prompt(client::Reply{nullptr, r.error()});
        print(md::terminal_safe(client::plan_steps_text(r->steps.value_or(std::vector<PlanStep>{})),
                                md::Whitespace::block));
        if (r->warning) print(styled("(" + shown(*r->warning) + ")", sgr::yellow, out_.color));
        prompt();
    });
}

void InteractiveSession::list_sessions() {
    link_.call(SessionsListParams{}, [this](const client::Typed<SessionsListParams>& listed) {
        if (!listed) return then_prompt(client::Reply{nullptr, listed.error()});
        if (listed->sessions.empty()) {
            print("No earlier conversations in this project.");
            return prompt();
        }
        std::vector<PickEntry> entries;
        for (const SessionInfo& s : listed->sessions) {
            std::string detail = s.updated.substr(0, 16) + " · " + std::to_string(s.turns) +
                                 (s.turns == 1 ? " turn" : " turns") +
                                 (s.pending ? " · waiting for you" : "") + " · " + s.id;
            entries.push_back({s.title.empty() ? "(untitled)" : s.title, detail});
        }
        std::vector<SessionInfo> sessions = listed->sessions;
        pick(entries, "Continue which? (number, Enter for none) ", [this, sessions](std::size_t i) {
            resume_session(link_, sessions[i].id, [this](const Result<SessionResumeResult>& r) {
                if (!r) return then_prompt(client::Reply{nullptr, r.error()});
                print("Resumed “" + shown(r->session.title) + "” · " + std::to_string(r->messages) +
                      " messages");
                prompt();
            });
        });
    });
}

void InteractiveSession::list_mcp(const std::string& arg) {
    auto show = [this](const auto& listed) {
        if (!listed) return then_prompt(client::Reply{nullptr, listed.error()});
        print(mcp_servers_text(*listed, out_.color));
        prompt();
    };
    if (arg.empty()) return link_.call(McpListParams{}, show);
    const std::string restart = "restart ";
    if (arg.rfind(restart, 0) != 0 || arg.size() == restart.size()) {
        print("Usage: /mcp, or /mcp restart NAME");
        return prompt();
    }
    link_.call(McpRestartParams{arg.substr(restart.size())}, show);
}

void InteractiveSession::list_problems(const std::string& path) {
    // What a terminal shows at once; the desktop's Problems panel has them all.
    constexpr std::size_t max_lines = 50;
    LspDiagnosticsParams params;
    if (!path.empty()) params.path = path;
    link_.call(params, [this, path](const client::Typed<LspDiagnosticsParams>& r) {
        if (!r) return then_prompt(client::Reply{nullptr, r.error()});
        client::Problems problems;
        problems.load(*r);
        if (problems.files().empty()) {
            print(path.empty() ? "No problems: the language servers report none in the files "
                                 "they have seen."
                               : "No problems reported for " + path + ".");
            return prompt();
        }
        std::string out;
        for (const std::string& line : client::problem_lines(problems, max_lines))
            out += md::terminal_safe(line, md::Whitespace::inline_text) + "\n";
        print(out + problems.summary() + ".");
        prompt();
    });
}

void InteractiveSession::say_if_not_ready(const ProvidersResult& providers) {
    for (const ProviderInfo& p : providers.providers)
        if (p.active && !p.ready)
            print(styled(p.name + " has no key yet: store one with /key (or set " +
                             p.key_variable.value_or("its key variable") + ").",
                         sgr::yellow, out_.color));
}

void InteractiveSession::key_command(const std::string& arg) {
    const bool clear = arg == "clear" || arg.rfind("clear ", 0) == 0;
    std::string named(trimmed(clear ? arg.substr(5) : arg));
    link_.call(ProvidersParams{}, [this, clear, named](const client::Typed<ProvidersParams>& r) {
        if (!r) return then_prompt(client::Reply{nullptr, r.error()});
        const std::string wanted = named.empty() ? r->current : named;
        const ProviderInfo* provider = nullptr;
        for (const ProviderInfo& p : r->providers)
            if (p.name == wanted) provider = &p;
        if (!provider) {
            print("No provider named " + shown(wanted) + "; /provider lists them.");
            return prompt();
        }
        if (provider->key == "not needed") {
            print(wanted + " takes no key. Switch first (/provider anthropic), or name one: "
                           "/key anthropic.");
            return prompt();
        }
        if (!clear) return store_key(*provider);
        link_.call(KeyClearParams{wanted}, [this, wanted](const client::Typed<KeyClearParams>& c) {
            if (!c) return then_prompt(client::Reply{nullptr, c.error()});
            print("Removed the stored " + wanted + " key.");
            prompt();
        });
    });
}

void InteractiveSession::store_key(const ProviderInfo& provider) {
    if (provider.key == "env")
        print(styled(provider.key_variable.value_or("The environment") +
                         " is set: while it is, that key is used, not one stored here.",
                     sgr::yellow, out_.color));
    print("Paste the " + provider.name +
          " key and press Enter; it is not shown. Enter alone keeps what there is.");
    const std::string name = provider.name;
    ask_secret("key: ", [this, name](std::string key) {
        if (trimmed(key).empty()) {
            print("No key stored.");
            return prompt();
        }
        link_.call(KeySetParams{name, std::string(trimmed(key))},
                   [this, name](const client::Typed<KeySetParams>& r) {
                       if (!r) return then_prompt(client::Reply{nullptr, r.error()});
                       print("Stored the " + name + " key, readable by you alone.");
                       prompt();
                   });
    });
}

void InteractiveSession::pick_model() {
    link_.call(StatusParams{}, [this](const client::Typed<StatusParams>& status) {
        const std::string current = status ? status->model : std::string();
        link_.call(ModelsParams{}, [this, current](const client::Typed<ModelsParams>& r) {
            if (!r || r->models.empty()) {
                print("model: " + shown(current) + "  (" +
                      (r ? std::string("the provider lists no models")
                         : "the model list could not be fetched: " + shown(r.error().message)) +
                      "; set one with /model ID)");
                return prompt();
            }
            std::vector<PickEntry> entries;
            for (const std::string& id : r->models)
                entries.push_back({id, id == current ? "in use" : ""});
            std::vector<std::string> models = r->models;
            print("Models of this provider:");
            pick(entries, "Use which? (number, Enter to keep " + current + ") ",
                 [this, models](std::size_t i) {
                     link_.request(op::agent_options_set,
                                   Json{{"name", "model"}, {"value", models[i]}},
                                   [this, model = models[i]](const client::Reply& set) {
                                       if (set.ok()) print("model: " + shown(model));
                                       then_prompt(set);
                                   });
                 });
        });
    });
}

void InteractiveSession::pick(const std::vector<PickEntry>& entries, const std::string& question,
                              std::function<void(std::size_t)> then) {
    print(pick_list_text(entries, out_.color));
    ask_pick(question, entries.size(), std::move(then));
}

void InteractiveSession::ask_pick(const std::string& question, std::size_t count,
                                  std::function<void(std::size_t)> then) {
    ask_line(question, [this, question, count, then = std::move(then)](std::string answer) {
        PickAnswer picked = read_pick(answer, count);
        if (picked.index) return then(*picked.index);
        if (picked.problem.empty()) return prompt();
        print(picked.problem);
        ask_pick(question, count, then);
    });
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
        link_.request(op::agent_stop, Json(StopParams{session_.state().turn}));
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

// The line under a finished turn: what it cost and how full the context is now.
std::string InteractiveSession::turn_summary() const {
    const client::SessionState& s = session_.state();
    std::string line = s.plan && s.plan->turn == s.turn ? client::plan_summary_text(*s.plan) : "";
    if (s.usage.turn == s.turn) line += (line.empty() ? "" : " · ") + client::usage_text(s.usage);
    if (s.context)
        line += (line.empty() ? "" : " · ") + std::string("context ") +
                client::context_text(*s.context);
    return line.empty() ? line : "(" + line + ")";
}

std::string InteractiveSession::status_text() const {
    const client::SessionState& s = session_.state();
    std::string text = s.provider + " · " + s.model + " · " +
                       std::string(client::mode_word(s.choice())) + " · session " + s.session;
    if (s.plan_model)
        text += "\nplans with: " + shown(s.plan_model->provider) + " · " +
                shown(s.plan_model->model.empty() ? "its model option" : s.plan_model->model);
    if (s.context) text += "\ncontext: " + client::context_text(*s.context);
    if (!s.session_problem.empty()) text += "\n" + s.session_problem;
    return text;
}

void InteractiveSession::prompt() {
    if (done_ || session_.state().busy || sending_) return;
    ask_line(std::string(client::mode_word(session_.state().choice())) + " ❯ ",
             [this](std::string line) { on_line(line); });
}

void InteractiveSession::ask_line(const std::string& question,
                                  std::function<void(std::string)> then) {
    stop_input();
    spinner_.hide();
    if (in_thinking_) std::cout << styled(thinking_.finish(), sgr::dim, out_.color);
    if (line_open_) {
        std::cout << "\n";
        line_open_ = in_thinking_ = false;
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

void InteractiveSession::ask_secret(const std::string& question,
                                    std::function<void(std::string)> then) {
    stop_input();
    spinner_.hide();
    raw_ = std::make_unique<RawKeys>(0); // echo off before the question invites typing
    input_ = Input::secret;
    secret_.clear();
    secret_escape_ = false;
    secret_then_ = std::move(then);
    std::cout << question << std::flush;
    watch_stdin();
}

void InteractiveSession::watch_stdin() {
    stdin_.async_wait(asio::posix::stream_descriptor::wait_read, [this](std::error_code ec) {
        if (!ec) stdin_ready();
    });
}

void InteractiveSession::stdin_ready() {
    if (input_ == Input::secret) return secret_ready();
    if (input_ != Input::key) return;
    char key = 0;
    if (::read(0, &key, 1) != 1) return quit(0);
    if (keys_.find(key) == std::string::npos) return watch_stdin();
    auto then = std::move(key_then_);
    stop_input();
    std::cout << key << "\n" << std::flush;
    then(key);
}

// Bytes as the terminal sends them with echo off: Enter ends the line, Backspace and Ctrl+U
// take back, escape sequences (a bracketed paste's markers, arrow keys) are dropped.
void InteractiveSession::secret_ready() {
    char bytes[256];
    ssize_t n = ::read(0, bytes, sizeof bytes);
    if (n <= 0) return quit(0);
    for (ssize_t i = 0; i < n; ++i) {
        const unsigned char c = static_cast<unsigned char>(bytes[i]);
        if (secret_escape_) {
            secret_escape_ = c == '[' || c < 0x40 || c > 0x7e; // up to the final byte
            continue;
        }
        if (c == '\r' || c == '\n') {
            std::string secret = std::exchange(secret_, std::string());
            auto then = std::move(secret_then_);
            stop_input();
            then(std::move(secret));
            return;
        }
        if (c == 0x1b)
            secret_escape_ = true;
        else if (c == 0x7f || c == 0x08) {
            if (!secret_.empty()) secret_.pop_back();
        } else if (c == 0x15)
            secret_.clear();
        else if (c >= 0x20)
            secret_.push_back(static_cast<char>(c));
    }
    watch_stdin();
}

void InteractiveSession::stop_input() {
    if (input_ == Input::line) {
        lines_.cancel();
        std::cout << "\n";
    }
    if (input_ == Input::secret) {
        secret_.clear();
        secret_then_ = nullptr;
        std::cout << "\n";
    }
    raw_.reset();
    std::error_code ignored;
    stdin_.cancel(ignored);
    input_ = Input::none;
}

void InteractiveSession::print(const std::string& text) {
    spinner_.hide();
    if (in_thinking_) std::cout << styled(thinking_.finish(), sgr::dim, out_.color);
    if (line_open_) {
        std::cout << "\n";
        line_open_ = in_thinking_ = false;
    }
    std::cout << text << "\n" << std::flush;
}

} // namespace rio
