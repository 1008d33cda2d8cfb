// The agent.* ops (DESIGN §3): the loop's controls, its state, its tools and its prompt.
#include "ops/agent_ops.hpp"

#include "core/agent/plan_review.hpp"
#include "host/files/files.hpp"
#include "host/proxy/host_rules.hpp"
#include "host/store/prompt_files.hpp"
#include "ops/session_catalog.hpp"

#include <algorithm>

namespace rio {
namespace {

PromptLayerInfo layer_info(const PromptLayer& layer, bool with_text) {
    PromptLayerInfo info{layer.name,        layer.source, layer.origin, layer.active,
                         layer.text.size(), std::nullopt, std::nullopt};
    if (!layer.warning.empty()) info.warning = layer.warning;
    if (with_text) info.text = layer.text;
    return info;
}

// The hosts a person allowed, as rules write them back, each once; the first that is no
// host refuses the whole decision (issue 45: "*" would be everything under another name).
Result<NetworkGrant> read_network(const std::optional<NetworkGrant>& asked) {
    NetworkGrant grant;
    if (!asked) return grant;
    grant.everything = asked->everything;
    for (const std::string& text : asked->items) {
        auto rule = read_host_rule(text);
        if (!rule)
            return make_error(ErrorCode::bad_request, "params.network: " + rule.error().message);
        std::string host = to_string(*rule);
        if (std::find(grant.items.begin(), grant.items.end(), host) == grant.items.end())
            grant.items.push_back(std::move(host));
    }
    return grant;
}

Result<Decision> read_decision(const ApproveParams& p) {
    if (!p.decision.value())
        return make_error(ErrorCode::bad_request,
                          "params.decision must be \"approve\" or \"reject\"");
    std::vector<PlanComment> comments = p.comments.value_or(std::vector<PlanComment>{});
    if (auto problem = comments_problem(comments))
        return make_error(ErrorCode::bad_request, *problem);
    auto network = read_network(p.network);
    if (!network) return network.error();
    return Decision{p.turn,
                    p.id,
                    p.is(Verdict::approve),
                    p.feedback.value_or(""),
                    p.policy,
                    comments,
                    p.fresh.value_or(false),
                    p.rest_of_turn.value_or(false),
                    p.unsandboxed.value_or(false),
                    std::move(*network),
                    p.keep_hosts.value_or(false),
                    p.environment.value_or(false)};
}

void register_control_ops(Dispatcher& dispatcher, AgentRuntime& agent,
                          const std::map<ClientId, std::string>& client_names) {
    dispatcher.on<SendParams>([&agent](const SendParams& p) -> Result<SendResult> {
        if (p.text.find_first_not_of(" \t\r\n") == std::string::npos)
            return make_error(ErrorCode::bad_request, "params.text is empty");
        TurnId turn = agent.act([&](AgentLoop& l, Effects& out) { return l.send(p.text, out); });
        return SendResult{turn};
    });
    dispatcher.on_client<ApproveParams>(
        [&agent, &client_names](const ApproveParams& p, ClientId client) -> Result<Empty> {
            auto decision = read_decision(p);
            if (!decision) return decision.error();
            if (auto name = client_names.find(client); name != client_names.end())
                decision->frontend = name->second;
            std::vector<std::string> kept =
                decision->keep_hosts ? decision->network.items : std::vector<std::string>{};
            if (!kept.empty())
                if (Status s = standing_hosts_problem(agent.dirs()); !s)
                    return make_error(s.error().code,
                                      "params.keep_hosts: cannot keep them: " + s.error().message);
            if (Status s = agent.decide(std::move(*decision)); !s) return s.error();
            if (!kept.empty())
                if (Status s = agent.keep_hosts(kept); !s) return s.error();
            return Empty{};
        });
    dispatcher.on<StopParams>([&agent](const StopParams& p) -> Result<StopResult> {
        auto stopped = agent.act([&](AgentLoop& l, Effects& out) { return l.stop(p.turn, out); });
        return StopResult{{stopped.begin(), stopped.end()}};
    });
    dispatcher.on<ResetParams>([&agent](const ResetParams&) -> Result<Empty> {
        agent.act([](AgentLoop& l, Effects& out) {
            l.reset(out);
            return 0;
        });
        return Empty{};
    });
    dispatcher.on<CompactParams>([&agent](const CompactParams& p) -> Result<Empty> {
        Status s = agent.act([&](AgentLoop& l, Effects& out) {
            return l.compact(p.instructions.value_or(""), out);
        });
        if (!s) return s.error();
        return Empty{};
    });
    dispatcher.on<ModeSetParams>([&agent](const ModeSetParams& p) -> Result<ModeEvent> {
        auto mode = from_wire<Mode>(p.mode);
        if (!mode) return make_error(ErrorCode::bad_request, "params.mode must be build or plan");
        agent.act([&](AgentLoop& l, Effects& out) {
            l.set_mode(*mode, out);
            return 0;
        });
        return ModeEvent{p.mode};
    });
    dispatcher.on<AutoAcceptSetParams>(
        [&agent](const AutoAcceptSetParams& p) -> Result<AutoAcceptResult> {
            agent.act([&](AgentLoop& l, Effects& out) {
                l.set_auto_accept(p.on, out);
                return 0;
            });
            return AutoAcceptResult{p.on};
        });
}

// DESIGN §14: what each turn's writes replaced, putting it back, and what each write did.
void register_undo_ops(Dispatcher& dispatcher, AgentRuntime& agent) {
    // Issue 43: a person runs a step's check again; here because it changes the loop's plan.
    dispatcher.on_async<PlansCheckParams>(
        [&agent](const PlansCheckParams& p, std::function<void(Result<PlanStep>)> reply) {
            agent.recheck(p.step, std::move(reply));
        });
    dispatcher.on<UndoParams>([&agent](const UndoParams& p) -> Result<UndoneEvent> {
        return agent.undo(p.turn, p.path);
    });
    dispatcher.on<RewindParams>(
        [&agent](const RewindParams& p) -> Result<RewindResult> { return agent.rewind(p); });
    dispatcher.on<CheckpointsParams>(
        [&agent](const CheckpointsParams&) -> Result<CheckpointsState> {
            return agent.checkpoints().state();
        });
    dispatcher.on<ChangeParams>([&agent](const ChangeParams& p) -> Result<ChangeResult> {
        auto change = agent.changes().find(p.turn, p.id);
        if (!change) return change.error();
        const AppliedChange& c = **change;
        return ChangeResult{c.turn, c.id, c.path, c.created, c.before, c.after};
    });
}

void register_state_ops(Dispatcher& dispatcher, AgentRuntime& agent) {
    dispatcher.on<StatusParams>(
        [&agent](const StatusParams&) -> Result<AgentStatus> { return agent.loop().status(); });
    dispatcher.on<ProposalParams>([&agent](const ProposalParams&) -> Result<ProposalResult> {
        return ProposalResult{agent.loop().proposal()};
    });
    dispatcher.on<HistoryParams>([&agent](const HistoryParams&) -> Result<HistoryResult> {
        HistoryResult history{agent.loop().turn(), {}};
        const Conversation& entries = agent.loop().history();
        for (std::size_t i = 0; i < entries.size(); ++i) {
            history.messages.push_back(history_entry(*entries[i]));
            history.messages.back().turn = agent.loop().turn_begun_at(i);
        }
        return history;
    });
    dispatcher.on<ToolsParams>([&agent](const ToolsParams&) -> Result<ToolsResult> {
        ToolsResult out{std::string(to_wire(agent.loop().mode())), {}};
        for (const ToolSpec& spec : agent.loop().offered())
            out.tools.push_back({spec.name, spec.kind, spec.description, spec.input_schema});
        return out;
    });
}

// Sessions (DESIGN §14): saved as they go by the runtime; listed, resumed and begun here.
void register_conversation_ops(Dispatcher& dispatcher, AgentRuntime& agent,
                               const Workspace& workspace) {
    dispatcher.on<SessionsListParams>(
        [&agent, &workspace](const SessionsListParams& p) -> Result<SessionsListResult> {
            std::optional<std::string> project;
            if (!p.all.value_or(false))
                project = workspace.root ? workspace.root->string() : std::string();
            return list_sessions(agent.dirs(), project);
        });
    dispatcher.on<SessionResumeParams>(
        [&agent](const SessionResumeParams& p) -> Result<SessionResumeResult> {
            return agent.resume(p.id);
        });
    dispatcher.on<SessionNewParams>([&agent](const SessionNewParams&) -> Result<SessionNewResult> {
        agent.act([](AgentLoop& l, Effects& out) {
            l.reset(out);
            return 0;
        });
        return SessionNewResult{agent.loop().status().session};
    });
}

void register_prompt_ops(Dispatcher& dispatcher, AgentRuntime& agent, Workspace& workspace) {
    dispatcher.on<PromptListParams>([&agent](const PromptListParams&) -> Result<PromptListResult> {
        PromptListResult out{std::string(to_wire(agent.loop().mode())), {}};
        for (const PromptLayer& layer : agent.prompt_layers())
            out.layers.push_back(layer_info(layer, false));
        return out;
    });
    dispatcher.on<PromptGetParams>([&agent](const PromptGetParams& p) -> Result<PromptGetResult> {
        auto layers = agent.prompt_layers();
        PromptGetResult out;
        if (!p.layer) {
            out.mode = std::string(to_wire(agent.loop().mode()));
            out.composed = compose_prompt(layers);
            return out;
        }
        for (const PromptLayer& layer : layers)
            if (layer.name == *p.layer) {
                PromptLayerInfo info = layer_info(layer, true);
                out.name = info.name;
                out.source = info.source;
                out.origin = info.origin;
                out.active = info.active;
                out.chars = info.chars;
                out.warning = info.warning;
                out.text = info.text;
                return out;
            }
        return make_error(ErrorCode::not_found, "no prompt layer named '" + *p.layer + "'");
    });
    dispatcher.on<PromptEditParams>(
        [&agent, &workspace](const PromptEditParams& p) -> Result<PromptEditResult> {
            std::string scope = p.scope.value_or("user");
            if (scope != "user" && scope != "project")
                return make_error(ErrorCode::bad_request, "params.scope must be user or project");
            auto path = prompt_override_path(agent.dirs(), workspace.root, p.layer, scope,
                                             agent.providers().current());
            if (path.empty())
                return make_error(ErrorCode::bad_request,
                                  "layer '" + p.layer + "' has no " + scope + " file to edit");
            std::error_code ec;
            std::filesystem::create_directories(path.parent_path(), ec);
            if (Status s = write_file_atomic(path, p.text, path.string()); !s) return s.error();
            return PromptEditResult{p.layer, path.string()};
        });
}

} // namespace

void register_agent_ops(Dispatcher& dispatcher, AgentRuntime& agent, OpContext& context) {
    Workspace& workspace = context.workspace;
    register_control_ops(dispatcher, agent, context.client_names);
    register_state_ops(dispatcher, agent);
    register_undo_ops(dispatcher, agent);
    register_conversation_ops(dispatcher, agent, workspace);
    register_prompt_ops(dispatcher, agent, workspace);
}

} // namespace rio
