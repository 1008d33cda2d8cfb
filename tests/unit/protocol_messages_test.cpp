// The protocol's typed shapes: required and optional fields, the messages they give, and
// the flattened free-form parts.
#include "protocol/messages.hpp"

#include <gtest/gtest.h>

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

} // namespace
} // namespace rio
