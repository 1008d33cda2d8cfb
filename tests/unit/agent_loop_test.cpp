// The agent loop as a state machine: inputs in, effects out — no process, thread or socket.
#include "tests/unit/loop_harness.hpp"

#include <algorithm>
#include <gtest/gtest.h>

namespace rio {
namespace {

using Json = nlohmann::json;

std::vector<std::string> names(const std::vector<ToolSpec>& tools) {
    std::vector<std::string> out;
    for (const ToolSpec& t : tools)
        out.push_back(t.name);
    return out;
}

using Harness = test::LoopHarness;

ToolCall call(std::string id, std::string name, Json input) {
    return ToolCall{std::move(id), std::move(name), std::move(input)};
}

// Roles alternate starting with the user, and every call is answered in the next entry.
void expect_valid(const Conversation& c) {
    for (std::size_t i = 0; i < c.size(); ++i) {
        EXPECT_EQ(c[i]->role, i % 2 == 0 ? Role::user : Role::assistant) << "entry " << i;
        if (c[i]->role != Role::assistant || c[i]->calls.empty()) continue;
        ASSERT_LT(i + 1, c.size()) << "dangling tool calls at the end";
        std::vector<std::string> answered;
        for (const ToolOutcome& r : c[i + 1]->results)
            answered.push_back(r.call_id);
        for (const ToolCall& tc : c[i]->calls)
            EXPECT_NE(std::find(answered.begin(), answered.end(), tc.id), answered.end())
                << tc.id << " unanswered";
    }
}

const Json edit_input{{"path", "a.txt"}, {"old_string", "a"}, {"new_string", "b"}};
const Json plan_input{{"title", "T"}, {"plan", "1. do it"}};

// Decision 0053: the gate allows the mode's tools; the request lists them all, so its prefix
// is the same in both modes.
TEST(AgentLoop, PlanModeOffersOnlyReadToolsAndPresentPlan) {
    Harness h;
    h.loop.set_mode(Mode::plan, h.out);
    h.send("hi");
    EXPECT_EQ(names(h.loop.offered()),
              (std::vector<std::string>{"list_dir", "read_file", "search", "diagnostics",
                                        "present_plan", "task"}));
    EXPECT_EQ(names(h.last_call().tools).size(), 10u) << "listed, not allowed";
    EXPECT_EQ(h.last_call().mode, Mode::plan);
}

TEST(AgentLoop, BuildModeOffersEveryTool) {
    Harness h;
    h.send("hi");
    EXPECT_EQ(names(h.last_call().tools),
              (std::vector<std::string>{"list_dir", "read_file", "search", "diagnostics",
                                        "edit_file", "create_file", "run_command", "present_plan",
                                        "plan_progress", "task"}));
    EXPECT_EQ(names(h.loop.offered()).size(), 9u) << "plan_progress waits for an approval";
}

TEST(AgentLoop, ToolsAreRecomposedOnEveryStep) {
    Harness h;
    h.send("hi");
    h.loop.set_mode(Mode::plan, h.out); // mid-turn
    h.reply("", {call("c1", "list_dir", {{"path", "."}})});
    h.tool_report(h.all<RunTool>().back(), "a.txt\n");
    EXPECT_EQ(h.all<CallProvider>().size(), 2u);
    EXPECT_EQ(names(h.loop.offered()).size(), 6u) << "the second step sees plan mode";
}

TEST(AgentLoop, DeltasStreamAndTheTurnEndsWithoutToolCalls) {
    Harness h;
    TurnId turn = h.send("hello");
    h.reply("Hi there.");
    EXPECT_EQ(h.events<DeltaEvent>().at(0).text, "Hi there.");
    EXPECT_EQ(h.events<DoneEvent>().at(0).turn, turn);
    EXPECT_FALSE(h.loop.busy());
    ASSERT_EQ(h.loop.history().size(), 2u);
    EXPECT_EQ(h.loop.history()[1]->text, "Hi there.");
}

TEST(AgentLoop, ReadToolsRunAtOnceAndTheirResultsFormOneUserEntry) {
    Harness h;
    h.send("look");
    h.reply("",
            {call("c1", "read_file", {{"path", "a"}}), call("c2", "list_dir", {{"path", "."}})});
    ASSERT_EQ(h.all<RunTool>().size(), 1u) << "calls run one at a time, in order";
    EXPECT_EQ(h.all<RunTool>()[0].stage, ToolStage::run);
    h.tool_report(h.all<RunTool>()[0], "text of a");
    ASSERT_EQ(h.all<RunTool>().size(), 2u);
    h.tool_report(h.all<RunTool>()[1], "a\n");
    const Message& results = *h.loop.history().back();
    EXPECT_EQ(results.role, Role::user);
    ASSERT_EQ(results.results.size(), 2u);
    EXPECT_EQ(results.results[0].content, "text of a");
    EXPECT_EQ(h.all<CallProvider>().size(), 2u) << "the loop continues after the results";
}

TEST(AgentLoop, WriteToolsInPlanModeAreRefusedWithoutRunning_EvenWithAutoAccept) {
    Harness h;
    h.loop.set_mode(Mode::plan, h.out);
    h.loop.set_auto_accept(true, h.out);
    h.send("change things");
    h.reply("", {call("e", "edit_file", edit_input),
                 call("c", "create_file", {{"path", "n"}, {"content", "x"}}),
                 call("r", "run_command", {{"argv", {"rm", "-rf", "/"}}})});
    EXPECT_TRUE(h.all<RunTool>().empty()) << "nothing may run";
    auto results = h.events<ToolResultEvent>();
    ASSERT_EQ(results.size(), 3u);
    for (const ToolResultEvent& r : results) {
        EXPECT_EQ(r.ok, false);
        EXPECT_NE(r.content.find("not available in plan mode"), std::string::npos);
    }
    EXPECT_EQ(h.all<CallProvider>().size(), 2u);
    expect_valid(h.loop.history());
}

TEST(AgentLoop, APlanModeRefusalNamesTheReadToolsOffered) {
    Harness h;
    h.loop.set_mode(Mode::plan, h.out);
    h.send("change things");
    h.reply("", {call("e", "edit_file", edit_input)});
    EXPECT_NE(
        h.events<ToolResultEvent>()[0].content.find(
            "Investigate with the read tools (list_dir, read_file, search, diagnostics, task), "
            "then call present_plan"),
        std::string::npos)
        << h.events<ToolResultEvent>()[0].content;
}

// Decision 0070: the words frontends show for a tool are a row in protocol/tool_words.hpp;
// every tool of the core's table has one, every row is a tool of the table, and the core's
// tool is what its row says it is called.
TEST(ToolTable, EveryBuiltInToolHasItsDisplayWordsAndEveryRowATool) {
    std::vector<std::string> table;
    for (const AgentTool& tool : tool_table()) {
        table.push_back(tool.spec.name);
        const ToolWords* words = find_tool_words(tool.spec.name);
        ASSERT_NE(words, nullptr) << tool.spec.name << " has no row in protocol/tool_words.hpp";
        EXPECT_FALSE(words->verb.empty()) << tool.spec.name;
        EXPECT_FALSE(words->doing.empty()) << tool.spec.name;
        EXPECT_FALSE(words->acp_kind.empty()) << tool.spec.name;
    }
    for (const ToolWords* words : builtin_tool_words)
        EXPECT_NE(std::find(table.begin(), table.end(), words->name), table.end())
            << words->name << " has words but no tool in agent_tools/tool_table.cpp";
    EXPECT_EQ(table.size(), std::size(builtin_tool_words));
    EXPECT_EQ(find_tool_words("mcp__fs__read"), nullptr);
}

TEST(AgentLoop, AnUnknownToolIsRefusedByName) {
    Harness h;
    h.send("x");
    h.reply("", {call("u", "delete_everything", Json::object())});
    EXPECT_TRUE(h.all<RunTool>().empty());
    EXPECT_NE(h.events<ToolResultEvent>()[0].content.find("no tool named 'delete_everything'"),
              std::string::npos);
}

TEST(AgentLoop, AnEditWaitsForApprovalThenApplies) {
    Harness h;
    TurnId turn = h.send("edit");
    h.reply("", {call("e", "edit_file", edit_input)});
    RunTool prepare = h.all<RunTool>().back();
    EXPECT_EQ(prepare.stage, ToolStage::prepare);
    h.tool_report(prepare, {},
                  {{"path", "a.txt"}, {"diff", "-a\n+b\n"}, {"before", "a"}, {"after", "b"}});
    auto proposed = h.events<Proposal>();
    ASSERT_EQ(proposed.size(), 1u);
    EXPECT_EQ(proposed[0].kind(), ProposalKind::edit);
    EXPECT_EQ(proposed[0].turn, turn);
    EXPECT_FALSE(Json(proposed[0]).contains("before")) << "full texts only via agent.proposal";
    EXPECT_EQ(h.loop.proposal()->edit()->before, "a");
    EXPECT_EQ(h.all<RunTool>().size(), 1u) << "waits for a person";

    ASSERT_TRUE(h.decide(true).ok());
    RunTool apply = h.all<RunTool>().back();
    EXPECT_EQ(apply.stage, ToolStage::apply);
    h.tool_report(apply, "Edited a.txt");
    EXPECT_EQ(h.events<ToolResultEvent>().back().content, "Edited a.txt");
}

TEST(AgentLoop, AutoAcceptAppliesEditsWithoutAsking) {
    Harness h;
    h.loop.set_auto_accept(true, h.out);
    h.send("edit");
    h.reply("", {call("e", "edit_file", edit_input)});
    h.tool_report(h.all<RunTool>().back(), {}, {{"path", "a.txt"}, {"diff", ""}});
    EXPECT_TRUE(h.events<Proposal>().empty());
    EXPECT_EQ(h.all<RunTool>().back().stage, ToolStage::apply);
}

// Decision 0076: an edit never waits for a language server; the turn waits once, when the
// model would end it, and goes on when the servers found problems.
TEST(AgentLoopChecks, AfterEditsTheTurnEndsOnlyOnceTheServersReportsAreIn) {
    Harness h;
    h.loop.set_auto_accept(true, h.out);
    TurnId turn = h.send("edit");
    h.reply("", {call("e", "edit_file", edit_input)});
    h.tool_report(h.all<RunTool>().back(), {}, {{"path", "a.txt"}, {"diff", ""}});
    h.tool_report(h.all<RunTool>().back(), "Edited a.txt.");
    h.reply("Done.");
    ASSERT_EQ(h.all<SettleChecks>().size(), 1u);
    EXPECT_EQ(h.all<SettleChecks>()[0].turn, turn);
    EXPECT_EQ(h.loop.state(), AgentState::checking);
    EXPECT_TRUE(h.events<DoneEvent>().empty()) << "not before the reports are in";

    h.loop.on_checks(turn, "odd reports 1 error in a.txt:\na.txt:1:1: error: ERROR", h.out);
    ASSERT_EQ(h.events<NoteEvent>().size(), 1u);
    EXPECT_EQ(h.events<NoteEvent>()[0].text,
              "Before you finish: odd reports 1 error in a.txt:\na.txt:1:1: error: ERROR\nFix "
              "what your changes broke, or say why it stays.");
    const Conversation& sent = h.last_call().conversation;
    EXPECT_EQ(sent.back()->role, Role::user);
    EXPECT_NE(sent.back()->text.find("odd reports 1 error"), std::string::npos);
    expect_valid(sent);

    h.reply("It stays: the test wants it.");
    EXPECT_EQ(h.all<SettleChecks>().size(), 1u) << "nothing was edited since";
    ASSERT_EQ(h.events<DoneEvent>().size(), 1u);
    EXPECT_EQ(h.events<DoneEvent>()[0].stop_reason, "end_turn");

    // Without edits there is nothing to wait for; a clean report ends the turn at once.
    h.send("again");
    h.reply("Nothing to do.");
    EXPECT_EQ(h.all<SettleChecks>().size(), 1u);
    turn = h.send("edit once more");
    h.reply("", {call("e2", "edit_file", edit_input)});
    h.tool_report(h.all<RunTool>().back(), {}, {{"path", "a.txt"}, {"diff", ""}});
    h.tool_report(h.all<RunTool>().back(), "Edited a.txt.");
    h.reply("Done.");
    ASSERT_EQ(h.all<SettleChecks>().size(), 2u);
    h.loop.on_checks(turn, "", h.out);
    EXPECT_EQ(h.events<DoneEvent>().size(), 3u);
    EXPECT_FALSE(h.loop.busy());
}

TEST(AgentLoopChecks, AStopWhileCheckingEndsTheTurnAndALateAnswerChangesNothing) {
    Harness h;
    h.loop.set_auto_accept(true, h.out);
    TurnId turn = h.send("edit");
    h.reply("", {call("e", "edit_file", edit_input)});
    h.tool_report(h.all<RunTool>().back(), {}, {{"path", "a.txt"}, {"diff", ""}});
    h.tool_report(h.all<RunTool>().back(), "Edited a.txt.");
    h.reply("Done.");
    ASSERT_EQ(h.loop.state(), AgentState::checking);
    std::size_t entries = h.loop.history().size();
    EXPECT_EQ(h.loop.stop({}, h.out).size(), 1u);
    EXPECT_FALSE(h.loop.busy());
    EXPECT_EQ(h.loop.history().size(), entries) << "no empty entry for calls nobody made";
    expect_valid(h.loop.history());
    std::size_t calls = h.all<CallProvider>().size();
    h.loop.on_checks(turn, "odd reports 1 error in a.txt:", h.out);
    EXPECT_EQ(h.all<CallProvider>().size(), calls);
    EXPECT_TRUE(h.events<NoteEvent>().empty());
}

TEST(AgentLoopChecks, AModelThatCannotFixTheProblemsStillEndsItsTurn) {
    Harness h;
    h.loop.set_auto_accept(true, h.out);
    TurnId turn = h.send("edit");
    for (int round = 0; round < 4; ++round) {
        std::string id = "e" + std::to_string(round);
        h.reply("", {call(id, "edit_file", edit_input)});
        h.tool_report(h.all<RunTool>().back(), {}, {{"path", "a.txt"}, {"diff", ""}});
        h.tool_report(h.all<RunTool>().back(), "Edited a.txt.");
        h.reply("Done.");
        if (!h.loop.busy()) break;
        h.loop.on_checks(turn, "odd reports 1 error in a.txt:", h.out);
    }
    EXPECT_EQ(h.all<SettleChecks>().size(), 2u);
    EXPECT_EQ(h.events<NoteEvent>().size(), 2u);
    EXPECT_FALSE(h.loop.busy()) << "the third end is taken as it is";
}

TEST(AgentLoop, CommandsWaitEvenWithAutoAcceptUnlessAllowed) {
    Harness h;
    h.loop.set_auto_accept(true, h.out);
    h.send("run");
    h.reply("", {call("r1", "run_command", {{"argv", {"make"}}}),
                 call("r2", "run_command", {{"argv", {"git", "status"}}})});
    h.tool_report(h.all<RunTool>().back(), {}, {{"argv", {"make"}}, {"allowed", false}});
    EXPECT_EQ(h.events<Proposal>().size(), 1u);
    ASSERT_TRUE(h.decide(false).ok());
    h.tool_report(h.all<RunTool>().back(), {}, {{"argv", {"git", "status"}}, {"allowed", true}});
    EXPECT_EQ(h.events<Proposal>().size(), 1u) << "an allow-listed command does not ask";
    EXPECT_EQ(h.all<RunTool>().back().stage, ToolStage::apply);
}

TEST(AgentLoop, ApprovingTheRestOfATurnAppliesItsLaterEditsOnly_UntilTheTurnEnds) {
    Harness h;
    h.send("edit");
    h.reply("",
            {call("e1", "edit_file", edit_input), call("e2", "edit_file", edit_input),
             call("r", "run_command", {{"argv", {"make"}}}), call("e3", "edit_file", edit_input)});
    const Json edit{{"path", "a.txt"}, {"diff", ""}};
    h.tool_report(h.all<RunTool>().back(), {}, edit);
    ASSERT_EQ(h.events<Proposal>().size(), 1u);
    ASSERT_TRUE(h.loop
                    .decide(Decision{h.loop.turn(),
                                     {},
                                     true,
                                     {},
                                     {},
                                     {},
                                     false,
                                     true,
                                     false,
                                     NetworkGrant{false, {}}},
                            h.out)
                    .ok());
    EXPECT_EQ(h.events<DecidedEvent>().back().rest_of_turn, true);
    h.tool_report(h.all<RunTool>().back(), "Edited a.txt"); // e1 applied
    h.tool_report(h.all<RunTool>().back(), {}, edit);       // e2 prepared
    EXPECT_EQ(h.events<Proposal>().size(), 1u) << "e2 is not asked for";
    EXPECT_EQ(h.all<RunTool>().back().stage, ToolStage::apply);
    EXPECT_FALSE(h.loop.auto_accept());
    h.tool_report(h.all<RunTool>().back(), "Edited a.txt");
    h.tool_report(h.all<RunTool>().back(), {}, {{"argv", {"make"}}, {"allowed", false}});
    EXPECT_EQ(h.events<Proposal>().size(), 2u) << "the command still asks";
    ASSERT_TRUE(h.decide(true).ok());
    h.tool_report(h.all<RunTool>().back(), "ran");
    h.tool_report(h.all<RunTool>().back(), {}, edit); // e3 prepared
    EXPECT_EQ(h.events<Proposal>().size(), 2u);
    h.tool_report(h.all<RunTool>().back(), "Edited a.txt");
    h.reply("done");
    h.loop.on_checks(h.loop.turn(), "", h.out); // the language servers found nothing
    EXPECT_FALSE(h.loop.busy());

    h.send("again");
    h.reply("", {call("e4", "edit_file", edit_input)});
    h.tool_report(h.all<RunTool>().back(), {}, edit);
    EXPECT_EQ(h.events<Proposal>().size(), 3u) << "the next turn asks again";
}

TEST(AgentLoop, OnlyAnEditsApprovalCarriesTheRestOfTheTurn) {
    Harness h;
    h.send("run");
    h.reply("", {call("r", "run_command", {{"argv", {"make"}}})});
    h.tool_report(h.all<RunTool>().back(), {}, {{"argv", {"make"}}, {"allowed", false}});
    Status s = h.loop.decide(
        Decision{h.loop.turn(), {}, true, {}, {}, {}, false, true, false, NetworkGrant{false, {}}},
        h.out);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, ErrorCode::bad_request);
    EXPECT_EQ(h.loop.state(), AgentLoop::State::awaiting_decision);
}

TEST(AgentLoop, APlanIsNeverAutoAccepted) {
    Harness h;
    h.loop.set_auto_accept(true, h.out);
    h.loop.set_mode(Mode::plan, h.out);
    h.send("plan it");
    h.reply("", {call("p", "present_plan", plan_input)});
    h.tool_report(h.all<RunTool>().back(), {}, {{"title", "T"}, {"plan", "1."}, {"path", ""}});
    EXPECT_EQ(h.events<Proposal>().size(), 1u);
    EXPECT_EQ(h.all<RunTool>().back().stage, ToolStage::prepare);
}

TEST(AgentLoop, PlanApprovalWithAutoSwitchesToBuildBeforeTheResult_AndWidensTheNextCall) {
    Harness h;
    h.loop.set_mode(Mode::plan, h.out);
    h.send("plan it");
    h.reply("", {call("p", "present_plan", plan_input)});
    h.tool_report(h.all<RunTool>().back(), {}, {{"title", "T"}, {"plan", "1."}, {"path", "x.md"}});
    h.out.clear();
    ASSERT_TRUE(h.decide(true, "auto").ok());
    EXPECT_EQ(h.loop.mode(), Mode::build);
    EXPECT_TRUE(h.loop.auto_accept());
    auto order = h.event_names();
    auto mode_at = std::find(order.begin(), order.end(), ModeEvent::event);
    ASSERT_NE(mode_at, order.end());
    EXPECT_EQ(std::find(order.begin(), order.end(), ToolResultEvent::event), order.end())
        << "the result comes only after the mode event";
    RunTool apply = h.all<RunTool>().back();
    EXPECT_TRUE(apply.policy == ApprovalPolicy::automatic);
    h.tool_report(apply, {}, {{"edited", false}, {"text", "1."}});
    std::string result = h.events<ToolResultEvent>().back().content;
    EXPECT_NE(result.find("approved"), std::string::npos);
    EXPECT_NE(result.find("without further review"), std::string::npos);
    EXPECT_EQ(names(h.loop.offered()).size(), 10u)
        << "same turn, next call: write tools and plan_progress";
    EXPECT_EQ(h.last_call().turn, 1u);
}

TEST(AgentLoop, PlanApprovalWithReviewKeepsEditsGated) {
    Harness h;
    h.loop.set_auto_accept(true, h.out);
    h.loop.set_mode(Mode::plan, h.out);
    h.send("plan it");
    h.reply("", {call("p", "present_plan", plan_input)});
    h.tool_report(h.all<RunTool>().back(), {}, {{"path", ""}});
    ASSERT_TRUE(h.decide(true, "review").ok());
    EXPECT_FALSE(h.loop.auto_accept()) << "the policy is set with the approval";
}

TEST(AgentLoop, AnEditedPlanIsWhatTheModelIsTold) {
    Harness h;
    h.loop.set_mode(Mode::plan, h.out);
    h.send("plan it");
    h.reply("", {call("p", "present_plan", plan_input)});
    h.tool_report(h.all<RunTool>().back(), {}, {{"path", "x.md"}});
    ASSERT_TRUE(h.decide(true).ok());
    h.tool_report(h.all<RunTool>().back(), {}, {{"edited", true}, {"text", "1. the user's way"}});
    std::string result = h.events<ToolResultEvent>().back().content;
    EXPECT_NE(result.find("The user edited the plan"), std::string::npos);
    EXPECT_NE(result.find("1. the user's way"), std::string::npos);
}

TEST(AgentLoop, PlanRejectionKeepsPlanModeAndCarriesTheFeedback) {
    Harness h;
    h.loop.set_mode(Mode::plan, h.out);
    h.send("plan it");
    h.reply("", {call("p", "present_plan", plan_input)});
    h.tool_report(h.all<RunTool>().back(), {}, {{"path", "x.md"}});
    ASSERT_TRUE(h.decide(false, {}, "use a flag instead").ok());
    EXPECT_EQ(h.loop.mode(), Mode::plan);
    ASSERT_EQ(h.all<MarkPlan>().size(), 1u);
    EXPECT_EQ(h.all<MarkPlan>()[0].path, "x.md");
    EXPECT_EQ(h.all<MarkPlan>()[0].status, PlanStatus::rejected);
    auto result = h.events<ToolResultEvent>().back();
    EXPECT_EQ(result.ok, false);
    EXPECT_NE(result.content.find("use a flag instead"), std::string::npos);
    EXPECT_NE(result.content.find("Do not start the work"), std::string::npos);
    EXPECT_EQ(names(h.loop.offered()).size(), 6u) << "the turn goes on, still in plan mode";
}

TEST(AgentLoop, TheFirstDecisionWins) {
    Harness h;
    h.send("edit");
    h.reply("", {call("e", "edit_file", edit_input)});
    h.tool_report(h.all<RunTool>().back(), {}, {{"path", "a.txt"}});
    ASSERT_TRUE(h.decide(true).ok());
    Status second = h.decide(false);
    ASSERT_FALSE(second.ok());
    EXPECT_EQ(second.error().code, ErrorCode::conflict);
}

TEST(AgentLoop, ADecisionWithNothingPendingIsABadRequest) {
    Harness h;
    Status s = h.decide(true);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, ErrorCode::bad_request);
    EXPECT_EQ(s.error().message, "nothing is pending for turn 0");
}

