#include "protocol/messages.hpp"

#include <algorithm>
#include <cstdio>

namespace rio {
namespace {

// Copies the keys of `extra` that `j` does not have: the flattened, free-form part.
void merge(Json& j, const Json& extra) {
    if (!extra.is_object()) return;
    for (const auto& [key, value] : extra.items())
        if (!j.contains(key)) j[key] = value;
}

Json without(const Json& j, std::initializer_list<const char*> keys) {
    Json rest = Json::object();
    for (const auto& item : j.items()) {
        const std::string& key = item.key();
        if (std::find_if(keys.begin(), keys.end(), [&](const char* k) { return key == k; }) ==
            keys.end())
            rest[key] = item.value();
    }
    return rest;
}

} // namespace

void to_json(Json& j, const SearchMatchInfo& m) {
    j = Json::array({m.line, m.column, m.length, m.start, m.end, m.text});
}

void from_json(const Json& j, SearchMatchInfo& m) {
    auto count = [&j](std::size_t i) {
        if (!j[i].is_number_unsigned())
            throw ParamError("a search match: [line, column, length, start, end, text] expected");
        return j[i].get<std::uint64_t>();
    };
    if (!j.is_array() || j.size() != 6 || !j[5].is_string())
        throw ParamError("a search match: [line, column, length, start, end, text] expected");
    m = SearchMatchInfo{};
    m.line = count(0);
    m.column = count(1);
    m.length = count(2);
    m.start = count(3);
    m.end = count(4);
    m.text = j[5].get<std::string>();
}

void to_json(Json& j, const Globs& g) {
    if (g.items.size() == 1)
        j = g.items.front();
    else
        j = g.items;
}

void from_json(const Json& j, Globs& g) {
    g = Globs{};
    if (j.is_string()) {
        g.items.push_back(j.get<std::string>());
        return;
    }
    if (!j.is_array()) throw ParamError("a glob: a string or an array of strings expected");
    for (const Json& item : j) {
        if (!item.is_string()) throw ParamError("a glob: a string or an array of strings expected");
        g.items.push_back(item.get<std::string>());
    }
}

void to_json(Json& j, const UsageEvent& e) {
    j = Json{{"turn", e.turn}};
    merge(j, e.counts);
}

void from_json(const Json& j, UsageEvent& e) {
    e.turn = j.value("turn", std::uint64_t{0});
    e.counts = without(j, {"turn"});
}

void to_json(Json& j, const ToolEvent& e) {
    j = Json{
        {"turn", e.turn}, {"id", e.id}, {"name", e.name}, {"input", e.input}, {"kind", e.kind}};
    if (e.sandbox) j["sandbox"] = *e.sandbox;
}

void from_json(const Json& j, ToolEvent& e) {
    e.turn = j.value("turn", std::uint64_t{0});
    e.id = j.value("id", "");
    e.name = j.value("name", "");
    e.input = j.value("input", Json::object());
    e.kind = Wire<ToolKind>::named(j.value("kind", ""));
    if (auto it = j.find("sandbox"); it != j.end() && it->is_object())
        e.sandbox = it->get<SandboxUse>();
}

void to_json(Json& j, const ToolResultEvent& e) {
    j = Json{
        {"turn", e.turn}, {"id", e.id}, {"name", e.name}, {"ok", e.ok}, {"content", e.content}};
    if (e.exit) j["exit"] = *e.exit;
    if (e.output) j["output"] = *e.output;
    if (e.sandbox) j["sandbox"] = *e.sandbox;
}

void from_json(const Json& j, ToolResultEvent& e) {
    e.turn = j.value("turn", std::uint64_t{0});
    e.id = j.value("id", "");
    e.name = j.value("name", "");
    e.ok = j.value("ok", true);
    e.content = j.value("content", "");
    if (auto it = j.find("exit"); it != j.end() && it->is_object()) e.exit = it->get<CommandExit>();
    if (auto it = j.find("output"); it != j.end() && it->is_string())
        e.output = it->get<std::string>();
    if (auto it = j.find("sandbox"); it != j.end() && it->is_object())
        e.sandbox = it->get<SandboxUse>();
}

void to_json(Json& j, const ProjectChangedEvent& e) {
    j = static_cast<const ProjectInfo&>(e);
    if (!e.root) j = Json{{"root", nullptr}, {"name", nullptr}};
}

void to_json(Json& j, const ProposalResult& r) {
    j = Json{{"proposal", nullptr}};
    if (r.proposal) j["proposal"] = *r.proposal;
}

void from_json(const Json& j, ProposalResult& r) {
    r.proposal.reset();
    if (auto it = j.find("proposal"); it != j.end() && it->is_object())
        r.proposal = it->get<Proposal>();
}

void to_json(Json& j, const AgentStatus& s) {
    j = Json{{"mode", s.mode},         {"auto_accept", s.auto_accept},
             {"provider", s.provider}, {"model", s.model},
             {"busy", s.busy},         {"turn", s.turn},
             {"state", s.state},       {"pending", nullptr},
             {"session", s.session},   {"sandbox", s.sandbox}};
    if (s.pending) j["pending"] = *s.pending;
    if (!s.session_problem.empty()) j["session_problem"] = s.session_problem;
    if (s.context) j["context"] = *s.context;
    if (s.plan) j["plan"] = *s.plan;
    if (s.plan_model) j["plan_model"] = *s.plan_model;
}

void from_json(const Json& j, AgentStatus& s) {
    s.mode = j.value("mode", "build");
    s.auto_accept = j.value("auto_accept", false);
    s.provider = j.value("provider", "");
    s.model = j.value("model", "");
    s.busy = j.value("busy", false);
    s.turn = j.value("turn", std::uint64_t{0});
    s.state = Wire<AgentState>::named(j.value("state", "idle"));
    s.session = j.value("session", "");
    s.session_problem = j.value("session_problem", "");
    s.sandbox = SandboxState{};
    if (auto it = j.find("sandbox"); it != j.end() && it->is_object())
        s.sandbox = it->get<SandboxState>();
    s.pending.reset();
    if (auto it = j.find("pending"); it != j.end() && it->is_object())
        s.pending = it->get<Proposal>();
    s.context.reset();
    if (auto it = j.find("context"); it != j.end() && it->is_object())
        s.context = it->get<ContextInfo>();
    s.plan.reset();
    if (auto it = j.find("plan"); it != j.end() && it->is_object()) s.plan = it->get<PlanTally>();
    s.plan_model.reset();
    if (auto it = j.find("plan_model"); it != j.end() && it->is_object())
        s.plan_model = it->get<PlanModel>();
}

std::vector<std::string_view> typed_ops() {
    // One a line, in the order of docs/protocol.md.
    // clang-format off
    return {HelloParams::op,
            ProjectOpenParams::op,
            ProjectCloseParams::op,
            ProjectInfoParams::op,
            ProjectTrustGetParams::op,
            ProjectTrustSetParams::op,
            FsListParams::op,
            FsReadParams::op,
            FsSearchParams::op,
            FsFilesParams::op,
            BufferOpenParams::op,
            BufferTextParams::op,
            BufferListParams::op,
            BufferReplaceParams::op,
            BufferSaveParams::op,
            BufferCloseParams::op,
            BufferReloadParams::op,
            BufferCreateParams::op,
            DiffLinesParams::op,
            GitStatusParams::op,
            GitMarksParams::op,
            GitDiffParams::op,
            TerminalOpenParams::op,
            TerminalInputParams::op,
            TerminalResizeParams::op,
            TerminalCloseParams::op,
            TerminalAckParams::op,
            SendParams::op,
            ApproveParams::op,
            StopParams::op,
            ResetParams::op,
            CompactParams::op,
            ModeSetParams::op,
            AutoAcceptSetParams::op,
            StatusParams::op,
            ProposalParams::op,
            HistoryParams::op,
            ToolsParams::op,
            CommandsListParams::op,
            CommandsRunParams::op,
            PromptListParams::op,
            PromptGetParams::op,
            PromptEditParams::op,
            ProvidersParams::op,
            ProviderSetParams::op,
            ProviderTestParams::op,
            PlanModelSetParams::op,
            OptionsListParams::op,
            OptionsSetParams::op,
            KeySetParams::op,
            KeyClearParams::op,
            SessionsListParams::op,
            SessionResumeParams::op,
            SessionNewParams::op,
            UndoParams::op,
            RewindParams::op,
            CheckpointsParams::op,
            ChangeParams::op,
            ModelsParams::op,
            McpListParams::op,
            McpRestartParams::op,
            McpEditorSetParams::op,
            LspListParams::op,
            LspRestartParams::op,
            LspDiagnosticsParams::op,
            LspHoverParams::op,
            LspDefinitionParams::op,
            LspReferencesParams::op,
            LspSymbolsParams::op,
            EditorReaderSetParams::op,
            EditorReadReplyParams::op,
            PlansListParams::op,
            PlansGetParams::op,
            PlansCheckParams::op,
            PlansCommentAddParams::op,
            PlansCommentReplyParams::op,
            PlansCommentResolveParams::op};
    // clang-format on
}

std::string exit_text(const CommandExit& exit) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.1f s", exit.seconds);
    if (exit.timed_out) return "killed: timed out after " + std::string(seconds);
    if (exit.stopped) return "stopped by the user after " + std::string(seconds);
    if (exit.signal)
        return "killed by signal " + std::to_string(*exit.signal) + " after " + seconds;
    return "exit code " + std::to_string(exit.code.value_or(0)) + " · " + seconds;
}

} // namespace rio
