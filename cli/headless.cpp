#include "cli/headless.hpp"

#include "cli/resume.hpp"
#include "cli/terminal_safe.hpp"
#include "cli/trace.hpp"
#include "client/trace_words.hpp"
#include "client/trust_question.hpp"
#include "client/user_commands.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>

namespace rio {
namespace {

// How long the first request waits for MCP servers that are still starting.
constexpr auto mcp_wait = std::chrono::seconds(30);

// "no model is connected …": what a headless run with only echo says, and how to go on.
std::string no_model_text(const ProvidersResult& providers) {
    std::string variables;
    for (const ProviderInfo& p : providers.providers)
        if (p.key_variable) variables += (variables.empty() ? "" : " or ") + *p.key_variable;
    return "no model is connected, so nothing can carry out the task (echo, which stands in, "
           "only repeats it). Connect one: set " +
           (variables.empty() ? std::string("a provider's key variable") : variables) +
           ", add a key in the desktop's Settings ▸ Providers, or store one with /key in "
           "rio-cli; or name a provider with --provider (--provider echo runs echo on purpose).";
}

} // namespace

HeadlessRun::HeadlessRun(asio::io_context& io, client::CoreLink& link, HeadlessOptions options,
                         Terminal out, Terminal err)
    : link_(link), mcp_timer_(io), options_(std::move(options)), out_(out), err_(err) {}

void HeadlessRun::start(std::function<void(int)> finish) {
    finish_ = std::move(finish);
    link_.on_event([this](const client::CoreEvent& event) { on_event(event); });
    link_.on_lost([this](const std::string& why) { connection_lost(why); });
    HelloParams hello;
    // A plan's receipt says where it was approved: here by the flag, not by a person.
    hello.client =
        "rio-cli -p" +
        (options_.approve_plans ? " --approve-plans " + *options_.approve_plans : std::string());
    link_.call(hello, [this](const client::Typed<HelloParams>& r) {
        if (!r) return fail(client::reply_of(r));
        if (r->root) root_ = *r->root;
        check_provider([this] {
            configure();
            wait_for_mcp([this] { resume_then([this] { begin(); }); });
        });
    });
}

// Over ssh the project is the far one: the local folder means nothing there.
std::string HeadlessRun::working_folder() const {
    return options_.remote.empty() ? std::filesystem::current_path().string() : root_;
}

void HeadlessRun::check_provider(std::function<void()> next) {
    link_.call(ProvidersParams{}, [this, next](const client::Typed<ProvidersParams>& providers) {
        if (!providers) return fail(client::Reply{nullptr, providers.error()});
        for (const ProviderInfo& p : providers->providers)
            if (p.active && p.key_variable)
                api_key_source_ = p.key == KeySource::env ? *p.key_variable : p.key.name();
        if (providers->current != "echo" || !providers->fallback) return next();
        std::string why = no_model_text(*providers);
        std::cerr << md::terminal_output("rio-cli: " + shown(why)) << "\n" << std::flush;
        error_ = {{"code", std::string(to_string(ErrorCode::not_configured))}, {"message", why}};
        claude_without_start(providers->model);
        end(exit_provider_error);
    });
}

void HeadlessRun::wait_for_mcp(std::function<void()> next) {
    link_.call(McpListParams{}, [this, next](const client::Typed<McpListParams>& list) {
        if (!list) return next(); // a core without MCP: nothing to wait for
        after_mcp_ = next;
        mcp_timer_.expires_after(mcp_wait);
        mcp_timer_.async_wait([this](std::error_code ec) {
            if (ec || !after_mcp_) return;
            std::string starting;
            for (const McpServerInfo& server : mcp_servers_)
                if (server.state == ServerState::starting)
                    starting += (starting.empty() ? "" : ", ") + shown(server.name);
            say("rio-cli: MCP servers still starting after " + std::to_string(mcp_wait.count()) +
                " s, without their tools: " + starting);
            std::exchange(after_mcp_, nullptr)();
        });
        mcp_changed(*list);
    });
}

void HeadlessRun::mcp_changed(const McpListResult& list) {
    mcp_servers_ = list.servers;
    const bool starting =
        std::any_of(list.servers.begin(), list.servers.end(), [](const McpServerInfo& server) {
            return server.state == ServerState::starting;
        });
    if (starting || !after_mcp_) return;
    mcp_timer_.cancel();
    std::exchange(after_mcp_, nullptr)();
}

// Trust and mode: requests the core answers in order, before the task is sent. With
// --trust-project the project is trusted as it is at this moment, and what that grants is
// said on stderr: the run's own answer names those files and their hashes.
void HeadlessRun::configure() {
    link_.call(ProjectTrustGetParams{}, [this](const client::Typed<ProjectTrustGetParams>& t) {
        if (!t || t->trusted || !client::trust_matters(*t)) return;
        if (!options_.trust_project) {
            say("rio-cli: this project is not trusted: every command asks first (so none runs "
                "in this run unless --allow-commands), its own allow-list and MCP servers do "
                "not apply, and no language server or MCP server of yours starts in it "
                "(--trust-project trusts it)");
            return;
        }
        for (const std::string& reason : client::trust_reasons(*t))
            say("rio-cli: trusting: " + shown(reason));
        link_.call(client::trust_answer(*t),
                   [this](const client::Typed<ProjectTrustSetParams>& set) {
                       if (!set) fail(client::reply_of(set));
                   });
    });
    if (options_.mode)
        link_.call(ModeSetParams{*options_.mode}, [this](const client::Typed<ModeSetParams>& m) {
            if (!m) fail(client::reply_of(m));
        });
}

void HeadlessRun::resume_then(std::function<void()> next) {
    if (!options_.resume) return next();
    resume_session(link_, *options_.resume, [this, next](const Result<SessionResumeResult>& r) {
        if (!r) return fail(client::Reply{nullptr, r.error()});
        if (r->warning) say("rio-cli: " + shown(*r->warning));
        say("resumed session " + shown(r->session.id) + " · " + shown(r->session.title));
        next();
    });
}

// Claude Code's init line needs the session, model and tools; then the task goes, or a
// resumed session's pending proposal is decided.
void HeadlessRun::begin() {
    link_.call(StatusParams{}, [this](const client::Typed<StatusParams>& status) {
        if (!status) return fail(client::Reply{nullptr, status.error()});
        session_ = status->session;
        link_.call(ToolsParams{},
                   [this, status = *status](const client::Typed<ToolsParams>& tools) {
                       if (options_.output == HeadlessOutput::claude_json ||
                           options_.output == HeadlessOutput::claude_stream) {
                           RunStart start{status.session,
                                          status.model,
                                          status.is(Mode::plan)    ? "plan"
                                          : options_.approve_edits ? "acceptEdits"
                                                                   : "default",
                                          working_folder(),
                                          {},
                                          mcp_servers_,
                                          api_key_source_};
                           if (tools)
                               for (const ToolInfo& t : tools->tools)
                                   start.tools.push_back(t.name);
                           claude_ = std::make_unique<ClaudeShapes>(start, began_);
                           if (options_.output == HeadlessOutput::claude_stream)
                               print_line(claude_->init());
                       }
                       if (!options_.task.empty()) return go_live();
                       live_ = true;
                       if (!status.pending) {
                           say("rio-cli: session " + shown(status.session) +
                               " has nothing waiting for a decision; give a task to continue it");
                           return end(exit_other);
                       }
                       turn_ = status.turn;
                       decide(*status.pending);
                   });
    });
}

void HeadlessRun::go_live() {
    live_ = true;
    auto send_text = [this] {
        link_.call(SendParams{options_.task}, [this](const client::Typed<SendParams>& s) {
            if (!s) return fail(client::Reply{nullptr, s.error()});
            turn_ = s->turn;
        });
    };
    // "/shout-it x" runs the user's or the project's command (DESIGN §23), as the
    // interactive session does; an unknown one is an error that names those there are. A path
    // ("/tmp/x is empty, why?") is no command's name and goes as written.
    auto call = client::command_call(options_.task);
    if (!call) return send_text();
    link_.call(*call, [this](const client::Typed<CommandsRunParams>& s) {
        if (!s) return fail(client::Reply{nullptr, s.error()});
        turn_ = s->turn;
    });
}

void HeadlessRun::claude_without_start(const std::string& model) {
    if (claude_ || (options_.output != HeadlessOutput::claude_json &&
                    options_.output != HeadlessOutput::claude_stream))
        return;
    claude_ = std::make_unique<ClaudeShapes>(
        RunStart{session_, model, "default", working_folder(), {}, {}, "none"}, began_);
}

void HeadlessRun::fail(const client::Reply& reply) {
    // A request the core never answered because it went away: the loss is what to say.
    if (link_.lost()) return connection_lost(reply.error->message);
    error_ = {{"code", std::string(to_string(reply.error->code))},
              {"message", reply.error->message}};
    say("rio-cli: " + shown(reply.error->message));
    end(exit_other);
}

// The core went away (killed, crashed, its connection dropped) before the run ended. Text
// mode's lines are every format's error, code connection_lost, with how to go on: the
// conversation is in the core's session file (decision 0072). They reach stderr in every
// format, so a script's log says why the run ended.
void HeadlessRun::connection_lost(const std::string& why) {
    if (ended_) return;
    // ssh failed before a far core answered: nothing was started, nothing to pick up (the
    // exit code says which failure, decision 0060).
    const bool never_connected = link_.failure().has_value();
    std::string hint;
    if (!never_connected && !options_.remote.empty())
        hint = client::far_resume_hint(options_.remote);
    else if (!never_connected && !session_.empty())
        hint = saved_session_hint(session_, root_);
    ErrorEvent lost{turn_.value_or(0), never_connected ? "connection_failed" : "connection_lost",
                    why + (hint.empty() ? "" : "; " + hint)};
    error_ = {{"code", lost.code}, {"message", lost.message}};
    for (const std::string& line : {why, hint}) {
        if (line.empty()) continue;
        if (options_.output == HeadlessOutput::text)
            say("rio-cli: " + shown(line));
        else
            std::cerr << md::terminal_output("rio-cli: " + shown(line)) << "\n" << std::flush;
    }
    // rio's event stream ends with it as the turn's error.
    if (options_.output == HeadlessOutput::events)
        print_line(Json{{"event", ErrorEvent::event}, {"params", Json(lost)}});
    claude_without_start("");
    // The exit code the process ends with (decision 0060), in the result objects too.
    end(never_connected ? remote_exit_code(link_.failure()->kind) : exit_other);
}

// Exit 10: the plan's declared steps are not all proven. Says which, on stderr.
bool HeadlessRun::unverified() {
    if (!plan_progress_ || !client::declared_step_unverified(*plan_progress_)) return false;
    say(styled("rio-cli: the work finished, but not every declared step is verified (exit 10):",
               sgr::yellow, err_.color));
    std::string steps = client::plan_steps_text(plan_progress_->steps);
    for (std::size_t at = 0, end; at < steps.size(); at = end + 1) {
        end = steps.find('\n', at);
        if (end == std::string::npos) end = steps.size();
        say(styled("  " + shown(steps.substr(at, end - at)), sgr::yellow, err_.color));
    }
    return true;
}

void HeadlessRun::end_after_turn(int code) {
    if (ending_) return;
    ending_ = true;
    link_.call(StatusParams{}, [this, code](const client::Typed<StatusParams>&) { end(code); });
}

void HeadlessRun::decide(const Proposal& p) {
    ApproveParams approve;
    approve.turn = turn_.value_or(p.turn);
    approve.id = p.id;
    approve.decision = Verdict::approve;
    if (p.is(ProposalKind::plan)) {
        if (!options_.approve_plans) {
            // DESIGN §9: the plan is filed; show it and leave it for a person to approve.
            plan_ = p;
            if (options_.output == HeadlessOutput::text) {
                if (line_open_) std::cout << "\n";
                const PlanProposal plan = p.as_plan();
                std::cout << md::terminal_output(plan_text(plan, out_.width, out_.color)) << "\n";
                if (!plan.path.empty())
                    std::cout << md::terminal_output("Plan filed: " + shown(plan.path)) << "\n";
                std::cout << std::flush;
            }
            // The plan stays pending in the session: a private core that exits now files
            // it as abandoned, and `--resume` proposes it again (DESIGN §14); a shared
            // core keeps it waiting for the person there.
            return end(exit_plan_waiting);
        }
        if (*options_.approve_plans == "never") return reject(p, "--approve-plans never");
        approve.policy = Wire<ApprovalPolicy>::named(*options_.approve_plans);
        std::size_t open = client::open_comment_count(p.as_plan().comments);
        say("approved " + proposal_words(p) + " (" + *options_.approve_plans + ")" +
            (open == 0 ? std::string()
                       : " with " + std::to_string(open) + (open == 1 ? " comment" : " comments") +
                             " still open"));
        link_.call(approve);
        return;
    }
    bool allowed = p.is(ProposalKind::edit) ? options_.approve_edits : options_.allow_commands;
    if (!allowed)
        return reject(p, p.is(ProposalKind::edit) ? "no --approve-edits" : "no --allow-commands");
    // --approve-edits agreed to the plan's edits, not to overwriting a change someone made
    // since the approval (issue 43): that needs a person who can see it.
    if (const EditProposal* edit = p.edit(); edit && edit->drift)
        return reject(p, edit->path + " changed since the plan was approved");
    link_.call(approve);
}

void HeadlessRun::reject(const Proposal& p, const std::string& why_for_user) {
    rejected_ = true;
    refusals_.push_back(
        {{"kind", p.kind().name()}, {"what", proposal_words(p)}, {"why", why_for_user}});
    say(styled("rejected " + proposal_words(p) + ": nobody can approve it in this run (" +
                   why_for_user + ")",
               sgr::yellow, err_.color));
    ApproveParams reject;
    reject.turn = turn_.value_or(p.turn);
    reject.id = p.id;
    reject.decision = Verdict::reject;
    reject.feedback = "Nobody can approve this in this non-interactive run (rio-cli -p, " +
                      why_for_user +
                      "), so it was not done. Continue without it if you can, and say in your "
                      "final answer what still needs a person.";
    link_.call(reject);
}

void HeadlessRun::end(int code) {
    if (ended_) return;
    ended_ = true;
    std::string answer = messages_.empty() ? "" : messages_.back().get<std::string>();
    if (line_open_ && options_.output == HeadlessOutput::text) std::cout << "\n";
    if (code == exit_plan_waiting && !session_.empty())
        say("rio-cli: the plan waits for approval in session " + shown(session_) +
            "; carry it out with: rio-cli -p --resume " + shown(session_) +
            " --approve-plans auto" +
            (options_.remote.empty() ? "" : " --connect " + client::shell_quote(options_.remote)));
    if (options_.output == HeadlessOutput::json)
        print_line(Json{{"exit_code", code},
                        {"session_id", session_},
                        {"turn", turn_ ? Json(*turn_) : Json(-1)},
                        {"result", answer},
                        {"messages", messages_},
                        {"plan", plan_},
                        {"rejected", refusals_},
                        {"error", error_},
                        {"context", context_},
                        {"receipt", receipt_}});
    if (claude_ && (options_.output == HeadlessOutput::claude_json ||
                    options_.output == HeadlessOutput::claude_stream)) {
        std::string result = !plan_.is_null() ? plan_.value("plan", answer) : answer;
        print_line(
            claude_->result(RunEnd{code, result, error_, plan_, refusals_, context_, receipt_}));
    }
    std::cout << std::flush;
    finish_(code);
}

} // namespace rio