TEST(AgentLoop, StopWhileWaitingOnTheProviderCancelsItAndKeepsRolesAlternating) {
    Harness h;
    TurnId turn = h.send("first");
    h.loop.on_provider(turn, h.step(), ProviderReport::delta("partial"), h.out);
    EXPECT_EQ(h.loop.stop(std::nullopt, h.out), std::vector<TurnId>{turn});
    EXPECT_EQ(h.all<CancelProvider>().size(), 1u);
    EXPECT_EQ(h.events<StoppedEvent>().size(), 1u);
    h.loop.on_provider(turn, h.step(), ProviderReport::done("end_turn"), h.out); // late
    EXPECT_TRUE(h.events<DoneEvent>().empty()) << "reports after a stop are ignored";
    h.send("second");
    expect_valid(h.loop.history());
    EXPECT_EQ(h.loop.history()[1]->text, "partial");
}

TEST(AgentLoop, StopWhileAToolRunsAnswersEveryDanglingCall) {
    Harness h;
    h.send("go");
    h.reply("", {call("r", "run_command", {{"argv", {"sleep", "9"}}}),
                 call("l", "list_dir", {{"path", "."}})});
    h.tool_report(h.all<RunTool>().back(), {}, {{"allowed", true}});
    ASSERT_EQ(h.all<RunTool>().back().stage, ToolStage::apply);
    h.loop.stop(std::nullopt, h.out);
    EXPECT_EQ(h.all<CancelTools>().size(), 1u);
    const Message& last = *h.loop.history().back();
    ASSERT_EQ(last.results.size(), 2u);
    for (const ToolOutcome& r : last.results)
        EXPECT_TRUE(r.is_error);
    h.send("next");
    expect_valid(h.loop.history());
    EXPECT_EQ(h.loop.history().back()->text, "next");
}

