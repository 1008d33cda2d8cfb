// rio-cli's interactive session, deciding what the agent proposes: a plan shown, its
// revision diffed, commented on, edited in $EDITOR, approved or rejected; an edit or a
// command allowed or refused with a key.
#include "cli/interactive.hpp"
#include "cli/plan_review_text.hpp"
#include "cli/terminal_safe.hpp"
#include "cli/trace.hpp"
#include "text/trim.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>

namespace rio {
namespace {

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

} // namespace

void InteractiveSession::on_propose(const Proposal& p) {
    if (p.is(ProposalKind::plan)) return show_plan(p);
    auto decide = [this, p](char k) {
        if (k == 'y')
            approve(p, std::nullopt);
        else
            reject_with_reason(p);
    };
    if (const EditProposal* edit = p.edit()) {
        // Drift (issue 43): the file changed since the plan was approved, not by the agent.
        if (edit->drift) print(styled(shown(*edit->drift), sgr::yellow, out_.color));
        print(styled("Edit " + shown(edit->path), sgr::bold, out_.color) + "\n" +
              diff_text(*edit, width(), out_.color));
        return ask_key("[y] apply  [n] reject", "yn", decide);
    }
    if (const McpProposal* mcp = p.mcp()) {
        print("Call " + styled(shown(client::mcp_call_text(*mcp)), sgr::bold, out_.color));
        return ask_key("[y] call  [n] reject", "yn", decide);
    }
    const CommandProposal* command = p.command();
    if (!command) {
        print(styled("The core proposes a " + shown(p.kind().name()) +
                         ", which this rio-cli cannot show.",
                     sgr::bold, out_.color));
        return ask_key("[y] approve  [n] reject", "yn", decide);
    }
    print("Run " + command_text(*command, out_.color));
    // A sandboxed command may be let out for this one call (DESIGN §19); one that would run
    // unsandboxed anyway gets the plain question.
    if (!command->sandbox || command->sandbox->profile != SandboxProfile::workspace_write)
        return ask_key("[y] run  [n] reject", "yn", decide);
    // The hosts it asks for, once or for good, where they can be told apart (issue 45).
    const std::optional<SandboxState>& sandbox = session_.state().sandbox;
    const bool by_host = sandbox && sandbox->network == NetworkReach::by_host;
    if (std::string asked = client::asked_hosts_text(p); !asked.empty())
        print("  " + shown(asked) +
              (by_host ? ""
                       : " — this system cannot limit the network to some hosts (" +
                             shown(sandbox ? sandbox->network_reason.value_or("") : "") + ")"));
    const bool hosts = by_host && !command->hosts.empty();
    ask_key(std::string("[y] run  ") +
                (hosts ? "[h] with those hosts  [a] with them always  " : "") +
                "[w] with the network  [u] without the sandbox  [e] with my environment  [n] "
                "reject",
            hosts ? "yhawuen" : "ywuen", [this, p, decide, asked = command->hosts](char k) {
                CommandLet let;
                if (k == 'h' || k == 'a') let.network.items = asked;
                let.keep_hosts = k == 'a';
                let.network.everything = k == 'w';
                let.unsandboxed = k == 'u';
                let.environment = k == 'e';
                if (k == 'y' || k == 'n')
                    decide(k);
                else
                    approve_command(p, let);
            });
}

void InteractiveSession::show_plan(const Proposal& p) {
    comments_.clear();
    numbered_for_.clear();
    const PlanProposal plan = p.as_plan();
    threads_ = plan.comments;
    threads_for_ = plan.path;
    print("\n" + plan_text(plan, width(), out_.color));
    if (!plan.unknown_addresses.empty()) {
        std::string ids;
        for (const std::string& id : plan.unknown_addresses)
            ids += (ids.empty() ? "" : ", ") + shown(id);
        print(styled("(the plan says it addresses comments it does not have: " + ids + ")",
                     sgr::yellow, out_.color));
    }
    if (plan.revises.empty() || plan.path.empty()) return decide_plan(p);
    show_revision(p, [this, p] { decide_plan(p); });
}

// Both texts as filed (each with its title, neither with its review), so the diff shows what
// the model changed.
void InteractiveSession::show_revision(const Proposal& p, std::function<void()> then) {
    link_.call(PlansGetParams{p.as_plan().revises}, [this, p, then](
                                                        const client::Typed<PlansGetParams>& old) {
        link_.call(PlansGetParams{p.as_plan().path}, [this, old, then](
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
    bool filed = !p.as_plan().path.empty();
    bool notes = !comments_.empty();
    if (!threads_.empty()) print(threads_text(threads_, out_.color));
    if (notes) print(comments_text(comments_, out_.color));
    std::string choices = notes ? "[a] approve with notes, review each edit  [A] approve with "
                                  "notes, auto-accept edits  [f] approve in a fresh context  "
                                  "[r] request changes"
                                : "[a] approve, review each edit  [A] approve, auto-accept edits  "
                                  "[f] approve in a fresh context  [r] reject";
    choices += "  [c] comment";
    std::string keys = "aAfrc";
    if (!threads_.empty()) {
        choices += "  [t] reply or resolve";
        keys += 't';
    }
    if (filed) {
        choices += "  [e] edit the plan";
        keys += 'e';
    }
    ask_key(choices, keys, [this, p](char k) {
        if (k == 'a')
            approve_plan(p, ApprovalPolicy::review, false);
        else if (k == 'A')
            approve_plan(p, ApprovalPolicy::automatic, false);
        else if (k == 'f')
            approve_plan(p, ApprovalPolicy::review, true);
        else if (k == 'r')
            reject_with_reason(p);
        else if (k == 'c')
            comment_on(p);
        else if (k == 't')
            reply_or_resolve(p);
        else
            edit_plan(p);
    });
}

void InteractiveSession::approve_plan(const Proposal& p, ApprovalPolicy policy, bool fresh) {
    std::size_t open = client::open_comment_count(threads_);
    if (open == 0) return approve(p, policy, fresh);
    ask_key(std::to_string(open) + (open == 1 ? " comment is" : " comments are") +
                " still open — approve anyway?  [y] approve  [n] back",
            "yn", [this, p, policy, fresh](char k) {
                if (k == 'y')
                    approve(p, policy, fresh);
                else
                    decide_plan(p);
            });
}

void InteractiveSession::reply_or_resolve(const Proposal& p) {
    print(styled("Reply: c1 what you say · resolve c1 · Enter when done", sgr::dim, out_.color));
    ask_line("t ", [this, p](std::string line) {
        ThreadCommand command = read_thread_command(line);
        using Kind = ThreadCommand::Kind;
        if (command.kind == Kind::back) return decide_plan(p);
        if (command.kind == Kind::invalid) {
            print(styled(command.error, sgr::yellow, out_.color));
            return decide_plan(p);
        }
        // The core answers with the comment as it now is (plans.comments, which brings every
        // client the threads, may come after the answer).
        auto then = [this, p](const Result<ReviewComment>& r) {
            if (!r) print("rio-cli: " + shown(r.error().message));
            for (ReviewComment& c : threads_)
                if (r && c.id == r->id) c = *r;
            decide_plan(p);
        };
        if (command.kind == Kind::resolve)
            return link_.call(PlansCommentResolveParams{threads_for_, command.id}, then);
        link_.call(PlansCommentReplyParams{threads_for_, command.id, command.text}, then);
    });
}

void InteractiveSession::comment_on(const Proposal& p) {
    std::string plan = p.as_plan().plan;
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
    std::string rel = p.as_plan().path;
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
        if (auto* plan = std::get_if<PlanProposal>(&shown.body); plan && r) plan->plan = r->body;
        numbered_for_.clear(); // the lines are the edited plan's now
        print("\n" + plan_text(shown.as_plan(), width(), out_.color));
        decide_plan(shown);
    });
}

void InteractiveSession::approve(const Proposal& p, std::optional<ApprovalPolicy> policy,
                                 bool fresh) {
    ApproveParams params;
    params.turn = p.turn ? p.turn : session_.state().turn;
    params.id = p.id;
    params.decision = Verdict::approve;
    if (policy) params.policy = *policy;
    if (p.is(ProposalKind::plan) && !comments_.empty()) params.comments = comments_;
    if (fresh) params.fresh = true;
    link_.call(params,
               [this](const client::Typed<ApproveParams>& r) { report(client::reply_of(r)); });
}

void InteractiveSession::approve_command(const Proposal& p, const CommandLet& let) {
    ApproveParams params;
    params.turn = p.turn ? p.turn : session_.state().turn;
    params.id = p.id;
    params.decision = Verdict::approve;
    if (let.network.any()) params.network = let.network;
    if (let.keep_hosts) params.keep_hosts = true;
    if (let.unsandboxed) params.unsandboxed = true;
    if (let.environment) params.environment = true;
    link_.call(params,
               [this](const client::Typed<ApproveParams>& r) { report(client::reply_of(r)); });
}

void InteractiveSession::reject_with_reason(const Proposal& p) {
    ask_line("reason (optional, Enter to skip): ", [this, p](std::string reason) {
        ApproveParams params;
        params.turn = p.turn ? p.turn : session_.state().turn;
        params.id = p.id;
        params.decision = Verdict::reject;
        if (!trimmed(reason).empty()) params.feedback = std::string(trimmed(reason));
        if (p.is(ProposalKind::plan) && !comments_.empty()) params.comments = comments_;
        link_.call(params,
                   [this](const client::Typed<ApproveParams>& r) { report(client::reply_of(r)); });
    });
}

} // namespace rio
