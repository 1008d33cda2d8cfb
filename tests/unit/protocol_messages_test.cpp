// The protocol's typed shapes: required and optional fields, the messages they give, and
// the flattened free-form parts.
#include "protocol/messages.hpp"

#include <gtest/gtest.h>
#include <set>

namespace rio {
namespace {

std::string refusal(const Json& j) {
    try {
        (void)parse_fields<ApproveParams>(j);
    } catch (const ParamError& e) {
        return e.what();
    }
    return "accepted";
}

TEST(ProtocolMessages, RequiredFieldsAndTypesAreCheckedByName) {
    EXPECT_EQ(refusal(Json::object()), "params.turn is required");
    EXPECT_EQ(refusal(Json{{"turn", "one"}, {"decision", "approve"}}),
              "params.turn: expected a non-negative integer, got string");
    EXPECT_EQ(refusal(Json{{"turn", -1}, {"decision", "approve"}}),
              "params.turn: expected a non-negative integer, got number");
    EXPECT_EQ(refusal(Json{{"turn", 1}}), "params.decision is required");
    EXPECT_EQ(refusal(Json{{"turn", 1}, {"decision", "approve"}, {"policy", 3}}),
              "params.policy: expected a string, got number");
    EXPECT_EQ(refusal(Json{{"turn", 1}, {"decision", "approve"}, {"id", nullptr}}), "accepted")
        << "null is absent";
    auto p = parse_fields<ApproveParams>(
        Json{{"turn", 7}, {"decision", "reject"}, {"feedback", "no"}, {"unknown", true}});
    EXPECT_EQ(p.turn, 7u);
    EXPECT_EQ(p.feedback, "no");
    EXPECT_FALSE(p.policy.has_value());
}

TEST(ProtocolMessages, OptionalFieldsAreLeftOutWhenEmpty) {
    DecidedEvent d{1,
                   "c1",
                   ProposalKind::plan,
                   Verdict::approve,
                   Wire<ApprovalPolicy>(ApprovalPolicy::automatic),
                   std::nullopt,
                   {},
                   {},
                   {},
                   {},
                   {}};
    Json j = d;
    EXPECT_EQ(j, (Json{{"turn", 1},
                       {"id", "c1"},
                       {"kind", "plan"},
                       {"decision", "approve"},
                       {"policy", "auto"}}));
    EXPECT_TRUE(j.get<DecidedEvent>().policy == ApprovalPolicy::automatic);
}

TEST(ProtocolMessages, NestedStructsAndArraysNameTheirPlace) {
    try {
        (void)parse_fields<HistoryResult>(
            Json{{"turn", 1}, {"messages", {{{"role", "user"}, {"text", 3}}}}});
        FAIL();
    } catch (const ParamError& e) {
        EXPECT_STREQ(e.what(), "params.messages[0].text: expected a string, got number");
    }
}

TEST(ProtocolMessages, EachProposalKindReadsTypedAndWritesTheSameWire) {
    const Json edit{{"turn", 1},
                    {"id", "e"},
                    {"kind", "edit"},
                    {"path", "a.py"},
                    {"diff", "@@ -1 +1 @@"},
                    {"before", "x\n"},
                    {"after", "y\n"},
                    {"plan_note", "not in the plan"}};
    const Json command{
        {"turn", 2},         {"id", "c"},
        {"kind", "command"}, {"argv", {"make", "test"}},
        {"cwd", "."},        {"timeout_s", 120},
        {"allowed", false},  {"sandbox", {{"profile", "workspace-write"}, {"network", false}}}};
    const Json mcp{{"turn", 3},      {"id", "m"},       {"kind", "mcp"},
                   {"server", "fs"}, {"tool", "write"}, {"arguments", {{"path", "/p/a"}, {"n", 2}}},
                   {"allowed", true}};
    const Json plan{{"turn", 4},
                    {"id", "p"},
                    {"kind", "plan"},
                    {"title", "Fix it"},
                    {"plan", "1. Edit"},
                    {"path", ".rio/plans/fix.md"},
                    {"revises", ".rio/plans/old.md"}};
    for (const Json& wire : {edit, command, mcp, plan})
        EXPECT_EQ(Json(wire.get<Proposal>()), wire) << wire.dump();

    Proposal e = edit.get<Proposal>();
    ASSERT_TRUE(e.edit());
    EXPECT_EQ(e.edit()->after, "y\n");
    EXPECT_EQ(e.path(), "a.py");
    EXPECT_FALSE(Json(e.brief()).contains("before")) << "agent.propose leaves the texts out";
    Proposal c = command.get<Proposal>();
    ASSERT_TRUE(c.command());
    EXPECT_EQ(c.command()->argv, (std::vector<std::string>{"make", "test"}));
    EXPECT_TRUE(c.command()->sandbox->profile == SandboxProfile::workspace_write);
    EXPECT_TRUE(c.is(ProposalKind::command));
    EXPECT_EQ(mcp.get<Proposal>().mcp()->arguments["n"], 2);
    EXPECT_EQ(plan.get<Proposal>().as_plan().revises, ".rio/plans/old.md");

    UsageEvent u = Json{{"turn", 3}, {"input_tokens", 10}}.get<UsageEvent>();
    EXPECT_EQ(u.counts, (Json{{"input_tokens", 10}}));
    AgentStatus idle;
    EXPECT_TRUE(Json(idle)["pending"].is_null()) << "null, not absent: nothing is pending";
    EXPECT_TRUE(Json(ProposalResult{})["proposal"].is_null());
}

TEST(ProtocolMessages, AProposalOfAKindThisBuildDoesNotKnowIsKeptByName) {
    // A newer core's kind reaches an older frontend as "other", named, never as an error.
    Proposal p =
        Json{{"turn", 9}, {"id", "n"}, {"kind", "deploy"}, {"target", "prod"}}.get<Proposal>();
    EXPECT_EQ(p.kind().name(), "deploy");
    EXPECT_FALSE(p.kind().value());
    EXPECT_FALSE(p.edit() || p.command() || p.mcp() || p.plan());
    EXPECT_EQ(Json(p), (Json{{"turn", 9}, {"id", "n"}, {"kind", "deploy"}}));
    // A field of the wrong type reads as absent.
    Proposal odd = Json{{"turn", 1}, {"id", "e"}, {"kind", "plan"}, {"title", 7}}.get<Proposal>();
    EXPECT_EQ(odd.as_plan().title, "");
    EXPECT_EQ(Proposal{}.as_plan().path, "") << "an edit has no plan fields";
}

TEST(ProtocolMessages, APlanProposalWritesOnlyWhatIsSet) {
    PlanProposal filed{"Fix it", "1. Edit", ".rio/plans/fix.md", "", ""};
    EXPECT_EQ(Json(filed),
              (Json{{"title", "Fix it"}, {"plan", "1. Edit"}, {"path", ".rio/plans/fix.md"}}));
    PlanProposal revision{"Fix it", "2. Test", "", ".rio/plans/fix.md", "the disk is full"};
    const PlanProposal read = Json(Proposal{5, "d", revision}).get<Proposal>().as_plan();
    EXPECT_EQ(read.revises, ".rio/plans/fix.md");
    EXPECT_EQ(read.not_filed, "the disk is full");
    EXPECT_EQ(read.plan, "2. Test");
}

TEST(ProtocolMessages, ToolResultsCarryACommandsExitAsData) {
    ToolResultEvent r;
    r.turn = 1;
    r.id = "c";
    r.name = "run_command";
    r.ok = false;
    r.content = "$ make\n[exit code 2 · 0.1 s]";
    r.exit = CommandExit{2, std::nullopt, false, false, 0.1};
    Json j = r;
    EXPECT_EQ(j["name"], "run_command");
    EXPECT_EQ(j["exit"],
              (Json{{"code", 2}, {"timed_out", false}, {"stopped", false}, {"seconds", 0.1}}));
    EXPECT_EQ(j.get<ToolResultEvent>().exit->code, 2);
    EXPECT_FALSE(j.contains("output")) << "a call that printed nothing says nothing";
    r.output = "make: *** No rule to make target 'all'.\n";
    j = r;
    EXPECT_EQ(j["output"], *r.output);
    EXPECT_EQ(j.get<ToolResultEvent>().output, r.output);
}

// Every name of a closed set reads back as its value, no two values share a name, and a name
// outside the set is none (a newer core's kind reaches an older frontend as unknown).
template <typename E> void expect_round_trips(std::size_t count) {
    const auto& rows = all_wire_names<E>();
    EXPECT_EQ(std::size(rows), count);
    std::set<std::string_view> seen;
    for (const auto& row : rows) {
        EXPECT_EQ(to_wire(row.value), row.name);
        EXPECT_EQ(from_wire<E>(row.name), row.value) << row.name;
        EXPECT_TRUE(seen.insert(row.name).second) << row.name << " twice";
    }
    EXPECT_EQ(from_wire<E>("no such name"), std::nullopt);
    EXPECT_EQ(from_wire<E>(""), std::nullopt);
}

} // namespace

// Decision 0070: the closed sets are enums with one table of wire names each; the names are
// the protocol's (docs/protocol.md), byte for byte.
TEST(ClosedSets, EveryNameRoundTripsAndAnUnknownOneIsNone) {
    expect_round_trips<Mode>(2);
    expect_round_trips<ToolKind>(5);
    expect_round_trips<ProposalKind>(4);
    expect_round_trips<Verdict>(2);
    expect_round_trips<PlanStatus>(4);
    expect_round_trips<StepStatus>(5);
    expect_round_trips<StopReason>(2);
    expect_round_trips<BufferChange>(6);
    expect_round_trips<WireFormat>(3);
    expect_round_trips<CommentState>(3);
    expect_round_trips<CommentAuthor>(2);
    expect_round_trips<NetworkReach>(2);
    expect_round_trips<DiffSource>(4);
    expect_round_trips<GitChange>(4);
    expect_round_trips<GitHead>(3);
    expect_round_trips<SubagentState>(6);
    expect_round_trips<DefinitionScope>(2);
    expect_round_trips<RewindAction>(2);
    EXPECT_EQ(to_wire(NetworkReach::by_host), "by-host");
    EXPECT_EQ(to_wire(StopReason::new_message), "new message");
    EXPECT_EQ(to_wire(StepStatus::in_progress), "in_progress");
    EXPECT_EQ(to_wire(BufferChange::disk_changed), "disk_changed");
    EXPECT_EQ(to_wire(ProposalKind::mcp), "mcp");
}

TEST(ClosedSets, MessagesCompareTheirNamesAsEnumsAndKeepAnUnknownNameAsItCame) {
    Proposal p = Json{{"turn", 1}, {"id", "c"}, {"kind", "plan"}, {"title", "T"}}.get<Proposal>();
    EXPECT_TRUE(p.is(ProposalKind::plan));
    EXPECT_FALSE(p.is(ProposalKind::edit));
    Proposal later = Json{{"turn", 1}, {"id", "c"}, {"kind", "lint"}}.get<Proposal>();
    for (const auto& row : all_wire_names<ProposalKind>())
        EXPECT_FALSE(later.is(row.value)) << row.name;
    EXPECT_EQ(Json(later)["kind"], "lint") << "an unknown kind is passed on unchanged";

    DecidedEvent d;
    d.decision = Verdict::approve;
    EXPECT_TRUE(d.approved());
    EXPECT_FALSE(d.rejected());
    d.decision = Wire<Verdict>::named("maybe");
    EXPECT_FALSE(d.approved());
    EXPECT_FALSE(d.rejected());

    PlanStep step{1, "x", "in_progress", std::nullopt};
    EXPECT_TRUE(step.is(StepStatus::in_progress));
    StoppedEvent stopped{1, "new message"};
    EXPECT_TRUE(stopped.is(StopReason::new_message));
}

} // namespace rio