TEST(AgentLoop, StopOfAnotherTurnOrWhenIdleStopsNothing) {
    Harness h;
    EXPECT_TRUE(h.loop.stop(std::nullopt, h.out).empty());
    h.send("a");
    EXPECT_TRUE(h.loop.stop(TurnId{99}, h.out).empty());
    EXPECT_TRUE(h.loop.busy());
}

TEST(AgentLoop, ANewMessageWhileAPlanIsPendingInterruptsIt_AndPlanModeStays) {
    Harness h;
    h.loop.set_mode(Mode::plan, h.out);
    TurnId first = h.send("plan it");
    h.reply("", {call("p", "present_plan", plan_input)});
    h.tool_report(h.all<RunTool>().back(), {}, {{"path", "x.md"}});
    TurnId second = h.send("actually, something else");
    EXPECT_EQ(second, first + 1);
    EXPECT_EQ(h.events<StoppedEvent>().back().turn, first);
    EXPECT_EQ(h.loop.mode(), Mode::plan);
    const Message& entry = *h.loop.history().back();
    ASSERT_EQ(entry.results.size(), 1u);
    EXPECT_TRUE(entry.results[0].is_error);
    EXPECT_NE(entry.results[0].content.find("interrupted"), std::string::npos);
    EXPECT_EQ(entry.text, "actually, something else") << "results head the new user entry";
    EXPECT_EQ(h.decide(true).error().code, ErrorCode::bad_request);
    expect_valid(h.loop.history());
}

