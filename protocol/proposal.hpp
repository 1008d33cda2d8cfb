// What the agent proposes for a person to decide (DESIGN §5, agent.propose): one struct per
// kind, held as a variant from the tool that prepares it, through the loop that waits on it, to
// the wire and into every frontend — typed all the way, so no one reads a proposal by key.
#pragma once

#include "protocol/closed_sets.hpp"
#include "protocol/names.hpp"
#include "protocol/plan_comments.hpp"
#include "protocol/sandbox_use.hpp"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace rio {

// edit_file and create_file: the file, the change as a unified diff, and the whole text before
// and after it, which the core keeps (agent.proposal, the session) and agent.propose leaves out.
struct EditProposal {
    std::string path, diff;
    std::optional<std::string> before = std::nullopt, after = std::nullopt;
    // "not in the plan" when an approved plan is being carried out and names no such file
    std::optional<std::string> plan_note = std::nullopt;
    // A file the approved plan's steps name changed since the approval by something other than
    // the agent's own work (issue 43): what changed, as a unified diff when rio kept the text
    // it had then. Such an edit always waits for a person.
    std::optional<std::string> drift = std::nullopt;
};

// run_command: the program and its arguments, where and how long it runs, whether a human-written
// allow rule covers it, and the sandbox approving it runs it in.
struct CommandProposal {
    std::vector<std::string> argv;
    std::string cwd;
    std::uint64_t timeout_s = 0;
    bool allowed = false;
    std::optional<SandboxUse> sandbox = std::nullopt;
    // The hosts the model says the command needs (issue 45), for the person to allow or not.
    std::vector<std::string> hosts = {};
};

// An MCP server's tool (mcp__…): which, with what arguments, and whether an allow rule covers
// it. The arguments are the model's, free-form JSON as the tool's schema asks.
struct McpProposal {
    std::string server, tool;
    nlohmann::json arguments = nlohmann::json::object();
    bool allowed = false;
};

// A declared step's proof (DESIGN §20): a command the person approves with the plan. Carried
// here; running it is the plan's work (issue 43 item 2).
struct StepCheck {
    std::vector<std::string> argv; // never empty once read from the model
    std::string cwd = "";          // "" is the project root
    bool writes = false;           // needs workspace-write, not read-only
};

// One of the steps the model declares with its plan: what to do, the project paths or globs it
// may change, and the command that proves it.
struct DeclaredStep {
    std::string text;
    std::vector<std::string> files = {};
    std::optional<StepCheck> check = std::nullopt;
};

// present_plan: the plan as proposed, the file it was filed in ("" when it could not be, and
// then not_filed says why), the filed plan it revises, if any, and the steps the model
// declared (none: the plan's "Changes" list stands in for them).
struct PlanProposal {
    std::string title, plan, path;
    std::string revises;   // "" unless it revises a filed plan
    std::string not_filed; // "" unless filing failed
    std::vector<DeclaredStep> steps = {};
    // Its review comments as filed (issue 44): the ones carried from the plan it revises,
    // those it addresses answered.
    std::vector<ReviewComment> comments = {};
    // Ids its `addresses` named that no comment has: it is filed all the same, and the tool
    // result lists them.
    std::vector<std::string> unknown_addresses = {};
};

// A kind this build does not know (a newer core's): shown by its name, decided all the same.
struct OtherProposal {
    std::string kind;
};

using ProposalBody =
    std::variant<EditProposal, CommandProposal, McpProposal, PlanProposal, OtherProposal>;

// agent.propose, agent.status's `pending` and agent.proposal: which call of which turn, and what
// it would do.
struct Proposal {
    static constexpr std::string_view event = event::agent_propose;
    std::uint64_t turn = 0;
    std::string id;
    ProposalBody body;

    Wire<ProposalKind> kind() const;
    bool is(ProposalKind k) const { return kind() == k; }
    const EditProposal* edit() const { return std::get_if<EditProposal>(&body); }
    const CommandProposal* command() const { return std::get_if<CommandProposal>(&body); }
    const McpProposal* mcp() const { return std::get_if<McpProposal>(&body); }
    const PlanProposal* plan() const { return std::get_if<PlanProposal>(&body); }
    // A plan's fields, all "" for any other kind.
    PlanProposal as_plan() const;
    // The file an edit or a plan is about, "" for other kinds.
    std::string path() const;
    // As agent.propose carries it: an edit without its whole texts.
    Proposal brief() const;
};

void to_json(nlohmann::json& j, const EditProposal& p);
void to_json(nlohmann::json& j, const CommandProposal& p);
void to_json(nlohmann::json& j, const McpProposal& p);
// cwd and writes, files and check only when set, as the model may leave them out.
void to_json(nlohmann::json& j, const StepCheck& c);
void to_json(nlohmann::json& j, const DeclaredStep& s);
// Lenient like a proposal: what is missing or mistyped is empty.
void from_json(const nlohmann::json& j, StepCheck& c);
void from_json(const nlohmann::json& j, DeclaredStep& s);
// revises, not_filed and steps only when set: a plan without steps is on the wire as before.
void to_json(nlohmann::json& j, const PlanProposal& p);
void to_json(nlohmann::json& j, const Proposal& p);
// Lenient, as a frontend must be with a newer core: a missing field is empty, a kind it does
// not know is an OtherProposal.
void from_json(const nlohmann::json& j, Proposal& p);

} // namespace rio
