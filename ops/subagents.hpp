// The running turn's subagents (DESIGN §23): each a child AgentLoop that only investigates
// (AgentLoop::investigate_only, in plan mode: read tools, read-only sandboxed commands, the
// MCP tools plan mode admits), with a fresh conversation holding the task's prompt. Its
// provider calls go to whoever answers the parent and carry the parent's system prompt and
// tool list (the cached prefix); its tools run as the parent's do. Its steps are said as
// agent.subagent under the parent's task call, its usage as agent.usage of the parent's turn,
// and its last message is the task call's result.
#pragma once

#include "agent_tools/tool_table.hpp"
#include "core/agent/loop.hpp"
#include "host/store/definition_files.hpp"
#include "providers/registry.hpp"

#include <asio/io_context.hpp>
#include <memory>

namespace rio {

// What the runtime lends its subagents.
struct SubagentHost {
    asio::io_context& io;
    Emit emit;
    ProviderRegistry& providers;
    ToolContext& tools; // the parent's; a subagent's tools run with a copy of it
    // The request the parent's runtime would send for `call` (system prompt, cache key).
    std::function<ProviderRequest(const CallProvider&)> request_for;
    std::function<std::vector<ToolSpec>()> all_tools;
    std::function<const AgentLoop&()> parent;
};

// The user's config.json "subagents": {"at_once": N (1–16, default 3), "provider": P,
// "model": M} — how many run at once, and who answers them (both named, else whoever answers
// the parent). Only the user's file says it: a project's definitions choose no model.
// `warning` says what was not taken.
struct SubagentSetting {
    std::size_t at_once = 3;
    std::optional<PlanModel> model = std::nullopt;
    std::string warning = {};
};
SubagentSetting configured_subagents(const UserDirs& dirs);

class Subagents {
public:
    explicit Subagents(SubagentHost host);
    ~Subagents();

    // StartSubagents: the step's task calls begin (at most at_once running, the rest wait).
    // Subagents of an earlier turn or step that nobody waits for are stopped.
    void start(TurnId turn, const std::vector<ToolCall>& calls);
    // The task tool's stage: answers with the call's subagent once it ends (starting it now if
    // no StartSubagents did); the returned function stops it.
    ToolCancel answer(const RunTool& run, const ToolReportFn& report);
    // The parent's turn stopped (CancelTools): every subagent stops and says so.
    void stop_all();

private:
    struct Child;
    std::shared_ptr<Child> make_child(TurnId turn, const ToolCall& call);
    void begin(const std::shared_ptr<Child>& child);
    void perform(const std::shared_ptr<Child>& child, Effects& effects);
    void on_event(Child& child, const CoreEvent& event);
    void call_provider(const std::shared_ptr<Child>& child, CallProvider call);
    void run_tool(const std::shared_ptr<Child>& child, const RunTool& run);
    void finish(Child& child, SubagentState state, std::string text);
    void begin_waiting();

    SubagentHost host_;
    SubagentSetting setting_; // read again as each step's subagents start
    std::vector<std::shared_ptr<Child>> children_;
};

} // namespace rio