TEST(AgentLoop, ResetClearsHistoryAndForgetsThePendingDecision) {
    Harness h;
    h.send("edit");
    h.reply("", {call("e", "edit_file", edit_input)});
    h.tool_report(h.all<RunTool>().back(), {}, {{"path", "a.txt"}});
    h.loop.reset(h.out);
    EXPECT_TRUE(h.loop.history().empty());
    EXPECT_EQ(h.events<ResetEvent>().size(), 1u);
    EXPECT_FALSE(h.loop.busy());
    EXPECT_FALSE(h.decide(true).ok());
}

TEST(AgentLoop, AProviderErrorEndsTheTurnAndTheNextTurnWorks) {
    Harness h;
    TurnId turn = h.send("one");
    h.loop.on_provider(turn, h.step(), ProviderReport::error(ErrorCode::rate_limit, "slow down"),
                       h.out);
    auto errors = h.events<ErrorEvent>();
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].code, "rate_limit");
    EXPECT_FALSE(h.loop.busy());
    h.send("two");
    h.reply("ok");
    expect_valid(h.loop.history());
    EXPECT_EQ(h.loop.history()[0]->text, "one\n\ntwo");
}

TEST(AgentLoop, StaleToolReportsAreIgnored) {
    Harness h;
    h.send("look");
    h.reply("", {call("c1", "read_file", {{"path", "a"}})});
    RunTool run = h.all<RunTool>().back();
    h.loop.on_tool(ToolReport{run.turn, "other-id", run.stage, false, "x", {}, {}, {}}, h.out);
    h.loop.on_tool(ToolReport{run.turn, run.call.id, ToolStage::apply, false, "x", {}, {}, {}},
                   h.out);
    EXPECT_TRUE(h.events<ToolResultEvent>().empty());
    EXPECT_TRUE(h.loop.expects(run.turn, run.call.id, ToolStage::run));
}

TEST(AgentLoop, KeptBlocksRideOnTheAssistantEntry_AndUsageIsBroadcast) {
    Harness h;
    TurnId turn = h.send("think");
    Json block{{"provider", "anthropic"}, {"block", {{"type", "thinking"}, {"signature", "s"}}}};
    h.loop.on_provider(turn, h.step(), ProviderReport::keep(block), h.out);
    h.loop.on_provider(turn, h.step(), ProviderReport::usage({{"input_tokens", 10}}), h.out);
    h.reply("answer");
    ASSERT_EQ(h.loop.history().back()->kept.size(), 1u);
    EXPECT_EQ(h.loop.history().back()->kept[0], block);
    auto usage = h.events<UsageEvent>();
    ASSERT_EQ(usage.size(), 1u);
    EXPECT_EQ(usage[0].counts["input_tokens"], 10);
    EXPECT_EQ(usage[0].turn, turn);
}

TEST(AgentLoop, ModeChangesAreBroadcastOnlyWhenTheyChange) {
    Harness h;
    h.loop.set_mode(Mode::build, h.out);
    EXPECT_TRUE(h.events<ModeEvent>().empty());
    h.loop.set_mode(Mode::plan, h.out);
    ASSERT_EQ(h.events<ModeEvent>().size(), 1u);
    EXPECT_TRUE(h.events<ModeEvent>()[0].is(Mode::plan));
    EXPECT_TRUE(wire_is(h.loop.status().mode, Mode::plan));
}

} // namespace
} // namespace rio

