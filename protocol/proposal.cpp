#include "protocol/proposal.hpp"

#include "protocol/fields.hpp"

namespace rio {
namespace {

using Json = nlohmann::json;

std::string text(const Json& j, const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<std::string> optional_text(const Json& j, const char* key) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_string()) return std::nullopt;
    return it->get<std::string>();
}

bool flag(const Json& j, const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_boolean() && it->get<bool>();
}

EditProposal edit_from(const Json& j) {
    return {text(j, "path"),
            text(j, "diff"),
            optional_text(j, "before"),
            optional_text(j, "after"),
            optional_text(j, "plan_note"),
            optional_text(j, "drift")};
}

std::vector<std::string> texts(const Json& j, const char* key) {
    std::vector<std::string> out;
    if (auto it = j.find(key); it != j.end() && it->is_array())
        for (const Json& word : *it)
            if (word.is_string()) out.push_back(word.get<std::string>());
    return out;
}

CommandProposal command_from(const Json& j) {
    CommandProposal p;
    p.argv = texts(j, "argv");
    p.cwd = text(j, "cwd");
    if (auto it = j.find("timeout_s");
        it != j.end() && it->is_number_integer() && it->get<std::int64_t>() >= 0)
        p.timeout_s = it->get<std::uint64_t>();
    p.allowed = flag(j, "allowed");
    if (auto it = j.find("sandbox"); it != j.end() && it->is_object())
        p.sandbox = it->get<SandboxUse>();
    p.hosts = texts(j, "hosts");
    return p;
}

McpProposal mcp_from(const Json& j) {
    McpProposal p{text(j, "server"), text(j, "tool"), Json::object(), flag(j, "allowed")};
    if (auto it = j.find("arguments"); it != j.end()) p.arguments = *it;
    return p;
}

PlanProposal plan_from(const Json& j) {
    PlanProposal p{text(j, "title"), text(j, "plan"), text(j, "path"), text(j, "revises"),
                   text(j, "not_filed")};
    if (auto it = j.find("steps"); it != j.end() && it->is_array())
        for (const Json& step : *it)
            if (step.is_object()) p.steps.push_back(step.get<DeclaredStep>());
    if (auto it = j.find("comments"); it != j.end() && it->is_array())
        for (const Json& comment : *it)
            try {
                p.comments.push_back(comment.get<ReviewComment>());
            } catch (const std::exception&) { // a malformed one is left out, the plan kept
            }
    p.unknown_addresses = texts(j, "unknown_addresses");
    return p;
}

ProposalBody body_from(const Json& j, const std::string& kind) {
    switch (from_wire<ProposalKind>(kind).value_or(static_cast<ProposalKind>(-1))) {
    case ProposalKind::edit:
        return edit_from(j);
    case ProposalKind::command:
        return command_from(j);
    case ProposalKind::mcp:
        return mcp_from(j);
    case ProposalKind::plan:
        return plan_from(j);
    }
    return OtherProposal{kind};
}

} // namespace

Wire<ProposalKind> Proposal::kind() const {
    struct Kind {
        Wire<ProposalKind> operator()(const EditProposal&) const { return ProposalKind::edit; }
        Wire<ProposalKind> operator()(const CommandProposal&) const {
            return ProposalKind::command;
        }
        Wire<ProposalKind> operator()(const McpProposal&) const { return ProposalKind::mcp; }
        Wire<ProposalKind> operator()(const PlanProposal&) const { return ProposalKind::plan; }
        Wire<ProposalKind> operator()(const OtherProposal& p) const {
            return Wire<ProposalKind>::named(p.kind);
        }
    };
    return std::visit(Kind{}, body);
}

PlanProposal Proposal::as_plan() const {
    const PlanProposal* p = plan();
    return p ? *p : PlanProposal{};
}

std::string Proposal::path() const {
    if (const EditProposal* e = edit()) return e->path;
    if (const PlanProposal* p = plan()) return p->path;
    return {};
}

Proposal Proposal::brief() const {
    Proposal out = *this;
    if (auto* e = std::get_if<EditProposal>(&out.body)) {
        e->before.reset();
        e->after.reset();
    }
    return out;
}

void to_json(Json& j, const EditProposal& p) {
    j = Json{{"path", p.path}, {"diff", p.diff}};
    if (p.before) j["before"] = *p.before;
    if (p.after) j["after"] = *p.after;
    if (p.plan_note) j["plan_note"] = *p.plan_note;
    if (p.drift) j["drift"] = *p.drift;
}

void to_json(Json& j, const CommandProposal& p) {
    j = Json{{"argv", p.argv}, {"cwd", p.cwd}, {"timeout_s", p.timeout_s}, {"allowed", p.allowed}};
    if (p.sandbox) j["sandbox"] = *p.sandbox;
    if (!p.hosts.empty()) j["hosts"] = p.hosts;
}

void to_json(Json& j, const McpProposal& p) {
    j = Json{
        {"server", p.server}, {"tool", p.tool}, {"arguments", p.arguments}, {"allowed", p.allowed}};
}

void to_json(Json& j, const StepCheck& c) {
    j = Json{{"argv", c.argv}};
    if (!c.cwd.empty()) j["cwd"] = c.cwd;
    if (c.writes) j["writes"] = true;
}

void to_json(Json& j, const DeclaredStep& s) {
    j = Json{{"text", s.text}};
    if (!s.files.empty()) j["files"] = s.files;
    if (s.check) j["check"] = *s.check;
}

void from_json(const Json& j, StepCheck& c) {
    c.argv = texts(j, "argv");
    c.cwd = text(j, "cwd");
    c.writes = flag(j, "writes");
}

void from_json(const Json& j, DeclaredStep& s) {
    s.text = text(j, "text");
    s.files = texts(j, "files");
    s.check.reset();
    if (auto it = j.find("check"); it != j.end() && it->is_object()) s.check = it->get<StepCheck>();
}

void to_json(Json& j, const PlanProposal& p) {
    j = Json{{"title", p.title}, {"plan", p.plan}, {"path", p.path}};
    if (!p.revises.empty()) j["revises"] = p.revises;
    if (!p.not_filed.empty()) j["not_filed"] = p.not_filed;
    if (!p.steps.empty()) j["steps"] = p.steps;
    if (!p.comments.empty()) j["comments"] = p.comments;
    if (!p.unknown_addresses.empty()) j["unknown_addresses"] = p.unknown_addresses;
}

void to_json(Json& j, const Proposal& p) {
    j = Json::object();
    std::visit(
        [&j](const auto& body) {
            if constexpr (!std::is_same_v<std::decay_t<decltype(body)>, OtherProposal>) j = body;
        },
        p.body);
    j["turn"] = p.turn;
    j["id"] = p.id;
    j["kind"] = p.kind().name();
}

void from_json(const Json& j, Proposal& p) {
    p.turn = j.value("turn", std::uint64_t{0});
    p.id = text(j, "id");
    p.body = body_from(j, text(j, "kind"));
}

} // namespace rio
