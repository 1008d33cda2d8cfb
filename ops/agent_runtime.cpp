#include "ops/agent_runtime.hpp"

#include "agent_tools/plan_files.hpp"
#include "agent_tools/step_check.hpp"
#include "core/agent/plan_receipt.hpp"
#include "core/agent/plan_report.hpp"
#include "core/changed_paths.hpp"
#include "host/files/project_file.hpp"
#include "host/store/definition_files.hpp"
#include "host/store/plan_comments_store.hpp"
#include "host/store/plan_store.hpp"
#include "host/store/prompt_files.hpp"
#include "host/store/redact.hpp"
#include "ops/session_catalog.hpp"
#include "ops/undo.hpp"
#include "text/size_text.hpp"

#include <asio/post.hpp>
#include <set>

namespace rio {

AgentRuntime::AgentRuntime(asio::io_context& io, Workspace& workspace, Emit emit,
                           ProviderRegistry& providers, UserDirs dirs, McpServers& mcp,
                           EditorReader& editor, LspServers* lsp)
    : io_(io), emit_(emit), providers_(providers), mcp_(mcp),
      checks_(io, lsp), context_{workspace,
                                 emit,
                                 checkpoints_,
                                 changes_,
                                 io,
                                 std::move(dirs),
                                 [] { return std::chrono::system_clock::now(); },
                                 ProviderRegistry::key_variables(),
                                 &mcp,
                                 &editor,
                                 lsp,
                                 &checks_,
                                 false,
                                 false},
      loop_(all_tools()),
      subagents_(SubagentHost{io, emit, providers, context_,
                              [this](const CallProvider& call) { return request_for(call); },
                              [this] { return all_tools(); },
                              [this]() -> const AgentLoop& { return loop_; }}),
      recorder_(context_.dirs, context_.now,
                [this](std::string& line) { redact(line, providers_.secrets()); }) {
    Effects before_any_client; // nobody is connected yet to hear this status
    loop_.set_provider(providers_.current(), providers_.model(), providers_.planner(),
                       before_any_client);
    told_session_ = recorder_.id();
    loop_.set_session(told_session_, "", before_any_client);
    update_budget(before_any_client);
    mcp_.on_tools_changed([this] { loop_.set_tools(all_tools()); });
    context_.subagent = [this](const RunTool& run, const ToolReportFn& report) {
        return subagents_.answer(run, report);
    };
}

void AgentRuntime::start_in(Mode mode) {
    start_mode_ = mode;
    Effects before_any_client; // nobody is connected yet to hear of it
    loop_.set_mode(mode, before_any_client);
}

void AgentRuntime::sandbox_commands(const SandboxSupport& support, const SandboxSetting& setting) {
    sandbox_support_ = support;
    Effects before_any_client; // nobody is connected yet to hear of it
    loop_.set_sandbox(sandbox_state(setting), before_any_client);
}

Status AgentRuntime::keep_hosts(const std::vector<std::string>& hosts) {
    if (Status kept = keep_standing_hosts(context_.dirs, hosts); !kept) return kept;
    SandboxState state = sandbox_state(configured_sandbox(context_.dirs));
    act([&](AgentLoop& l, Effects& out) {
        l.set_sandbox(std::move(state), out);
        return 0;
    });
    return Ok{};
}

SandboxState AgentRuntime::sandbox_state(const SandboxSetting& setting) {
    const SandboxSupport& support = sandbox_support_;
    SandboxState state{support.available && setting.on, support.abi, support.reason};
    if (support.available && !setting.on)
        state.reason = "turned off in your settings (\"sandbox\": false in " +
                       context_.dirs.settings_file().string() + ")";
    context_.commands_sandboxed = state.available;
    // Decision 0080: a mount namespace where there is one and the user did not say no.
    context_.commands_in_namespace =
        state.available && setting.namespaces && support.namespaces.kind != NamespaceKind::none;
    if (state.available) {
        const bool ns = context_.commands_in_namespace;
        state.top_level = ns ? TopLevelWrites::writable : TopLevelWrites::split;
        state.top_level_reason = ns ? ""
                                 : !setting.namespaces
                                     ? "mount namespaces turned off in your settings (\"sandbox\": "
                                       "{\"namespace\": false} in " +
                                           context_.dirs.settings_file().string() + ")"
                                     : "no mount namespace: " + support.namespaces.reason;
        const SandboxLimits limits = sandbox_limits(setting);
        state.tmpdir =
            ns ? "a tmpfs of its own: at most " + size_text(limits.tmpdir_bytes) + " and " +
                     std::to_string(limits.tmpdir_files) +
                     " files (sandbox.tmpdir_size, sandbox.tmpdir_files in config.json)"
               : "a folder of its own under the system's temporary folder: each file at most the "
                 "file size limit (RLIMIT_FSIZE), all of them together bounded only by that "
                 "disk";
        const CgroupSupport& cgroups = support.cgroups;
        const std::string group = cgroups.kind == CgroupKind::v2   ? "cgroup v2"
                                  : cgroups.kind == CgroupKind::v1 ? "cgroup v1"
                                                                   : "";
        std::vector<std::string> lines;
        lines.push_back(
            "memory: " + size_text(limits.memory) +
            (group.empty()
                 ? " for each process (RLIMIT_DATA: no cgroup here, " + cgroups.reason + ")"
                 : " for all of its processes together (" + group + " memory controller)") +
            "; sandbox.memory in config.json");
        lines.push_back(
            "processes: " + std::to_string(limits.processes) + " at once" +
            (group.empty() ? " above what already runs (RLIMIT_NPROC, which does not hold for root)"
                           : " (" + group + " pids controller)") +
            "; sandbox.processes in config.json");
        lines.push_back("CPU time: the command's timeout times the cores, plus 5 s (RLIMIT_CPU)");
        lines.push_back("file size: 1 GiB in plan mode, 16 GiB in build mode (RLIMIT_FSIZE)");
        state.limits = std::move(lines);
        // Issue 45: hosts are told apart in the command's own network namespace, with or
        // without its mount namespace.
        const bool by_host = support.namespaces.kind != NamespaceKind::none;
        state.network = by_host ? NetworkReach::by_host : NetworkReach::all_or_nothing;
        state.network_reason =
            by_host ? "" : "no network namespace for commands: " + support.namespaces.reason;
        if (!setting.hosts.empty()) state.hosts = setting.hosts;
    }
    return state;
}

std::vector<ToolSpec> AgentRuntime::all_tools() const {
    std::vector<ToolSpec> tools = tool_specs();
    for (ToolSpec& spec : mcp_.tool_specs())
        tools.push_back(std::move(spec));
    return tools;
}

std::string AgentRuntime::project() const {
    return context_.workspace.root ? context_.workspace.root->string() : std::string();
}

void AgentRuntime::record() {
    recorder_.sync(loop_, project());
    if (recorder_.id() == told_session_ && recorder_.problem() == told_problem_) return;
    told_session_ = recorder_.id();
    told_problem_ = recorder_.problem();
    Effects effects;
    loop_.set_session(told_session_, told_problem_, effects);
    perform(effects);
}

Result<SessionResumeResult> AgentRuntime::resume(const std::string& id) {
    auto opened = open_session(context_.dirs, id, project());
    if (!opened) return opened.error();
    SessionResumeResult result{session_info(opened->replay.session), 0, std::nullopt};
    if (!opened->warning.empty()) result.warning = opened->warning;
    if (id != recorder_.id()) {
        park_checkpoints();
        recorder_.adopt(opened->replay.session, std::move(opened->writer));
        act([&](AgentLoop& loop, Effects& out) {
            loop.restore(std::move(opened->replay.session), out);
            return 0;
        });
        unpark_checkpoints();
    }
    result.messages = loop_.history().size();
    return result;
}

Result<UndoneEvent> AgentRuntime::undo(std::uint64_t turn, const std::optional<std::string>& path) {
    if (turn == 0 || turn > loop_.turn())
        return make_error(ErrorCode::not_found,
                          "there is no turn " + std::to_string(turn) + " in this conversation" +
                              (loop_.turn() == 0
                                   ? std::string()
                                   : " (its last is turn " + std::to_string(loop_.turn()) + ")"));
    return undo_turn(context_.workspace, checkpoints_, emit_, turn, path);
}

Result<RewindResult> AgentRuntime::rewind(const RewindParams& p) {
    auto target = loop_.rewind_target(p.turn);
    if (!target) return target.error();
    const bool with_files = p.files.value_or(true);
    RewindResult result{p.turn, target->text, target->dropped, {}, {}, target->withdrawn, false};
    if (with_files) {
        auto files = rewind_files(context_.workspace, checkpoints_, p.turn);
        if (!files) return files.error();
        result.files = std::move(*files);
    }
    std::set<std::string> others;
    for (auto it = changed_in_turn_.lower_bound(p.turn); it != changed_in_turn_.end(); ++it)
        others.insert(it->second.begin(), it->second.end());
    for (const RewindFile& f : result.files)
        others.erase(f.path);
    for (const Checkpoints::Span& span : checkpoints_.since(p.turn))
        others.erase(span.prior.path);
    for (const std::string& path : others)
        result.kept.push_back(
            {path == "." ? "the project" : path,
             path == "."
                 ? "too many files changed at once to tell apart; rewind puts back only what the "
                   "agent's edits wrote"
                 : "changed after that message, not through the agent's edits (a command's "
                   "writes, or outside rio): rewind cannot put it back"});
    for (std::uint64_t turn : checkpoints_.dropped_since(p.turn))
        result.kept.push_back({"(turn " + std::to_string(turn) + ")",
                               "its files' earlier texts were dropped to bound memory: what its "
                               "edits wrote stays"});
    if (p.preview.value_or(false)) return result;
    std::vector<std::string> changed;
    for (const RewindFile& f : result.files)
        if (f.changed) changed.push_back(f.path + " " + *f.changed);
    if (with_files && !changed.empty() && !p.overwrite.value_or(false)) {
        std::string list;
        for (std::size_t i = 0; i < changed.size(); ++i)
            list += (i == 0 ? "" : i + 1 == changed.size() ? " and " : ", ") + changed[i];
        return make_error(ErrorCode::conflict,
                          "nothing was rewound: since the agent wrote them, " + list +
                              "; rewind with overwrite to put the agent's earlier texts back "
                              "anyway, or rewind the conversation only (files: false)");
    }
    if (with_files && !result.files.empty())
        if (auto put = put_back_since(context_.workspace, checkpoints_, emit_, p.turn); !put)
            return put.error();
    changes_.forget_since(p.turn);
    changed_in_turn_.erase(changed_in_turn_.lower_bound(p.turn), changed_in_turn_.end());
    act([&](AgentLoop& loop, Effects& out) {
        loop.rewind(p.turn, out);
        return 0;
    });
    result.rewound = true;
    return result;
}

void AgentRuntime::leave_project() {
    const bool begun = !loop_.history().empty() || loop_.proposal();
    if (begun) park_checkpoints();
    act([&](AgentLoop& loop, Effects& out) {
        // A decision waiting is not running: stopping would reject it.
        if (!loop.proposal()) loop.stop({}, out);
        if (loop.auto_accept()) loop.set_auto_accept(false, out);
        if (!begun) return 0; // nothing of this project's to leave
        loop.reset(out);
        loop.set_mode(start_mode_, out);
        return 0;
    });
}

void AgentRuntime::project_changed() {
    for (const std::string& id : project_sessions_newest_first(context_.dirs, project()))
        if (resume(id)) return; // one that cannot be read: the next newest
}

void AgentRuntime::park_checkpoints() {
    const std::string& session = recorder_.id();
    std::erase_if(parked_, [&](const Parked& p) { return p.session == session; });
    if (!checkpoints_.empty()) {
        parked_.insert(parked_.begin(),
                       Parked{session, std::move(checkpoints_), std::move(changes_)});
        checkpoints_ = Checkpoints{};
        changes_ = AppliedChanges{};
        emit_event(emit_, checkpoints_.state()); // nothing here can be undone now
    }
    // One conversation's budget for all that is parked: the oldest go first.
    std::size_t bytes = 0;
    std::erase_if(parked_, [&bytes](const Parked& p) {
        bytes += p.checkpoints.bytes();
        return bytes > Checkpoints::default_budget;
    });
}

void AgentRuntime::unpark_checkpoints() {
    auto it = std::find_if(parked_.begin(), parked_.end(),
                           [this](const Parked& p) { return p.session == recorder_.id(); });
    if (it == parked_.end()) return;
    checkpoints_ = std::move(it->checkpoints);
    changes_ = std::move(it->changes);
    parked_.erase(it);
    emit_event(emit_, checkpoints_.state());
}

void AgentRuntime::files_changed(const std::vector<std::string>& paths) {
    if (loop_.turn() > 0 && !loop_.history().empty())
        for (const std::string& path : paths)
            if (path != ".rio" && path.rfind(".rio/", 0) != 0) // rio's own: plans, comments
                changed_in_turn_[loop_.turn()].insert(path);
    std::vector<std::string> named = loop_.drift_watched();
    std::erase_if(named, [&](const std::string& rel) { return !changed_covers(paths, rel); });
    if (named.empty()) return;
    std::vector<FileHash> now = named_files(context_.workspace, named).files;
    act([&now](AgentLoop& loop, Effects& out) {
        loop.observe_files(now, out);
        return 0;
    });
}

void AgentRuntime::clear_checkpoints() {
    changes_.clear();
    if (checkpoints_.empty()) return;
    checkpoints_.clear();
    emit_event(emit_, checkpoints_.state());
}

void AgentRuntime::shutdown() {
    recorder_.pause();
    if (auto cancel = std::exchange(recheck_running_, nullptr)) cancel();
    act([](AgentLoop& loop, Effects& out) { return loop.stop({}, out); });
}

void AgentRuntime::provider_changed() {
    act([this](AgentLoop& loop, Effects& out) {
        loop.set_provider(providers_.current(), providers_.model(), providers_.planner(), out);
        update_budget(out);
        return 0;
    });
}

void AgentRuntime::update_budget(Effects& out) {
    ContextBudget budget = providers_.budget();
    budget.prefix_bytes = prefix_bytes_;
    context_.output_cap = tool_output_cap(budget.window);
    loop_.set_budget(budget, out);
}

Status AgentRuntime::decide(Decision decision) {
    const std::optional<Proposal>& pending = loop_.proposal();
    if (pending && pending->plan() && is_plan_path(pending->path()))
        if (auto threads = read_comments(context_.workspace, pending->path()))
            decision.threads = std::move(*threads);
    return act([&](AgentLoop& l, Effects& out) { return l.decide(decision, out); });
}

std::vector<PromptLayer> AgentRuntime::prompt_layers() const {
    return load_prompt_layers(context_.dirs, context_.workspace.root, loop_.mode(),
                              providers_.current());
}

void AgentRuntime::perform(Effects& effects) {
    for (Effect& effect : effects) {
        if (auto* e = std::get_if<EmitEvent>(&effect)) {
            emit_(e->event);
            // A new conversation (reset, session.new, resume): the old one's turns are gone.
            if (std::holds_alternative<ResetEvent>(e->event)) {
                clear_checkpoints();
                changed_in_turn_.clear();
            }
        } else if (auto* call = std::get_if<CallProvider>(&effect)) {
            call_provider(std::move(*call));
        } else if (std::get_if<CancelProvider>(&effect)) {
            if (cancel_provider_) std::exchange(cancel_provider_, nullptr)();
        } else if (auto* run = std::get_if<RunTool>(&effect)) {
            run_tool_later(*run);
        } else if (std::get_if<CancelTools>(&effect)) {
            if (cancel_command_) std::exchange(cancel_command_, nullptr)();
            subagents_.stop_all();
        } else if (auto* start = std::get_if<StartSubagents>(&effect)) {
            subagents_.start(start->turn, start->calls);
        } else if (auto* mark = std::get_if<MarkPlan>(&effect)) {
            (void)mark_plan(context_.workspace, emit_, mark->path, mark->status, "", context_.now(),
                            mark->review);
        } else if (auto* report = std::get_if<ReportPlan>(&effect)) {
            report_plan(*report);
        } else if (auto* settle = std::get_if<SettleChecks>(&effect)) {
            settle_checks(settle->turn);
        } else if (auto* save = std::get_if<SaveProgress>(&effect)) {
            (void)record_plan_progress(context_.workspace, emit_, save->path,
                                       progress_field(save->steps), checks_field(save->steps));
        }
    }
}

// The task tool names the subagent definitions there are now, as Claude Code's Task does, so
// the model can pick one (DESIGN §23); the list changes only when the files do.
void AgentRuntime::name_subagents(std::vector<ToolSpec>& tools) const {
    auto task = std::find_if(tools.begin(), tools.end(),
                             [](const ToolSpec& t) { return t.starts_subagent; });
    if (task == tools.end()) return;
    DefinitionFiles defs = read_definition_files(context_.dirs, context_.workspace.root, "agents");
    if (defs.files.empty()) return;
    task->description += "\n\nSubagent definitions to name in `agent`:";
    for (const DefinitionFile& def : defs.files) {
        auto said = def.fields.find("description");
        task->description +=
            "\n- " + def.name +
            (said == def.fields.end() || said->second.empty() ? std::string()
                                                              : ": " + said->second);
    }
}

// Composed for each step from the files as they are now (an edited AGENTS.md changes the
// very next call), the same in both modes: the plan layer rides in the conversation, where
// plan mode began (decision 0053).
ProviderRequest AgentRuntime::request_for(const CallProvider& call) {
    ProviderRequest request;
    std::vector<PromptLayer> layers = load_prompt_layers(context_.dirs, context_.workspace.root,
                                                         Mode::build, providers_.current());
    std::string compact_prompt;
    for (const PromptLayer& layer : layers) {
        if (layer.name == "plan") request.plan_note = layer.text;
        if (layer.name == "compact") compact_prompt = layer.text;
    }
    while (!request.plan_note.empty() &&
           (request.plan_note.back() == '\n' || request.plan_note.back() == ' '))
        request.plan_note.pop_back();
    // Said in the note, not in run_command's description: the tool list stays the same in
    // both modes (decision 0053), and the sandbox is fixed for the core's life.
    if (!request.plan_note.empty())
        request.plan_note +=
            context_.commands_sandboxed
                ? "\n\nrun_command works in plan mode: it runs at once, without asking, in a "
                  "read-only sandbox without network. Nothing is writable but its private "
                  "$TMPDIR, so a command that writes elsewhere fails by design; use it to run "
                  "read-only commands (git log, a build's dry run, the tests that write nothing)."
                : "\n\nrun_command is refused in plan mode here: this system cannot run "
                  "commands in a read-only sandbox.";
    request.system = call.summary ? compact_prompt : compose_prompt(layers);
    if (request.system.empty() && call.summary)
        request.system = "Summarize the conversation you are given for the agent that will go "
                         "on with it: the task, what was done, the state now, the next steps.";
    request.tools = call.tools;
    name_subagents(request.tools);
    request.conversation = call.conversation;
    request.cache_key = recorder_.id();
    return request;
}

void AgentRuntime::call_provider(CallProvider call) {
    ProviderRequest request = request_for(call);
    if (!call.summary) {
        std::size_t prefix = request.system.size();
        for (const ToolSpec& spec : request.tools)
            prefix += to_json(spec).dump().size();
        if (prefix != prefix_bytes_) {
            prefix_bytes_ = prefix;
            Effects more;
            update_budget(more);
            perform(more);
        }
    }
    // A key split over two deltas matches neither: each stream's tail waits for the next.
    struct Streams {
        StreamRedaction text, thinking;
    };
    // The plan model answers while planning, the builder from approval on (DESIGN §20); the
    // usage and the recorded answer name which.
    PlanModel who = providers_.answering(call.mode == Mode::plan);
    cancel_provider_ = providers_.start(
        std::move(request),
        [this, turn = call.turn, step = call.step, model = who.model,
         streams = std::make_shared<Streams>()](const ProviderReport& r) {
            auto to_loop = [&](const ProviderReport& report) {
                act([&](AgentLoop& loop, Effects& out) {
                    loop.on_provider(turn, step, report, out);
                    return 0;
                });
            };
            using Kind = ProviderReport::Kind;
            const auto& secrets = providers_.secrets();
            if (r.kind == Kind::delta || r.kind == Kind::thinking) {
                StreamRedaction& stream = r.kind == Kind::delta ? streams->text : streams->thinking;
                std::string text = stream.feed(r.text, secrets);
                if (text.empty()) return;
                ProviderReport piece = r;
                piece.text = std::move(text);
                return to_loop(piece);
            }
            if (r.kind == Kind::tool_call || r.kind == Kind::done || r.kind == Kind::error) {
                if (std::string rest = streams->thinking.finish(); !rest.empty())
                    to_loop(ProviderReport::thinking(std::move(rest)));
                if (std::string rest = streams->text.finish(); !rest.empty())
                    to_loop(ProviderReport::delta(std::move(rest)));
            }
            if (r.kind == Kind::usage || r.kind == Kind::done) {
                ProviderReport named = r;
                if (!named.data.is_object()) named.data = nlohmann::json::object();
                named.data["model"] = model;
                return to_loop(named);
            }
            to_loop(r);
        },
        who);
}

void AgentRuntime::report_plan(const ReportPlan& report) {
    const Workspace& workspace = context_.workspace;
    auto exists = [&workspace](const std::string& rel) {
        auto path = workspace_path(workspace, rel);
        std::error_code ec;
        return path && std::filesystem::exists(path->real, ec);
    };
    PlanOutcome outcome = compare_with_plan(report.plan, report.touched, exists);
    PlanReceipt receipt = report.receipt;
    // Declared steps say what is planned by their files (decision 0083), else the text does.
    if (report.declared)
        outcome.unplanned = receipt.unplanned;
    else
        receipt.unplanned = outcome.unplanned;
    receipt.head_now = git_head(context_.workspace);
    // What the model wrote in notes, or a command's words, never carries a key into the file.
    for (PlanStep& step : receipt.steps) {
        if (step.note) redact(*step.note, providers_.secrets());
        if (step.check) redact(step.check->output, providers_.secrets());
    }
    for (ReceiptCommand& command : receipt.commands)
        for (std::string& word : command.argv)
            redact(word, providers_.secrets());
    if (!report.path.empty()) {
        (void)record_plan_outcome(context_.workspace, emit_, report.path, outcome.touched,
                                  outcome.unplanned);
        (void)record_plan_receipt(context_.workspace, emit_, report.path, receipt);
    }
    std::string text = receipt_markdown(receipt);
    emit_event(emit_, PlanReportEvent{report.turn, report.path, outcome.touched, outcome.unplanned,
                                      outcome.untouched, std::move(receipt), std::move(text)});
}

void AgentRuntime::settle_checks(TurnId turn) {
    checks_.settle(turn, [this, turn](std::string problems) {
        redact(problems, providers_.secrets());
        act([&](AgentLoop& loop, Effects& out) {
            loop.on_checks(turn, problems, out);
            return 0;
        });
    });
}

void AgentRuntime::recheck(std::uint64_t step, std::function<void(Result<PlanStep>)> reply) {
    if (recheck_running_)
        return reply(make_error(ErrorCode::refused,
                                "the check cannot run: a check a person asked for is running; "
                                "ask again once it has answered"));
    std::variant<RunTool, std::string> what = loop_.recheck(step);
    if (const auto* why = std::get_if<std::string>(&what))
        return reply(make_error(ErrorCode::refused, "the check cannot run: " + *why));
    const RunTool run = std::get<RunTool>(std::move(what));
    const std::string plan_path = loop_.plan()->path;
    context_.output_cap = tool_output_cap(loop_.context().window);
    // A placeholder until the check has started: a check that cannot start reports at once.
    recheck_running_ = [] {};
    ToolCancel cancel = run_step_check(
        context_, run, [this, plan_path, step, reply = std::move(reply)](ToolReport report) {
            recheck_running_ = nullptr;
            if (report.output) redact(*report.output, providers_.secrets());
            auto now = act([&](AgentLoop& loop, Effects& out) {
                return loop.rechecked(plan_path, step, std::move(report), out);
            });
            if (!now)
                return reply(make_error(ErrorCode::conflict,
                                        "the check ran, but the plan it belongs to was replaced "
                                        "meanwhile; nothing was recorded"));
            reply(std::move(*now));
        });
    if (recheck_running_) recheck_running_ = cancel ? std::move(cancel) : [] {};
}

// Tools run from their own handler, never inside the loop call that asked for them, so
// their reports re-enter the loop cleanly.
void AgentRuntime::run_tool_later(const RunTool& run) {
    asio::post(io_, [this, run] {
        bool go = act([&](AgentLoop& loop, Effects& out) { return loop.may_run(run, out); });
        if (!go) return;
        // A share of the window as the loop knows it now: a refusal may have shown it smaller.
        context_.output_cap = tool_output_cap(loop_.context().window);
        ToolCancel cancel = run_tool(context_, run, [this](ToolReport report) {
            // What the model reads never holds a key, whatever a command printed.
            redact(report.content, providers_.secrets());
            if (report.output) redact(*report.output, providers_.secrets());
            // An edit may have changed .mcp.json, and with it what the user trusts.
            if (report.stage == ToolStage::apply && !report.is_error) mcp_.reload();
            // The servers' reports on earlier writes join the next result the model reads;
            // a diagnostic quotes the file, which may hold a key.
            if (report.stage != ToolStage::prepare || report.is_error)
                if (std::string words = checks_.take(report.turn); !words.empty()) {
                    redact(words, providers_.secrets());
                    report.content += "\n\n" + words;
                }
            act([&](AgentLoop& loop, Effects& out) {
                loop.on_tool(report, out);
                return 0;
            });
        });
        if (cancel) cancel_command_ = std::move(cancel);
    });
}

} // namespace rio
