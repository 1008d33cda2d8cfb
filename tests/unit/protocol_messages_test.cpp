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
    DecidedEvent d{1,  "c1", "plan", "approve", std::string("auto"), std::nullopt, {},
                   {}, {},   {},     {}};
    Json j = d;
    EXPECT_EQ(j, (Json{{"turn", 1},
                       {"id", "c1"},
                       {"kind", "plan"},
                       {"decision", "approve"},
                       {"policy", "auto"}}));
    EXPECT_EQ(j.get<DecidedEvent>().policy, "auto");
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

TEST(ProtocolMessages, ProposalsAndUsageKeepTheirFreeFormFieldsFlat) {
    Json wire{{"turn", 2}, {"id", "p"}, {"kind", "plan"}, {"title", "T"}, {"path", ".rio/x.md"}};
    Proposal p = wire.get<Proposal>();
    EXPECT_EQ(p.kind, "plan");
    EXPECT_EQ(p.text("title"), "T");
    EXPECT_EQ(Json(p), wire);
    UsageEvent u = Json{{"turn", 3}, {"input_tokens", 10}}.get<UsageEvent>();
    EXPECT_EQ(u.counts, (Json{{"input_tokens", 10}}));
    AgentStatus idle;
    EXPECT_TRUE(Json(idle)["pending"].is_null()) << "null, not absent: nothing is pending";
}

TEST(ProtocolMessages, APlanProposalsFieldsReadTypedAndWriteOnlyWhatIsSet) {
    PlanFields filed{"Fix it", "1. Edit", ".rio/plans/fix.md", "", ""};
    EXPECT_EQ(Json(filed),
              (Json{{"title", "Fix it"}, {"plan", "1. Edit"}, {"path", ".rio/plans/fix.md"}}));
    Proposal p{4, "c", "plan", Json(filed)};
    EXPECT_EQ(p.as_plan().path, ".rio/plans/fix.md");
    EXPECT_EQ(p.as_plan().revises, "");

    PlanFields revision{"Fix it", "2. Test", "", ".rio/plans/fix.md", "the disk is full"};
    Proposal q = Json{{"turn", 5}, {"id", "d"}, {"kind", "plan"}}.get<Proposal>();
    q.fields = Json(revision);
    const PlanFields read = q.as_plan();
    EXPECT_EQ(read.revises, ".rio/plans/fix.md");
    EXPECT_EQ(read.not_filed, "the disk is full");
    EXPECT_EQ(read.plan, "2. Test");
    // A field of the wrong type reads as absent, as Proposal::text does.
    Proposal odd = Json{{"turn", 1}, {"id", "e"}, {"kind", "plan"}, {"title", 7}}.get<Proposal>();
    EXPECT_EQ(odd.as_plan().title, "");
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
    expect_round_trips<StepStatus>(4);
    expect_round_trips<StopReason>(2);
    expect_round_trips<BufferChange>(6);
    expect_round_trips<WireFormat>(2);
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
    d.decision = "approve";
    EXPECT_TRUE(d.approved());
    EXPECT_FALSE(d.rejected());
    d.decision = "maybe";
    EXPECT_FALSE(d.approved());
    EXPECT_FALSE(d.rejected());

    PlanStep step{1, "x", "in_progress", std::nullopt};
    EXPECT_TRUE(step.is(StepStatus::in_progress));
    StoppedEvent stopped{1, "new message"};
    EXPECT_TRUE(stopped.is(StopReason::new_message));
}

} // namespace rio