namespace rio {
namespace {

// The gate holds at the moment each call runs (DESIGN §5), not only when its step began.
TEST(AgentLoopGate, SwitchingToPlanRefusesTheStepsQueuedWriteCalls) {
    Harness h;
    h.loop.set_auto_accept(true, h.out);
    h.send("go");
    h.reply("", {call("r", "read_file", {{"path", "a"}}), call("e", "edit_file", edit_input)});
    h.loop.set_mode(Mode::plan, h.out); // the user presses Plan while the read runs
    h.tool_report(h.all<RunTool>().back(), "text");
    ASSERT_EQ(h.all<RunTool>().size(), 1u) << "the edit never reaches a tool stage";
    auto result = h.events<ToolResultEvent>().back();
    EXPECT_EQ(result.ok, false);
    EXPECT_NE(result.content.find("the user switched to plan mode"), std::string::npos);
}

TEST(AgentLoopGate, SwitchingToPlanWhileAnEditIsPreparedRefusesIt) {
    Harness h;
    h.loop.set_auto_accept(true, h.out);
    h.send("go");
    h.reply("", {call("e", "edit_file", edit_input)});
    RunTool prepare = h.all<RunTool>().back();
    h.loop.set_mode(Mode::plan, h.out);
    h.tool_report(prepare, {}, {{"path", "a.txt"}});
    EXPECT_EQ(h.all<RunTool>().size(), 1u) << "no apply";
    EXPECT_EQ(h.events<ToolResultEvent>().back().ok, false);
}

TEST(AgentLoopGate, SwitchingToPlanBeforeAnAutoAcceptedApplyRefusesIt) {
    Harness h;
    h.loop.set_auto_accept(true, h.out);
    h.send("go");
    h.reply("", {call("e", "edit_file", edit_input)});
    h.tool_report(h.all<RunTool>().back(), {}, {{"path", "a.txt"}});
    RunTool apply = h.all<RunTool>().back();
    ASSERT_EQ(apply.stage, ToolStage::apply);
    h.loop.set_mode(Mode::plan, h.out); // after the apply was asked for, before it ran
    EXPECT_FALSE(h.loop.may_run(apply, h.out));
    EXPECT_EQ(h.events<ToolResultEvent>().back().ok, false);
    EXPECT_FALSE(h.loop.expects(apply.turn, apply.call.id, ToolStage::apply));
}

TEST(AgentLoopGate, AutoAcceptTurnedOffBeforeTheApplyMakesTheEditWait) {
    Harness h;
    h.loop.set_auto_accept(true, h.out);
    h.send("go");
    h.reply("", {call("e", "edit_file", edit_input)});
    h.tool_report(h.all<RunTool>().back(), {}, {{"path", "a.txt"}});
    RunTool apply = h.all<RunTool>().back();
    h.loop.set_auto_accept(false, h.out);
    EXPECT_FALSE(h.loop.may_run(apply, h.out));
    ASSERT_EQ(h.events<Proposal>().size(), 1u);
    EXPECT_EQ(h.events<Proposal>()[0].edit()->path, "a.txt");
    ASSERT_TRUE(h.decide(true).ok());
    RunTool approved = h.all<RunTool>().back();
    EXPECT_TRUE(approved.by_person);
    EXPECT_TRUE(h.loop.may_run(approved, h.out)) << "a person's approval stands";
}

TEST(AgentLoopGate, TheLoserOfARaceForAProposalGetsConflictEvenWithTheNextOnePending) {
    Harness h;
    h.send("go");
    h.reply("", {call("e1", "edit_file", edit_input), call("e2", "edit_file", edit_input)});
    h.tool_report(h.all<RunTool>().back(), {}, {{"path", "a.txt"}});
    auto decide_id = [&](const char* id) {
        return h.loop.decide(Decision{h.loop.turn(),
                                      std::string(id),
                                      true,
                                      {},
                                      {},
                                      {},
                                      false,
                                      false,
                                      false,
                                      NetworkGrant{false, {}}},
                             h.out);
    };
    ASSERT_TRUE(decide_id("e1").ok());
    h.tool_report(h.all<RunTool>().back(), "Edited a.txt");
    h.tool_report(h.all<RunTool>().back(), {}, {{"path", "a.txt"}}); // e2 is pending now
    Status late = decide_id("e1");
    ASSERT_FALSE(late.ok());
    EXPECT_EQ(late.error().code, ErrorCode::conflict);
    EXPECT_EQ(late.error().message, "proposal e1 of turn 1 was already decided");
    EXPECT_EQ(h.loop.proposal()->id, "e2") << "the next proposal is untouched";
}

TEST(AgentLoopGate, AnApprovedPlanThatCannotBeUsedRestoresPlanMode) {
    Harness h;
    h.loop.set_mode(Mode::plan, h.out);
    h.send("plan it");
    h.reply("", {call("p", "present_plan", plan_input)});
    h.tool_report(h.all<RunTool>().back(), {}, {{"path", "x.md"}});
    ASSERT_TRUE(h.decide(true, "auto").ok());
    EXPECT_EQ(h.loop.mode(), Mode::build);
    h.tool_report(h.all<RunTool>().back(), "The plan is empty", nullptr, true);
    EXPECT_EQ(h.loop.mode(), Mode::plan);
    EXPECT_FALSE(h.loop.auto_accept());
    EXPECT_TRUE(h.events<ModeEvent>().back().is(Mode::plan));
    EXPECT_EQ(names(h.loop.offered()).size(), 6u) << "still planning";
}

TEST(AgentLoopGate, APendingPlanLeftUndecidedIsAbandoned) {
    for (int how = 0; how < 3; ++how) {
        Harness h;
        h.loop.set_mode(Mode::plan, h.out);
        h.send("plan it");
        h.reply("", {call("p", "present_plan", plan_input)});
        h.tool_report(h.all<RunTool>().back(), {}, {{"path", "x.md"}});
        if (how == 0) h.loop.stop({}, h.out);
        if (how == 1) h.send("something else");
        if (how == 2) h.loop.reset(h.out);
        ASSERT_EQ(h.all<MarkPlan>().size(), 1u) << how;
        EXPECT_EQ(h.all<MarkPlan>()[0].status, PlanStatus::abandoned);
        EXPECT_EQ(h.all<MarkPlan>()[0].path, "x.md");
    }
}

// DESIGN §19: where commands run sandboxed, plan mode offers them as read tools under
// read-only, build mode runs them under workspace-write, and a person may widen one call.
Harness sandboxed_harness() {
    Harness h;
    h.loop.set_sandbox(SandboxState{true, 7, ""}, h.out);
    return h;
}

TEST(AgentLoopSandbox, PlanModeRunsCommandsAtOnceUnderReadOnly) {
    Harness h = sandboxed_harness();
    h.loop.set_mode(Mode::plan, h.out);
    h.send("look");
    EXPECT_EQ(h.last_call().tools.size(), 10u) << "every tool is listed (decision 0053)";
    auto tools = h.loop.offered(); // what the gate lets run in plan mode
    EXPECT_EQ(names(tools),
              (std::vector<std::string>{"list_dir", "read_file", "search", "diagnostics",
                                        "run_command", "present_plan", "task"}));
    EXPECT_EQ(tools[4].kind, ToolKind::read);
    EXPECT_NE(tools[4].description.find("read-only sandbox"), std::string::npos);
    h.reply("", {call("r1", "run_command", {{"argv", {"git", "log"}}})});
    RunTool run = h.all<RunTool>().back();
    EXPECT_EQ(run.stage, ToolStage::run) << "no gate";
    EXPECT_EQ(run.kind, ToolKind::read);
    ASSERT_TRUE(run.sandbox);
    EXPECT_EQ(run.sandbox->profile, SandboxProfile::read_only);
    EXPECT_FALSE(run.sandbox->network);
    EXPECT_EQ(h.events<ToolEvent>().back().sandbox->profile, SandboxProfile::read_only);
    h.tool_report(run, "log");
    EXPECT_EQ(h.events<ToolResultEvent>().back().sandbox->profile, SandboxProfile::read_only);
    EXPECT_EQ(h.loop.status().sandbox.abi, 7);
}

TEST(AgentLoopSandbox, WithoutTheSandboxPlanModeWithholdsCommands) {
    Harness h;
    h.loop.set_sandbox(SandboxState{false, 0, "this kernel has no Landlock"}, h.out);
    h.loop.set_mode(Mode::plan, h.out);
    h.send("look");
    EXPECT_EQ(names(h.loop.offered()),
              (std::vector<std::string>{"list_dir", "read_file", "search", "diagnostics",
                                        "present_plan", "task"}));
    h.reply("", {call("r1", "run_command", {{"argv", {"git", "log"}}})});
    EXPECT_TRUE(h.all<RunTool>().empty()) << "nothing runs";
    EXPECT_EQ(h.events<ToolResultEvent>().back().ok, false) << "refused, in words";
    EXPECT_EQ(h.loop.status().sandbox.reason, "this kernel has no Landlock");
}

TEST(AgentLoopSandbox, BuildModeRunsApprovedAndAllowedCommandsUnderWorkspaceWrite) {
    Harness h = sandboxed_harness();
    h.send("run");
    h.reply("", {call("r1", "run_command", {{"argv", {"make"}}}),
                 call("r2", "run_command", {{"argv", {"git", "status"}}})});
    h.tool_report(h.all<RunTool>().back(), {}, {{"argv", {"make"}}, {"allowed", false}});
    auto proposal = h.events<Proposal>().back();
    EXPECT_EQ(proposal.command()->sandbox->profile, SandboxProfile::workspace_write);
    EXPECT_FALSE(proposal.command()->sandbox->network);
    ASSERT_TRUE(h.decide(true).ok());
    RunTool approved = h.all<RunTool>().back();
    EXPECT_EQ(approved.stage, ToolStage::apply);
    EXPECT_EQ(approved.sandbox->profile, SandboxProfile::workspace_write);
    h.tool_report(approved, "made");
    h.tool_report(h.all<RunTool>().back(), {}, {{"argv", {"git", "status"}}, {"allowed", true}});
    RunTool allowed = h.all<RunTool>().back();
    EXPECT_EQ(allowed.stage, ToolStage::apply);
    EXPECT_EQ(allowed.sandbox->profile, SandboxProfile::workspace_write)
        << "an allow rule never widens it";
    EXPECT_FALSE(allowed.sandbox->network);
}

// Issue 45: hosts a person approved join the user's standing ones for that command; an allow
// rule's command gets the standing ones only; where hosts cannot be told apart a host list is
// refused, saying why, and nothing pretends to filter.
TEST(AgentLoopSandbox, ApprovedHostsJoinTheStandingOnesWhereHostsCanBeToldApart) {
    Harness h;
    SandboxState by_host{true, 7, ""};
    by_host.network = NetworkReach::by_host;
    by_host.hosts = std::vector<std::string>{"pypi.org"};
    h.loop.set_sandbox(by_host, h.out);
    h.send("run");
    h.reply("", {call("r1", "run_command", {{"argv", {"npm", "install"}}}),
                 call("r2", "run_command", {{"argv", {"make"}}})});
    h.tool_report(h.all<RunTool>().back(), {}, {{"argv", {"npm", "install"}}, {"allowed", false}});
    EXPECT_EQ(h.events<Proposal>().back().command()->sandbox->hosts,
              std::vector<std::string>{"pypi.org"});
    Decision keep_nothing{h.loop.turn(), {},    true,           {},  {}, {}, false,
                          false,         false, NetworkGrant{}, true};
    EXPECT_EQ(h.loop.decide(keep_nothing, h.out).error().code, ErrorCode::bad_request);
    Decision hosts{h.loop.turn(),
                   {},
                   true,
                   {},
                   {},
                   {},
                   false,
                   false,
                   false,
                   NetworkGrant{false, {"registry.npmjs.org"}},
                   true};
    ASSERT_TRUE(h.loop.decide(hosts, h.out).ok());
    EXPECT_EQ(h.all<RunTool>().back().sandbox->hosts,
              (std::vector<std::string>{"registry.npmjs.org", "pypi.org"}));
    EXPECT_FALSE(h.all<RunTool>().back().sandbox->network);
    auto decided = h.events<DecidedEvent>().back();
    ASSERT_TRUE(decided.network);
    EXPECT_FALSE(decided.network->everything);
    EXPECT_EQ(decided.network->items, std::vector<std::string>{"registry.npmjs.org"});
    EXPECT_EQ(decided.keep_hosts, true);
    h.tool_report(h.all<RunTool>().back(), "ran");
    // The next one asks again, and a plain approval has the standing hosts only.
    h.tool_report(h.all<RunTool>().back(), {}, {{"argv", {"make"}}, {"allowed", true}});
    EXPECT_EQ(h.all<RunTool>().back().sandbox->hosts, std::vector<std::string>{"pypi.org"})
        << "an allow rule's command: the user's standing hosts, nothing more";

    Harness all_or_nothing;
    SandboxState none{true, 7, ""};
    none.network = NetworkReach::all_or_nothing;
    none.network_reason = "no network namespace for commands: unshare failed";
    none.hosts = std::vector<std::string>{"pypi.org"};
    all_or_nothing.loop.set_sandbox(none, all_or_nothing.out);
    all_or_nothing.send("run");
    all_or_nothing.reply("", {call("r1", "run_command", {{"argv", {"npm", "install"}}})});
    all_or_nothing.tool_report(all_or_nothing.all<RunTool>().back(), {},
                               {{"argv", {"npm", "install"}}, {"allowed", false}});
    EXPECT_FALSE(all_or_nothing.events<Proposal>().back().command()->sandbox->hosts);
    Status refused =
        all_or_nothing.loop.decide(Decision{all_or_nothing.loop.turn(),
                                            {},
                                            true,
                                            {},
                                            {},
                                            {},
                                            false,
                                            false,
                                            false,
                                            NetworkGrant{false, {"registry.npmjs.org"}}},
                                   all_or_nothing.out);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code, ErrorCode::refused);
    EXPECT_NE(refused.error().message.find("unshare failed"), std::string::npos)
        << refused.error().message;
    EXPECT_EQ(all_or_nothing.loop.state(), AgentLoop::State::awaiting_decision);
}

TEST(AgentLoopSandbox, APersonWidensOneCommandOnly_AndOnlyACommand) {
    Harness h = sandboxed_harness();
    h.send("run");
    h.reply("", {call("r1", "run_command", {{"argv", {"curl", "x"}}}),
                 call("r2", "run_command", {{"argv", {"curl", "y"}}}),
                 call("e1", "edit_file", edit_input)});
    h.tool_report(h.all<RunTool>().back(), {}, {{"argv", {"curl", "x"}}, {"allowed", false}});
    Decision wide{h.loop.turn(), {}, true, {}, {}, {}, false, false, true, NetworkGrant{true, {}}};
    ASSERT_TRUE(h.loop.decide(wide, h.out).ok());
    EXPECT_EQ(h.events<DecidedEvent>().back().unsandboxed, true);
    EXPECT_EQ(h.all<RunTool>().back().sandbox->profile, SandboxProfile::none);
    h.tool_report(h.all<RunTool>().back(), "ran");
    EXPECT_EQ(h.events<ToolResultEvent>().back().sandbox->profile, SandboxProfile::none);
    h.tool_report(h.all<RunTool>().back(), {}, {{"argv", {"curl", "y"}}, {"allowed", false}});
    EXPECT_EQ(h.events<Proposal>().back().command()->sandbox->profile,
              SandboxProfile::workspace_write);
    Decision network{h.loop.turn(),         {}, true, {}, {}, {}, false, false, false,
                     NetworkGrant{true, {}}};
    ASSERT_TRUE(h.loop.decide(network, h.out).ok());
    EXPECT_EQ(h.all<RunTool>().back().sandbox->profile, SandboxProfile::workspace_write);
    EXPECT_TRUE(h.all<RunTool>().back().sandbox->network);
    h.tool_report(h.all<RunTool>().back(), "ran");
    h.tool_report(h.all<RunTool>().back(), {}, {{"path", "a.txt"}});
    Status refused = h.loop.decide(wide, h.out);
    EXPECT_FALSE(refused.ok()) << "an edit has no sandbox to leave";
    EXPECT_EQ(refused.error().code, ErrorCode::bad_request);
}

} // namespace
} // namespace rio

