#include "cli/claude_shapes.hpp"

namespace rio {
namespace {

// Claude Code's words for a server's state in its init line.
std::string claude_mcp_status(const Wire<ServerState>& state) {
    if (state == ServerState::ready) return "connected";
    if (state == ServerState::starting) return "pending";
    return state.name(); // failed, stopped, untrusted
}

Json claude_mcp_servers(const std::vector<McpServerInfo>& servers) {
    Json out = Json::array();
    for (const McpServerInfo& server : servers)
        out.push_back({{"name", server.name}, {"status", claude_mcp_status(server.state)}});
    return out;
}

} // namespace

ClaudeShapes::ClaudeShapes(RunStart start, std::chrono::steady_clock::time_point began)
    : start_(std::move(start)), began_(began) {}

Json ClaudeShapes::init() const {
    return {{"type", "system"},
            {"subtype", "init"},
            {"session_id", start_.session_id},
            {"model", start_.model},
            {"permissionMode", start_.permission_mode},
            {"cwd", start_.cwd},
            {"tools", start_.tools},
            {"mcp_servers", claude_mcp_servers(start_.mcp_servers)},
            {"apiKeySource", start_.api_key_source}};
}

Json ClaudeShapes::assistant(Json content, const std::string& parent) const {
    Json message{{"id", "msg_" + std::to_string(model_calls_)},
                 {"type", "message"},
                 {"role", "assistant"},
                 {"model", start_.model},
                 {"content", std::move(content)},
                 {"stop_reason", stop_reason_.empty() ? Json(nullptr) : Json(stop_reason_)}};
    return {{"type", "assistant"},
            {"message", std::move(message)},
            {"parent_tool_use_id", parent.empty() ? Json(nullptr) : Json(parent)},
            {"session_id", start_.session_id}};
}

Json ClaudeShapes::user(Json content, const std::string& parent) const {
    return {{"type", "user"},
            {"message", {{"role", "user"}, {"content", std::move(content)}}},
            {"parent_tool_use_id", parent.empty() ? Json(nullptr) : Json(parent)},
            {"session_id", start_.session_id}};
}

std::vector<Json> ClaudeShapes::lines(const client::CoreEvent& event) {
    if (auto* usage = std::get_if<UsageEvent>(&event)) {
        for (const auto& [key, value] : usage->counts.items())
            if (value.is_number_integer())
                usage_[key] = usage_.value(key, std::int64_t{0}) + value.get<std::int64_t>();
        return {};
    }
    if (auto* message = std::get_if<MessageEvent>(&event)) {
        ++model_calls_;
        stop_reason_ = message->stop_reason;
        if (message->text.empty()) return {};
        return {assistant(Json::array({{{"type", "text"}, {"text", message->text}}}))};
    }
    if (auto* tool = std::get_if<ToolEvent>(&event))
        return {assistant(Json::array({{{"type", "tool_use"},
                                        {"id", tool->id},
                                        {"name", tool->name},
                                        {"input", tool->input}}}))};
    if (auto* answer = std::get_if<ToolResultEvent>(&event)) {
        Json block{{"type", "tool_result"},
                   {"tool_use_id", answer->id},
                   {"content", answer->content},
                   {"is_error", !answer->ok}};
        return {user(Json::array({block}))};
    }
    // A subagent's steps as Claude Code shows a Task's: its messages under the Task call.
    if (auto* sub = std::get_if<SubagentEvent>(&event)) {
        const std::string id = sub->id + "/" + sub->call; // unique beside the parent's ids
        if (sub->state == SubagentState::tool)
            return {assistant(Json::array({{{"type", "tool_use"},
                                            {"id", id},
                                            {"name", sub->tool},
                                            {"input", sub->input}}}),
                              sub->id)};
        if (sub->state == SubagentState::result)
            return {user(Json::array({{{"type", "tool_result"},
                                       {"tool_use_id", id},
                                       {"content", sub->text},
                                       {"is_error", !sub->ok}}}),
                         sub->id)};
        if (sub->state == SubagentState::done)
            return {assistant(Json::array({{{"type", "text"}, {"text", sub->text}}}), sub->id)};
        return {};
    }
    return {};
}

Json ClaudeShapes::result(const RunEnd& end) const {
    bool failed = end.exit_code == 1 || end.exit_code == 4;
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                  std::chrono::steady_clock::now() - began_)
                  .count();
    Json usage = usage_;
    for (const char* key : {"input_tokens", "output_tokens"})
        if (!usage.contains(key)) usage[key] = 0;
    Json out{{"type", "result"},
             {"subtype", failed ? "error_during_execution" : "success"},
             {"is_error", failed},
             {"duration_ms", ms},
             {"num_turns", model_calls_},
             {"result", end.result},
             {"session_id", start_.session_id},
             {"usage", std::move(usage)},
             {"permission_denials", end.denials},
             // rio's own, beside Claude Code's: the exit code of DESIGN §11 and a plan left
             // awaiting approval (exit 2), which `rio-cli -p --resume ID` can carry out.
             {"exit_code", end.exit_code}};
    if (!end.plan.is_null()) out["plan"] = end.plan;
    if (!end.context.is_null()) out["context"] = end.context; // rio's own: how full the window is
    if (!end.receipt.is_null()) out["plan_receipt"] = end.receipt; // rio's own (issue 43)
    if (!end.error.is_null()) out["error"] = end.error;
    return out;
}

} // namespace rio
