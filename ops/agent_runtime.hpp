// Runs the agent loop inside rio-core: feeds it the ops' requests and the adapters' reports,
// and performs the effects it returns — events, provider calls, tool stages.
#pragma once

#include "agent_tools/edit_checks.hpp"
#include "agent_tools/tool_table.hpp"
#include "core/agent/loop.hpp"
#include "core/agent/prompt.hpp"
#include "core/workspace.hpp"
#include "host/mcp/mcp_servers.hpp"
#include "host/sandbox/sandbox_probe.hpp"
#include "host/server/editor_reader.hpp"
#include "host/store/sandbox_setting.hpp"
#include "io/user_dirs.hpp"
#include "ops/session_recorder.hpp"
#include "ops/subagents.hpp"
#include "providers/registry.hpp"

#include <asio/io_context.hpp>

namespace rio {

class AgentRuntime {
public:
    AgentRuntime(asio::io_context& io, Workspace& workspace, Emit emit, ProviderRegistry& providers,
                 UserDirs dirs, McpServers& mcp, EditorReader& editor, LspServers* lsp = nullptr);

    // Runs one loop operation, then performs what it asked for. `f(loop, effects)`.
    template <typename F> auto act(F&& f) {
        Effects effects;
        auto result = f(loop_, effects);
        perform(effects);
        record();
        return result;
    }

    // agent.approve: a pending plan's comments as filed come with the decision (issue 44).
    Status decide(Decision decision);
    // The mode a new core starts in (DESIGN §9), before any client: nothing is announced.
    void start_in(Mode mode);
    // Whether commands run sandboxed (DESIGN §19): what the system offers, and the user's
    // settings (the sandbox on, mount namespaces allowed). Before any client, like start_in.
    void sandbox_commands(const SandboxSupport& support, const SandboxSetting& setting);
    // agent.approve's keep_hosts (issue 45): the hosts join the standing ones in the user's
    // config.json, and agent.status says so.
    Status keep_hosts(const std::vector<std::string>& hosts);
    // agent.session.resume: the session's conversation replaces the running one.
    Result<SessionResumeResult> resume(const std::string& id);
    // agent.undo: a turn of this conversation (0 < turn <= the last), or not_found.
    Result<UndoneEvent> undo(std::uint64_t turn, const std::optional<std::string>& path);
    const Checkpoints& checkpoints() const { return checkpoints_; }
    // agent.rewind (DESIGN §23): what returning to turn p.turn's message changes, and, unless
    // a preview, does it — files first (all or, without overwrite, none when one changed since
    // the agent wrote it), then the conversation.
    Result<RewindResult> rewind(const RewindParams& p);
    const AppliedChanges& changes() const { return changes_; }
    // plans.check: runs the step's check again and answers with the step (issue 43).
    void recheck(std::uint64_t step, std::function<void(Result<PlanStep>)> reply);
    // A project is a workspace (issue 46, decision 0090). Before the project is replaced,
    // while its root is still the old one (a stopped turn's receipt and an abandoned plan
    // file are the old project's): a turn still running is stopped, auto-accept goes off (a
    // grant made for one project is not one for the next), and a begun conversation is left
    // — its undo checkpoints kept aside, a plan waiting for a decision pending in its file.
    void leave_project();
    // After: the new project's latest conversation comes back (mode, plan checklist, a
    // pending plan, the checkpoints kept aside for it), or the new one stays.
    void project_changed();
    // The project watcher's paths (the core's own writes among them): a file the approved
    // plan's steps name that something else changed is drift, said at once (issue 43).
    void files_changed(const std::vector<std::string>& paths);
    // The core is exiting: the turn stops, but its session keeps what was pending.
    void shutdown();

    const AgentLoop& loop() const { return loop_; }
    ProviderRegistry& providers() { return providers_; }
    const ProviderRegistry& providers() const { return providers_; }
    // After a provider or option change: agent.status says the new provider and model.
    void provider_changed();
    const UserDirs& dirs() const { return context_.dirs; }
    std::vector<PromptLayer> prompt_layers() const;

private:
    SandboxState sandbox_state(const SandboxSetting& setting);
    void perform(Effects& effects);
    // Saves what the last operation changed; a new conversation gets a new session.
    void record();
    std::string project() const;
    void call_provider(CallProvider call);
    // What call_provider sends for `call`: the prompt layers as the files hold them now.
    ProviderRequest request_for(const CallProvider& call);
    void name_subagents(std::vector<ToolSpec>& tools) const;
    void run_tool_later(const RunTool& run);
    void report_plan(const ReportPlan& report);
    void settle_checks(TurnId turn);
    // rio's own tools and the MCP servers' tools that are ready now.
    std::vector<ToolSpec> all_tools() const;
    void clear_checkpoints();
    // The undo checkpoints of a conversation left for another (a resume, another project) are
    // kept aside by session, so coming back to it can still undo; within one budget.
    void park_checkpoints();
    void unpark_checkpoints();
    // The loop's window and threshold from the provider's options, the tools' output cap.
    void update_budget(Effects& out);

    asio::io_context& io_;
    Emit emit_;
    ProviderRegistry& providers_;
    McpServers& mcp_;
    // Per conversation: cleared with it (agent.reset, session.new, session.resume) and when
    // the project changes (docs/decisions/0029).
    Checkpoints checkpoints_;
    AppliedChanges changes_; // the texts around each applied edit, for agent.change
    EditChecks checks_;      // the language servers' reports on the files the turn wrote
    ToolContext context_;
    AgentLoop loop_;
    Subagents subagents_; // the running turn's task calls (DESIGN §23)
    // What the project watcher saw change while each turn was the latest, the agent's own
    // edits among them: a rewind names the others as what it cannot put back.
    std::map<TurnId, std::set<std::string>> changed_in_turn_;
    SandboxSupport sandbox_support_; // what the system offers commands, probed once
    SessionRecorder recorder_;
    std::string told_session_, told_problem_; // what the loop last heard of the session
    std::size_t prefix_bytes_ = 0;            // the system prompt and tool list, as last sent
    CancelFn cancel_provider_;
    ToolCancel cancel_command_;
    ToolCancel recheck_running_;    // a check a person asked to run again, while it runs
    Mode start_mode_ = Mode::build; // what a new project's first conversation starts in
    struct Parked {
        std::string session;
        Checkpoints checkpoints;
        AppliedChanges changes;
    };
    std::vector<Parked> parked_; // newest first
};

} // namespace rio