namespace rio {
namespace {

// The approved plan as a contract (DESIGN §20).
struct PlanHarness : Harness {
    // Up to an approved plan (auto-accept), its turn going on with its next step.
    void approve(const std::string& text, const std::string& path = "x.md",
                 std::optional<std::string> edited = {}) {
        loop.set_mode(Mode::plan, out);
        send("plan it");
        reply("", {call("p", "present_plan", {{"title", "T"}, {"plan", text}})});
        tool_report(all<RunTool>().back(), {}, {{"title", "T"}, {"plan", text}, {"path", path}});
        ASSERT_TRUE(decide(true, "auto").ok());
        tool_report(all<RunTool>().back(), {},
                    {{"edited", edited.has_value()}, {"text", edited.value_or(text)}});
    }
    // The model calls plan_progress with `input`; the tool hands the loop what it checked.
    void progress(const Json& input, const std::string& id = "g") {
        reply("", {call(id, "plan_progress", input)});
        if (!all<RunTool>().empty() && all<RunTool>().back().call.id == id)
            tool_report(all<RunTool>().back(), "", input);
    }
    ToolResultEvent last_result() const { return events<ToolResultEvent>().back(); }
    // Forgets the effects so far but the provider call the next reply answers.
    void forget() {
        CallProvider c = last_call();
        out.clear();
        out.push_back(std::move(c));
    }
    std::vector<std::string> statuses() const {
        std::vector<std::string> out;
        for (const PlanStep& s : loop.plan()->steps)
            out.push_back(s.status);
        return out;
    }
};

const std::string three_steps = "# Greeting\n\n1. Add `shout` to greet.py\n2. Test it in "
                                "tests/test_greet.py\n3. Update README.md\n";

TEST(AgentLoopPlanTrack, ApprovalListsTheStepsAndEmitsProgress) {
    PlanHarness h;
    h.approve(three_steps);
    ASSERT_TRUE(h.loop.plan());
    EXPECT_EQ(h.loop.plan()->steps.size(), 3u);
    std::string result = h.events<ToolResultEvent>().back().content;
    EXPECT_NE(result.find("1. Add shout to greet.py\n2. Test it in tests/test_greet.py\n3. "
                          "Update README.md"),
              std::string::npos)
        << result;
    EXPECT_NE(result.find("plan_progress"), std::string::npos);
    auto progress = h.events<PlanProgressEvent>().back();
    EXPECT_EQ(progress.path, "x.md");
    EXPECT_EQ(progress.steps[2].status, "pending");
    EXPECT_EQ(h.all<SaveProgress>().back().steps.size(), 3u);
    EXPECT_EQ(h.loop.status().plan->total, 3u);
    EXPECT_EQ(h.loop.status().plan->done, 0u);
    EXPECT_EQ(h.events<AgentStatus>().back().plan->total, 3u);
}

TEST(AgentLoopPlanTrack, ProgressTicksStepsAndSaysSo) {
    PlanHarness h;
    h.approve(three_steps);
    h.forget();
    h.progress({{"step", 1}, {"status", "in_progress"}});
    h.progress({{"step", 1}, {"status", "done"}, {"note", "with a test"}}, "g2");
    h.progress({{"step", 3}, {"status", "skipped"}, {"note", "no README here"}}, "g3");
    EXPECT_EQ(h.statuses(), (std::vector<std::string>{"done", "pending", "skipped"}));
    auto events = h.events<PlanProgressEvent>();
    ASSERT_EQ(events.size(), 3u) << "one a change";
    EXPECT_EQ(events[0].steps[0].status, "in_progress");
    EXPECT_EQ(events[1].steps[0].note, "with a test");
    EXPECT_EQ(events[2].turn, 1);
    EXPECT_TRUE(h.last_result().ok);
    EXPECT_NE(h.last_result().content.find("1 of 3 steps are done"), std::string::npos);
    EXPECT_EQ(h.all<SaveProgress>().back().path, "x.md");
    EXPECT_EQ(h.loop.status().plan->done, 1u);
}

TEST(AgentLoopPlanTrack, AnUnknownStepIsAnErrorThatSaysWhichExist) {
    PlanHarness h;
    h.approve(three_steps);
    h.forget();
    h.progress({{"step", 9}, {"status", "done"}});
    EXPECT_FALSE(h.last_result().ok);
    EXPECT_EQ(h.last_result().content,
              "There is no step 9: the approved plan has steps 1 to 3. Nothing was recorded.");
    h.progress({{"step", 2}, {"status", "finished"}}, "g2"); // past the tool's own check
    EXPECT_NE(h.last_result().content.find("use one of pending, in_progress, done, skipped"),
              std::string::npos);
    EXPECT_TRUE(h.events<PlanProgressEvent>().empty()) << "nothing changed";
    EXPECT_TRUE(h.all<SaveProgress>().empty());
    EXPECT_EQ(h.statuses(), (std::vector<std::string>{"pending", "pending", "pending"}));
}

TEST(AgentLoopPlanTrack, ALongNoteIsClipped) {
    PlanHarness h;
    h.approve(three_steps);
    h.progress({{"step", 1}, {"status", "done"}, {"note", std::string(1 << 20, 'n')}});
    EXPECT_TRUE(h.last_result().ok);
    EXPECT_NE(h.last_result().content.find("clipped"), std::string::npos);
    EXPECT_LE(h.loop.plan()->steps[0].note->size(), max_step_note_bytes + 3);
}

TEST(AgentLoopPlanTrack, PlanProgressIsRefusedBeforeAnyApproval) {
    PlanHarness h;
    h.send("go");
    auto listed = names(h.last_call().tools);
    EXPECT_NE(std::find(listed.begin(), listed.end(), "plan_progress"), listed.end()) << "listed";
    h.progress({{"step", 1}, {"status", "done"}});
    EXPECT_TRUE(h.all<RunTool>().empty()) << "never runs";
    EXPECT_EQ(h.last_result().content,
              "plan_progress was refused: no plan was approved in this conversation, so there is "
              "no progress to report. Nothing was recorded.");
    EXPECT_FALSE(h.loop.plan());
    EXPECT_FALSE(h.loop.status().plan);
}

TEST(AgentLoopPlanTrack, PlanProgressIsRefusedInPlanModeAndAfterThePlansTurn) {
    PlanHarness h;
    h.approve(three_steps);
    h.loop.set_mode(Mode::plan, h.out);
    h.progress({{"step", 1}, {"status", "done"}});
    EXPECT_NE(h.last_result().content.find("not available in plan mode"), std::string::npos);
    h.loop.set_mode(Mode::build, h.out);
    h.reply("Done.");
    EXPECT_EQ(h.all<ReportPlan>().size(), 1u);
    h.send("more");
    h.progress({{"step", 1}, {"status", "done"}}, "g2");
    EXPECT_NE(h.last_result().content.find("has ended"), std::string::npos);
    EXPECT_EQ(h.statuses(), (std::vector<std::string>{"pending", "pending", "pending"}));
    EXPECT_EQ(h.loop.status().plan->total, 3u) << "the plan's tally stays in the status";
}

TEST(AgentLoopPlanTrack, StepsComeFromTheTextAsApproved) {
    PlanHarness h;
    h.approve(three_steps, "x.md", "- Only this\n- And that\n");
    ASSERT_EQ(h.loop.plan()->steps.size(), 2u);
    EXPECT_EQ(h.loop.plan()->steps[1].text, "And that");
}

TEST(AgentLoopPlanTrack, AFileNoStepNamesIsDriftAtOnce) {
    PlanHarness h;
    h.approve(three_steps);
    h.forget();
    h.reply("", {call("e1", "edit_file",
                      {{"path", "greet.py"}, {"old_string", "a"}, {"new_string", "b"}}),
                 call("e2", "edit_file",
                      {{"path", "setup.cfg"}, {"old_string", "a"}, {"new_string", "b"}})});
    h.tool_report(h.all<RunTool>().back(), "", {{"path", "greet.py"}}); // prepare
    h.tool_report(h.all<RunTool>().back(), "edited");                   // apply (auto)
    EXPECT_TRUE(h.events<PlanProgressEvent>().empty()) << "greet.py is in the plan";
    h.tool_report(h.all<RunTool>().back(), "", {{"path", "setup.cfg"}});
    h.tool_report(h.all<RunTool>().back(), "edited");
    auto drift = h.events<PlanProgressEvent>();
    ASSERT_EQ(drift.size(), 1u);
    EXPECT_EQ(drift[0].unplanned, Json::array({"setup.cfg"}));
    EXPECT_TRUE(h.events<DoneEvent>().empty()) << "said before the turn ends";
    EXPECT_EQ(h.loop.plan()->touched, (std::vector<std::string>{"greet.py", "setup.cfg"}));
}

TEST(AgentLoopPlanTrack, UnderReviewAnEditOutsideThePlanSaysSo) {
    PlanHarness h;
    h.loop.set_mode(Mode::plan, h.out);
    h.send("plan it");
    h.reply("", {call("p", "present_plan", {{"title", "T"}, {"plan", three_steps}})});
    h.tool_report(h.all<RunTool>().back(), {},
                  {{"title", "T"}, {"plan", three_steps}, {"path", "x.md"}});
    ASSERT_TRUE(h.decide(true, "review").ok());
    h.tool_report(h.all<RunTool>().back(), {}, {{"edited", false}, {"text", three_steps}});
    h.reply("", {call("e1", "edit_file",
                      {{"path", "setup.cfg"}, {"old_string", "a"}, {"new_string", "b"}})});
    h.tool_report(h.all<RunTool>().back(), "", {{"path", "setup.cfg"}});
    auto proposal = h.events<Proposal>().back();
    EXPECT_EQ(proposal.edit()->plan_note, "not in the plan");
    ASSERT_TRUE(h.decide(true).ok());
    h.tool_report(h.all<RunTool>().back(), "edited");
    h.reply("", {call("e2", "edit_file",
                      {{"path", "greet.py"}, {"old_string", "a"}, {"new_string", "b"}})});
    h.tool_report(h.all<RunTool>().back(), "", {{"path", "greet.py"}});
    EXPECT_FALSE(h.events<Proposal>().back().edit()->plan_note);
}

TEST(AgentLoopPlanTrack, ResetForgetsThePlan) {
    PlanHarness h;
    h.approve(three_steps);
    std::uint64_t revision = h.loop.plan_revision();
    h.loop.reset(h.out);
    EXPECT_FALSE(h.loop.plan());
    EXPECT_GT(h.loop.plan_revision(), revision) << "the session hears of it";
}

TEST(AgentLoopPlanTrack, ARestoredSessionKeepsItsProgressButNotItsTurn) {
    PlanHarness h;
    h.approve(three_steps);
    h.progress({{"step", 2}, {"status", "done"}});
    RestoredSession session;
    session.header.id = "s";
    session.conversation = h.loop.history();
    session.turn = h.loop.turn();
    session.plan = *h.loop.plan();
    Harness resumed;
    resumed.loop.restore(session, resumed.out);
    ASSERT_TRUE(resumed.loop.plan());
    EXPECT_EQ(resumed.loop.plan()->steps[1].status, "done");
    EXPECT_FALSE(resumed.loop.plan()->open);
    EXPECT_EQ(resumed.loop.status().plan->done, 1u);
}

TEST(AgentLoopPlanTrack, ASessionWithoutATrackGetsTheApprovedPlansSteps) {
    PlanHarness h;
    h.approve(three_steps);
    RestoredSession session;
    session.conversation = h.loop.history();
    session.turn = h.loop.turn();
    Harness resumed;
    resumed.loop.restore(session, resumed.out);
    ASSERT_TRUE(resumed.loop.plan());
    EXPECT_EQ(resumed.loop.plan()->steps.size(), 3u);
}

// Subagents (issue 48, DESIGN §23): the gate of a subagent's loop is the limit.
TEST(AgentLoopSubagent, ASubagentIsOfferedOnlyReadToolsAndSandboxedCommandsInEveryMode) {
    for (Mode mode : {Mode::build, Mode::plan}) {
        Harness h = sandboxed_harness();
        h.loop.set_mode(mode, h.out);
        h.loop.investigate_only({});
        h.loop.set_mode(Mode::plan, h.out); // as Subagents runs it
        EXPECT_EQ(names(h.loop.offered()),
                  (std::vector<std::string>{"list_dir", "read_file", "search", "diagnostics",
                                            "run_command"}));
        h.send("find it");
        EXPECT_EQ(h.last_call().tools.size(), 10u) << "the parent's list: its cached prefix";
        h.reply("",
                {call("e", "edit_file", {{"path", "a"}, {"old_string", "x"}, {"new_string", "y"}}),
                 call("t", "task", {{"description", "d"}, {"prompt", "p"}}),
                 call("p", "present_plan", plan_input)});
        EXPECT_TRUE(h.all<RunTool>().empty()) << "nothing runs";
        EXPECT_TRUE(h.all<StartSubagents>().empty()) << "depth 1";
        auto results = h.events<ToolResultEvent>();
        ASSERT_EQ(results.size(), 3u);
        EXPECT_NE(results[0].content.find("not available to a subagent"), std::string::npos);
        EXPECT_NE(results[1].content.find("cannot start another subagent"), std::string::npos);
        EXPECT_NE(results[2].content.find("not available to a subagent"), std::string::npos);
    }
}

TEST(AgentLoopSubagent, ADefinitionsToolsNarrowWhatIsOffered) {
    Harness h = sandboxed_harness();
    h.loop.investigate_only({"read_file", "search"});
    h.loop.set_mode(Mode::plan, h.out);
    EXPECT_EQ(names(h.loop.offered()), (std::vector<std::string>{"read_file", "search"}));
}

TEST(AgentLoopSubagent, AStepsTaskCallsStartTogetherAndAreAnnouncedOnce) {
    Harness h;
    h.loop.set_mode(Mode::plan, h.out);
    h.send("ask around");
    h.reply("", {call("t1", "task", {{"description", "a"}, {"prompt", "A?"}}),
                 call("r", "read_file", {{"path", "a"}}),
                 call("t2", "task", {{"description", "b"}, {"prompt", "B?"}})});
    auto started = h.all<StartSubagents>();
    ASSERT_EQ(started.size(), 1u);
    ASSERT_EQ(started[0].calls.size(), 2u);
    EXPECT_EQ(started[0].calls[0].id, "t1");
    EXPECT_EQ(started[0].calls[1].id, "t2");
    auto announced = h.events<ToolEvent>();
    ASSERT_EQ(announced.size(), 2u) << "both task calls, then the first call's turn";
    EXPECT_EQ(announced[0].id, "t1");
    EXPECT_EQ(announced[1].id, "t2");
    RunTool first = h.all<RunTool>().back();
    EXPECT_EQ(first.call.id, "t1");
    EXPECT_EQ(first.stage, ToolStage::run) << "a read tool: no gate";
    h.tool_report(first, "A.");
    h.tool_report(h.all<RunTool>().back(), "a file");
    EXPECT_EQ(h.events<ToolEvent>().size(), 3u) << "read_file announced as it runs; t2 was";
    h.tool_report(h.all<RunTool>().back(), "B.");
    auto results = h.last_call().conversation.back()->results;
    ASSERT_EQ(results.size(), 3u);
    EXPECT_EQ(results[0].content, "A.");
    EXPECT_EQ(results[2].content, "B.");
}

} // namespace
} // namespace rio
