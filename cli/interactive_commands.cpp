// rio-cli's interactive session, its slash commands: modes, /status, /undo, /output,
// providers, keys and models, plans, steps, sessions, MCP servers and problems.
#include "cli/interactive.hpp"
#include "cli/resume.hpp"
#include "cli/terminal_safe.hpp"
#include "cli/trace.hpp"
#include "client/problems.hpp"
#include "client/user_commands.hpp"
#include "text/trim.hpp"

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <utility>

namespace rio {
namespace {

const char* help_text = "Type a task and press Enter. Commands:\n"
                        "  /plan      plan mode: the agent investigates and presents a plan first\n"
                        "  /review    build mode; you review each edit\n"
                        "  /auto      build mode; edits are applied without asking\n"
                        "  /build     build mode, keeping the current edit policy\n"
                        "  Shift+Tab  at the prompt: the next mode, plan → review → auto\n"
                        "  /stop      stop the running turn (also Ctrl+C)\n"
                        "  /clear     clear the conversation\n"
                        "  /compact [INSTRUCTIONS]  make the conversation smaller: old tool "
                        "outputs cleared, older turns summarized\n"
                        "  /status    the provider, model, mode, session and how full the "
                        "context is\n"
                        "  /undo [TURN]  put back what the agent's edits of the last turn (or "
                        "TURN) replaced\n"
                        "  /rewind    return to an earlier message: the conversation and the "
                        "agent's edits after it\n"
                        "  /output [N]   all that command N (default: the last) printed\n"
                        "  /provider [NAME [WIRE]]  show or switch the provider; openai's "
                        "WIRE is chat, responses or auto\n"
                        "  /key [clear] [NAME]  store the provider's API key (typed unseen), or "
                        "remove it\n"
                        "  /model [ID]        pick the model from the provider's list, or set it\n"
                        "  /model plan PROVIDER [ID] | off  who answers in plan mode; the "
                        "model above takes over at approval\n"
                        "  /plans     list the plans filed in this project, and show one\n"
                        "  /steps     the approved plan's steps and how far they came\n"
                        "  /check N   run step N's check again\n"
                        "  /sessions  list this project's conversations, and continue one\n"
                        "  /mcp [restart NAME]  the MCP servers, their state and tools\n"
                        "  /problems [PATH]  errors and warnings the language servers report\n"
                        "  /diff [PATH...]  what changed against git's HEAD, unsaved edits "
                        "included\n"
                        "  /help      this text;  /quit (or Ctrl+D, or Ctrl+C twice) to leave";

} // namespace

void InteractiveSession::choose_mode(client::ModeChoice choice) {
    const client::ModeRequests requests = client::mode_requests(choice);
    if (requests.auto_accept)
        link_.call(*requests.auto_accept, [this](const client::Typed<AutoAcceptSetParams>& set) {
            if (!set) return report(client::Reply{nullptr, set.error()});
            session_.apply_auto_accept(set->on);
        });
    set_mode(requests.mode);
}

void InteractiveSession::set_mode(const ModeSetParams& mode) {
    link_.call(mode, [this](const client::Typed<ModeSetParams>& set) {
        if (set) session_.apply(*set);
        then_prompt(set ? client::Reply{} : client::Reply{nullptr, set.error()});
    });
}

void InteractiveSession::command(const std::string& line) {
    std::string name = line.substr(0, line.find(' '));
    std::string arg = line.find(' ') == std::string::npos
                          ? ""
                          : std::string(trimmed(line.substr(line.find(' '))));
    auto prompt_after = [this](const auto& typed) { then_prompt(client::reply_of(typed)); };
    if (name == "/quit" || name == "/exit") return quit(0);
    if (name == "/help") return show_help();
    if (name == "/plan") return choose_mode(client::ModeChoice::plan);
    if (name == "/review") return choose_mode(client::ModeChoice::review);
    if (name == "/auto") return choose_mode(client::ModeChoice::auto_accept);
    if (name == "/build") return set_mode(ModeSetParams{std::string(to_wire(Mode::build))});
    if (name == "/stop") return link_.call(StopParams{}, {prompt_after});
    if (name == "/clear") return link_.call(ResetParams{}, {prompt_after});
    if (name == "/compact") {
        CompactParams compact;
        if (!arg.empty()) compact.instructions = arg;
        print(styled("(compacting…)", sgr::dim, out_.color));
        // Like a message: the prompt comes back with the status that ends the compaction.
        sending_ = true;
        return link_.call(compact, [this](const client::Typed<CompactParams>& r) {
            if (r) return;
            sending_ = false;
            then_prompt(client::reply_of(r));
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
    if (name == "/rewind") return rewind();
    if (name == "/output") return show_output(arg);
    if (name == "/provider") {
        if (const std::size_t space = arg.find(' '); space != std::string::npos)
            return switch_wire(arg.substr(0, space), arg.substr(arg.find_first_not_of(' ', space)));
        if (!arg.empty())
            return link_.call(ProviderSetParams{arg, std::nullopt},
                              [this](const client::Typed<ProviderSetParams>& r) {
                                  if (!r) return then_prompt(client::Reply{nullptr, r.error()});
                                  // Issue 46: a switch says where it landed, not nothing.
                                  print("Provider: " + shown(r->current) +
                                        (r->model.empty() ? "" : " · model " + shown(r->model)));
                                  say_if_not_ready(*r);
                                  prompt();
                              });
        return link_.call(ProvidersParams{}, [this](const client::Typed<ProvidersParams>& r) {
            if (!r) return then_prompt(client::reply_of(r));
            std::string out;
            for (const ProviderInfo& p : r->providers)
                out += std::string(p.active ? "* " : "  ") + shown(p.name) +
                       "  (key: " + shown(p.key.name()) + ")  " + shown(p.description) + "\n";
            print(out + "Switch with /provider NAME; /provider openai responses speaks OpenAI's "
                        "Responses API (chosen by itself for the Codex and pro models).");
            prompt();
        });
    }
    if (name == "/key") return key_command(arg);
    if (name == "/model") {
        if (arg == "plan" || arg.rfind("plan ", 0) == 0) return set_plan_model(arg.substr(4));
        if (!arg.empty())
            return link_.call(OptionsSetParams{std::nullopt, "model", arg}, {prompt_after});
        return pick_model();
    }
    if (name == "/plans") return list_plans();
    if (name == "/steps") return show_steps();
    if (name == "/check") return check_step(arg);
    if (name == "/sessions") return list_sessions();
    if (name == "/mcp") return list_mcp(arg);
    if (name == "/problems") return list_problems(arg);
    if (name == "/diff") return show_git_diff(arg);
    if (auto call = client::command_call(line)) return run_command(*call);
    print("Unknown command " + name + "; /help lists them.");
    prompt();
}

// Issue 49: `/provider openai responses` — the provider, then the API it speaks ("auto": chosen
// by the model).
void InteractiveSession::switch_wire(const std::string& provider, const std::string& wire) {
    if (wire != "chat" && wire != "responses" && wire != "auto") {
        print("The wire is chat, responses or auto, not " + shown(wire) + ".");
        return prompt();
    }
    // Checked before switching, so a refusal leaves the provider as it was.
    if (provider != "openai") {
        print("Only openai has a wire to choose; /provider " + shown(provider) + " switches.");
        return prompt();
    }
    link_.call(ProviderSetParams{provider, std::nullopt},
               [this, wire](const client::Typed<ProviderSetParams>& set) {
                   if (!set) return then_prompt(client::Reply{nullptr, set.error()});
                   OptionsSetParams option{std::nullopt, "wire", wire == "auto" ? "" : wire};
                   link_.call(option, [this, set = *set](const client::Typed<OptionsSetParams>& r) {
                       if (!r) return then_prompt(client::Reply{nullptr, r.error()});
                       std::string speaks;
                       for (const OptionInfo& o : r->options)
                           if (o.name == "wire") speaks = o.value;
                       print("Provider: " + shown(set.current) +
                             (set.model.empty() ? "" : " · model " + shown(set.model)) +
                             " · wire " + shown(speaks));
                       say_if_not_ready(set);
                       prompt();
                   });
               });
}

void InteractiveSession::rewind() {
    link_.call(HistoryParams{}, [this](const client::Typed<HistoryParams>& history) {
        if (!history) return then_prompt(client::Reply{nullptr, history.error()});
        std::vector<PickEntry> entries;
        std::vector<std::uint64_t> turns;
        for (const HistoryMessage& m : history->messages)
            if (m.turn) {
                entries.push_back(
                    {client::first_line(m.text, 70), "turn " + std::to_string(*m.turn)});
                turns.push_back(*m.turn);
            }
        if (entries.empty()) {
            print("Nothing to rewind to: no message of yours is in this conversation (a "
                  "compaction or a fresh context may have summarized them).");
            return prompt();
        }
        pick(entries, "Rewind to before which? (number, Enter for none) ",
             [this, turns](std::size_t i) { rewind_to(turns[i], false); });
    });
}

void InteractiveSession::rewind_to(std::uint64_t turn, bool overwrite) {
    RewindParams preview{turn, true, std::nullopt, overwrite};
    link_.call(preview, [this, turn, overwrite](const client::Typed<RewindParams>& seen) {
        if (!seen) return then_prompt(client::Reply{nullptr, seen.error()});
        std::string text = "Rewinding to before \"" + shown(client::first_line(seen->text, 70)) +
                           "\" drops " + std::to_string(seen->messages) +
                           " entries of the "
                           "conversation" +
                           (seen->withdrawn ? " and ends what is running or waiting" : "") + ".";
        bool conflicts = false;
        for (const RewindFile& f : seen->files) {
            text += "\n  " +
                    std::string(f.action == RewindAction::remove ? "delete  " : "restore ") +
                    shown(f.path) + (f.changed ? "   (" + shown(*f.changed) + " since)" : "");
            conflicts = conflicts || f.changed;
        }
        for (const RewindKept& k : seen->kept)
            text += "\n  " + styled("not put back: " + shown(k.path) + " — " + shown(k.why),
                                    sgr::yellow, out_.color);
        print(text);
        const std::string question = conflicts && !overwrite
                                         ? "[y] rewind, putting back the changed files too  "
                                           "[c] conversation only  [n] no"
                                         : "[y] rewind  [n] no";
        ask_key(question, conflicts ? "ycn" : "yn", [this, turn, conflicts](char key) {
            if (key == 'n') return prompt();
            RewindParams run{turn, std::nullopt, key == 'c' ? std::optional(false) : std::nullopt,
                             conflicts && key == 'y' ? std::optional(true) : std::nullopt};
            own_rewind_ = turn;
            link_.call(run, [this](const client::Typed<RewindParams>& done) {
                if (!done) {
                    own_rewind_.reset(); // nothing was rewound: another client's may show
                    return then_prompt(client::Reply{nullptr, done.error()});
                }
                print(styled("(rewound: " + std::to_string(done->files.size()) +
                                 (done->files.size() == 1 ? " file" : " files") +
                                 " put back; your message is at the prompt)",
                             sgr::dim, out_.color));
                typed_ahead_ = done->text;
                prompt();
            });
        });
    });
}

void InteractiveSession::show_help() {
    link_.call(CommandsListParams{}, [this](const client::Typed<CommandsListParams>& listed) {
        std::string text = help_text;
        if (listed && !listed->commands.empty()) {
            text += "\n\nYour commands and the project's:";
            for (const CommandInfo& c : listed->commands)
                text += "\n  " + shown(client::command_line(c));
        }
        if (listed)
            for (const std::string& note : listed->notes)
                text += "\n  (" + shown(note) + ")";
        print(text);
        prompt();
    });
}

void InteractiveSession::run_command(const CommandsRunParams& run) {
    sending_ = true;
    if (out_.tty && ::isatty(0)) quiet_keys_.emplace(0);
    spinner_.begin_turn();
    busy_line();
    link_.call(run, [this, name = run.name](const client::Typed<CommandsRunParams>& r) {
        if (r) return;
        sending_ = false;
        spinner_.hide();
        quiet_keys_.reset();
        print(r.error().code == ErrorCode::not_found
                  ? "Unknown command /" + shown(name) + "; /help lists them."
                  : "rio-cli: " + shown(r.error().message));
        prompt();
    });
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
                std::string why = shown(r.error().message);
                if (!why.empty()) why[0] = static_cast<char>(std::toupper(why[0]));
                print(styled(why, sgr::yellow, out_.color));
                return prompt();
            }
            std::string done;
            auto list = [](const std::vector<std::string>& paths) {
                std::string out;
                for (const std::string& path : paths)
                    out += (out.empty() ? "" : ", ") + shown(path);
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
    link_.call(PlansListParams{}, [this](const client::Typed<PlansListParams>& listed) {
        if (!listed) return then_prompt(client::Reply{nullptr, listed.error()});
        std::vector<PickEntry> entries;
        std::vector<std::string> paths;
        for (const PlanInfo& p : listed->plans) {
            entries.push_back({p.title, p.status + " · " + p.path});
            paths.push_back(p.path);
        }
        if (entries.empty()) {
            print("No plans filed yet.");
            return prompt();
        }
        print("Plans filed in this project, newest first:");
        pick(entries, "Show which? (number, Enter for none) ", [this, paths](std::size_t i) {
            link_.call(PlansGetParams{paths[i]}, [this](const client::Typed<PlansGetParams>& r) {
                if (!r) return then_prompt(client::Reply{nullptr, r.error()});
                print("\n" +
                      plan_text(PlanProposal{r->title, r->body, r->path, "", "",
                                             r->declared.value_or(std::vector<DeclaredStep>{})},
                                width(), out_.color) +
                      styled(r->status.empty() ? "" : "(" + shown(r->status) + ")", sgr::dim,
                             out_.color));
                if (r->steps) {
                    print(plan_steps_lines(*r->steps, width()));
                    if (r->warning)
                        print(styled("(" + shown(*r->warning) + ")", sgr::yellow, out_.color));
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
        print(plan_steps_lines(s.plan->steps, width()) +
              styled("(" + client::plan_summary_text(*s.plan) + ")", sgr::dim, out_.color));
        return prompt();
    }
    if (!s.plan_tally || s.plan_tally->path.empty()) {
        print("No plan was approved in this conversation.");
        return prompt();
    }
    link_.call(PlansGetParams{s.plan_tally->path}, [this](const client::Typed<PlansGetParams>& r) {
        if (!r) return then_prompt(client::Reply{nullptr, r.error()});
        print(plan_steps_lines(r->steps.value_or(std::vector<PlanStep>{}), width()));
        if (r->warning) print(styled("(" + shown(*r->warning) + ")", sgr::yellow, out_.color));
        prompt();
    });
}

// Issue 43: a person runs a step's check again; plans.progress brings the checklist along.
void InteractiveSession::check_step(const std::string& arg) {
    char* end = nullptr;
    unsigned long long step = std::strtoull(arg.c_str(), &end, 10);
    if (arg.empty() || *end != '\0' || step == 0) {
        print("Which step? /check N runs step N's check again (/steps lists them).");
        return prompt();
    }
    print(styled("running step " + std::to_string(step) + "'s check…", sgr::dim, out_.color));
    link_.call(PlansCheckParams{step}, [this](const client::Typed<PlansCheckParams>& r) {
        if (!r) return then_prompt(client::Reply{nullptr, r.error()});
        print(styled(shown(client::recheck_text(*r)),
                     r->is(StepStatus::failed) ? sgr::red : sgr::green, out_.color));
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
            // None known may be none started: in a project nobody trusted they wait.
            return link_.call(LspListParams{}, [this, path](const client::Typed<LspListParams>& l) {
                bool waiting = l && std::any_of(l->servers.begin(), l->servers.end(),
                                                [](const LspServerInfo& server) {
                                                    return server.state == ServerState::untrusted;
                                                });
                if (waiting)
                    print("No problems known: language servers start when you trust this "
                          "project.");
                else
                    print(path.empty() ? "No problems: the language servers report none in the "
                                         "files they have seen."
                                       : "No problems reported for " + path + ".");
                prompt();
            });
        }
        std::string out;
        for (const std::string& line : client::problem_lines(problems, max_lines))
            out += md::terminal_safe(line, md::Whitespace::inline_text) + "\n";
        print(out + problems.summary() + ".");
        prompt();
    });
}

// /diff [PATH...]: the project's changes against HEAD (git.diff), coloured as an edit's.
void InteractiveSession::show_git_diff(const std::string& paths) {
    GitDiffParams params;
    std::istringstream words(paths);
    for (std::string path; words >> path;) {
        if (!params.paths) params.paths.emplace();
        params.paths->push_back(path);
    }
    link_.call(params, [this](const client::Typed<GitDiffParams>& r) {
        if (!r) return then_prompt(client::Reply{nullptr, r.error()});
        if (r->problem) {
            print("No changes shown: " + shown(*r->problem));
            return prompt();
        }
        if (!r->repository) {
            print("No changes to show: this project is not in a git repository.");
            return prompt();
        }
        std::string out;
        for (const GitDiffFile& file : r->files)
            out += diff_text(file.diff, width(), out_.color);
        const std::string head = r->head == GitHead::unborn ? "no commit yet on " + shown(r->branch)
                                 : r->head == GitHead::detached
                                     ? "HEAD " + r->commit + " (detached)"
                                     : shown(r->branch) + " " + r->commit;
        const std::size_t n = r->files.size();
        out += styled(n == 0   ? "No changes against " + head + "."
                      : n == 1 ? "1 file changed against " + head + "."
                               : std::to_string(n) + " files changed against " + head + ".",
                      sgr::dim, out_.color);
        if (r->truncated) out += " More files differ than one answer lists.";
        print(out);
        prompt();
    });
}

void InteractiveSession::say_if_not_ready(const ProvidersResult& providers) {
    for (const ProviderInfo& p : providers.providers)
        if (p.active && !p.ready)
            print(styled(shown(p.name) + " has no key yet: store one with /key (or set " +
                             shown(p.key_variable.value_or("its key variable")) + ").",
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
        if (provider->key == KeySource::not_needed) {
            print(shown(wanted) + " takes no key. Switch first (/provider anthropic), or name one: "
                                  "/key anthropic.");
            return prompt();
        }
        if (!clear) return store_key(*provider);
        link_.call(KeyClearParams{wanted}, [this, wanted](const client::Typed<KeyClearParams>& c) {
            if (!c) return then_prompt(client::Reply{nullptr, c.error()});
            print("Removed the stored " + shown(wanted) + " key.");
            prompt();
        });
    });
}

void InteractiveSession::store_key(const ProviderInfo& provider) {
    if (provider.key == KeySource::env)
        print(styled(shown(provider.key_variable.value_or("The environment")) +
                         " is set: while it is, that key is used, not one stored here.",
                     sgr::yellow, out_.color));
    print("Paste the " + shown(provider.name) +
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
                       print("Stored the " + shown(name) + " key, readable by you alone.");
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
            pick(entries, "Use which? (number, Enter to keep " + shown(current) + ") ",
                 [this, models](std::size_t i) {
                     link_.call(
                         OptionsSetParams{std::nullopt, "model", models[i]},
                         [this, model = models[i]](const client::Typed<OptionsSetParams>& set) {
                             if (set) print("model: " + shown(model));
                             then_prompt(client::reply_of(set));
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

} // namespace rio
