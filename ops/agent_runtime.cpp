#include "ops/agent_runtime.hpp"

#include "core/agent/plan_report.hpp"
#include "host/files/project_file.hpp"
#include "host/store/plan_store.hpp"
#include "host/store/prompt_files.hpp"
#include "host/store/redact.hpp"
#include "ops/session_catalog.hpp"
#include "ops/undo.hpp"

#include <asio/post.hpp>

namespace rio {

AgentRuntime::AgentRuntime(asio::io_context& io, Workspace& workspace, Emit emit,
                           ProviderRegistry& providers, UserDirs dirs, McpServers& mcp,
                           EditorReader& editor, LspServers* lsp)
    : io_(io), emit_(emit), providers_(providers),
      mcp_(mcp), context_{workspace,
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
                          false},
      loop_(all_tools()), recorder_(context_.dirs, context_.now, [this](std::string& line) {
          redact(line, providers_.secrets());
      }) {
    Effects before_any_client; // nobody is connected yet to hear this status
    loop_.set_provider(providers_.current(), providers_.model(), before_any_client);
    told_session_ = recorder_.id();
    loop_.set_session(told_session_, "", before_any_client);
    mcp_.on_tools_changed([this] { loop_.set_tools(all_tools()); });
}

void AgentRuntime::start_in(Mode mode) {
    Effects before_any_client; // nobody is connected yet to hear of it
    loop_.set_mode(mode, before_any_client);
}

void AgentRuntime::sandbox_commands(const SandboxSupport& support, bool on) {
    SandboxState state{support.available && on, support.abi, support.reason};
    if (support.available && !on)
        state.reason = "turned off in your settings (\"sandbox\": false in " +
                       context_.dirs.settings_file().string() + ")";
    context_.commands_sandboxed = state.available;
    Effects before_any_client; // nobody is connected yet to hear of it
    loop_.set_sandbox(std::move(state), before_any_client);
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
        recorder_.adopt(opened->replay.session, std::move(opened->writer));
        act([&](AgentLoop& loop, Effects& out) {
            loop.restore(std::move(opened->replay.session), out);
            return 0;
        });
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

void AgentRuntime::project_changed() {
    clear_checkpoints();
}

void AgentRuntime::clear_checkpoints() {
    changes_.clear();
    if (checkpoints_.empty()) return;
    checkpoints_.clear();
    emit_event(emit_, checkpoints_.state());
}

void AgentRuntime::shutdown() {
    recorder_.pause();
    act([](AgentLoop& loop, Effects& out) { return loop.stop({}, out); });
}

void AgentRuntime::provider_changed() {
    act([this](AgentLoop& loop, Effects& out) {
        loop.set_provider(providers_.current(), providers_.model(), out);
        return 0;
    });
}

std::vector<PromptLayer> AgentRuntime::prompt_layers() const {
    return load_prompt_layers(context_.dirs, context_.workspace.root, loop_.mode(),
                              providers_.current());
}

void AgentRuntime::perform(Effects& effects) {
    for (Effect& effect : effects) {
        if (auto* e = std::get_if<EmitEvent>(&effect)) {
            emit_(event_name(e->event), event_params(e->event));
            // A new conversation (reset, session.new, resume): the old one's turns are gone.
            if (std::holds_alternative<ResetEvent>(e->event)) clear_checkpoints();
        } else if (auto* call = std::get_if<CallProvider>(&effect)) {
            call_provider(std::move(*call));
        } else if (std::get_if<CancelProvider>(&effect)) {
            if (cancel_provider_) std::exchange(cancel_provider_, nullptr)();
        } else if (auto* run = std::get_if<RunTool>(&effect)) {
            run_tool_later(*run);
        } else if (std::get_if<CancelTools>(&effect)) {
            if (cancel_command_) std::exchange(cancel_command_, nullptr)();
        } else if (auto* mark = std::get_if<MarkPlan>(&effect)) {
            (void)mark_plan(context_.workspace, emit_, mark->path, mark->status, "", context_.now(),
                            mark->review);
        } else if (auto* report = std::get_if<ReportPlan>(&effect)) {
            report_plan(*report);
        }
    }
}

void AgentRuntime::call_provider(CallProvider call) {
    ProviderRequest request;
    // Composed for this step from the files as they are now: an edited AGENTS.md or an
    // approved plan changes the very next call.
    request.system = compose_prompt(load_prompt_layers(context_.dirs, context_.workspace.root,
                                                       call.mode, providers_.current()));
    request.tools = std::move(call.tools);
    request.conversation = std::move(call.conversation);
    cancel_provider_ = providers_.start(
        std::move(request), [this, turn = call.turn, step = call.step](const ProviderReport& r) {
            act([&](AgentLoop& loop, Effects& out) {
                loop.on_provider(turn, step, r, out);
                return 0;
            });
        });
}

void AgentRuntime::report_plan(const ReportPlan& report) {
    const Workspace& workspace = context_.workspace;
    auto exists = [&workspace](const std::string& rel) {
        auto path = workspace_path(workspace, rel);
        std::error_code ec;
        return path && std::filesystem::exists(path->real, ec);
    };
    PlanOutcome outcome = compare_with_plan(report.plan, report.touched, exists);
    emit_event(emit_, PlanReportEvent{report.turn, report.path, outcome.touched, outcome.unplanned,
                                      outcome.untouched});
    if (!report.path.empty())
        (void)record_plan_outcome(context_.workspace, emit_, report.path, outcome.touched,
                                  outcome.unplanned);
}

// Tools run from their own handler, never inside the loop call that asked for them, so
// their reports re-enter the loop cleanly.
void AgentRuntime::run_tool_later(const RunTool& run) {
    asio::post(io_, [this, run] {
        bool go = act([&](AgentLoop& loop, Effects& out) { return loop.may_run(run, out); });
        if (!go) return;
        ToolCancel cancel = run_tool(context_, run, [this](ToolReport report) {
            // What the model reads never holds a key, whatever a command printed.
            redact(report.content, providers_.secrets());
            // An edit may have changed .mcp.json, and with it what the user trusts.
            if (report.stage == ToolStage::apply && !report.is_error) mcp_.reload();
            act([&](AgentLoop& loop, Effects& out) {
                loop.on_tool(report, out);
                return 0;
            });
        });
        if (cancel) cancel_command_ = std::move(cancel);
    });
}

} // namespace rio
