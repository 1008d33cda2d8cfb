// The agent.* ops (DESIGN §3): the loop's controls, its state, its tools and its prompt.
#include "ops/agent_ops.hpp"

#include "host/files.hpp"
#include "host/prompt_files.hpp"
#include "protocol/params.hpp"

namespace rio {
namespace {

Json layer_json(const PromptLayer& layer, bool with_text) {
    Json out{{"name", layer.name},
             {"source", layer.source},
             {"origin", layer.origin},
             {"active", layer.active},
             {"chars", layer.text.size()}};
    if (!layer.warning.empty()) out["warning"] = layer.warning;
    if (with_text) out["text"] = layer.text;
    return out;
}

Result<Decision> read_decision(const Json& params) {
    Decision d;
    auto turn = optional_count(params, "turn");
    if (!turn) return make_error(ErrorCode::bad_request, "params.turn is required");
    d.turn = *turn;
    std::string decision = require_string(params, "decision");
    if (decision != "approve" && decision != "reject")
        return make_error(ErrorCode::bad_request,
                          "params.decision must be \"approve\" or \"reject\"");
    d.approve = decision == "approve";
    d.id = optional_string(params, "id");
    d.feedback = optional_string(params, "feedback").value_or("");
    d.policy = optional_string(params, "policy");
    return d;
}

void register_control_ops(Dispatcher& dispatcher, AgentRuntime& agent) {
    dispatcher.add("agent.send", [&agent](const Call& call) -> Result<Json> {
        std::string text = require_string(call.params, "text");
        if (text.find_first_not_of(" \t\r\n") == std::string::npos)
            return make_error(ErrorCode::bad_request, "params.text is empty");
        TurnId turn = agent.act([&](AgentLoop& l, Effects& out) { return l.send(text, out); });
        return Json{{"turn", turn}};
    });
    dispatcher.add("agent.approve", [&agent](const Call& call) -> Result<Json> {
        auto decision = read_decision(call.params);
        if (!decision) return decision.error();
        Status s = agent.act([&](AgentLoop& l, Effects& out) { return l.decide(*decision, out); });
        if (!s) return s.error();
        return Json::object();
    });
    dispatcher.add("agent.stop", [&agent](const Call& call) -> Result<Json> {
        std::optional<TurnId> turn = optional_count(call.params, "turn");
        auto stopped = agent.act([&](AgentLoop& l, Effects& out) { return l.stop(turn, out); });
        return Json{{"stopped", stopped}};
    });
    dispatcher.add("agent.reset", [&agent](const Call&) -> Result<Json> {
        agent.act([](AgentLoop& l, Effects& out) {
            l.reset(out);
            return 0;
        });
        return Json::object();
    });
    dispatcher.add("agent.mode.set", [&agent](const Call& call) -> Result<Json> {
        std::string name = require_string(call.params, "mode");
        auto mode = mode_from_string(name);
        if (!mode) return make_error(ErrorCode::bad_request, "params.mode must be build or plan");
        agent.act([&](AgentLoop& l, Effects& out) {
            l.set_mode(*mode, out);
            return 0;
        });
        return Json{{"mode", name}};
    });
    dispatcher.add("agent.autoaccept.set", [&agent](const Call& call) -> Result<Json> {
        if (!call.params.contains("on"))
            return make_error(ErrorCode::bad_request, "params.on is required");
        bool on = optional_bool(call.params, "on", false);
        agent.act([&](AgentLoop& l, Effects& out) {
            l.set_auto_accept(on, out);
            return 0;
        });
        return Json{{"on", on}};
    });
}

void register_state_ops(Dispatcher& dispatcher, AgentRuntime& agent) {
    dispatcher.add("agent.status",
                   [&agent](const Call&) -> Result<Json> { return Json(agent.loop().status()); });
    dispatcher.add("agent.proposal", [&agent](const Call&) -> Result<Json> {
        return Json{{"proposal", agent.loop().proposal()}};
    });
    dispatcher.add("agent.history", [&agent](const Call&) -> Result<Json> {
        Json messages = Json::array();
        for (const auto& m : agent.loop().history())
            messages.push_back(to_json(*m));
        return Json{{"turn", agent.loop().turn()}, {"messages", messages}};
    });
    dispatcher.add("agent.tools", [&agent](const Call&) -> Result<Json> {
        Json tools = Json::array();
        for (const ToolSpec& spec : agent.loop().offered())
            tools.push_back(to_json(spec));
        return Json{{"mode", to_string(agent.loop().mode())}, {"tools", tools}};
    });
}

void register_prompt_ops(Dispatcher& dispatcher, AgentRuntime& agent, Workspace& workspace) {
    dispatcher.add("agent.prompt.list", [&agent](const Call&) -> Result<Json> {
        Json layers = Json::array();
        for (const PromptLayer& layer : agent.prompt_layers())
            layers.push_back(layer_json(layer, false));
        return Json{{"mode", to_string(agent.loop().mode())}, {"layers", layers}};
    });
    dispatcher.add("agent.prompt.get", [&agent](const Call& call) -> Result<Json> {
        auto layers = agent.prompt_layers();
        auto name = optional_string(call.params, "layer");
        if (!name)
            return Json{{"mode", to_string(agent.loop().mode())},
                        {"composed", compose_prompt(layers)}};
        for (const PromptLayer& layer : layers)
            if (layer.name == *name) return layer_json(layer, true);
        return make_error(ErrorCode::not_found, "no prompt layer named '" + *name + "'");
    });
    dispatcher.add("agent.prompt.edit", [&agent, &workspace](const Call& call) -> Result<Json> {
        std::string layer = require_string(call.params, "layer");
        std::string text = require_string(call.params, "text");
        std::string scope = optional_string(call.params, "scope").value_or("user");
        if (scope != "user" && scope != "project")
            return make_error(ErrorCode::bad_request, "params.scope must be user or project");
        auto path = prompt_override_path(agent.dirs(), workspace.root, layer, scope,
                                         agent.providers().current());
        if (path.empty())
            return make_error(ErrorCode::bad_request,
                              "layer '" + layer + "' has no " + scope + " file to edit");
        std::error_code ec;
        std::filesystem::create_directories(path.parent_path(), ec);
        if (Status s = write_file_atomic(path, text, path.string()); !s) return s.error();
        return Json{{"layer", layer}, {"path", path.string()}};
    });
}

} // namespace

void register_agent_ops(Dispatcher& dispatcher, AgentRuntime& agent, Workspace& workspace) {
    register_control_ops(dispatcher, agent);
    register_state_ops(dispatcher, agent);
    register_prompt_ops(dispatcher, agent, workspace);
}

} // namespace rio
