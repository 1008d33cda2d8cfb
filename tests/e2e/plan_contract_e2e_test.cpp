// The approved plan as a contract (DESIGN §20) through the real rio-core with the script
// provider: steps listed at approval, plan_progress ticking them, plans.progress on every
// change and at the moment a file outside the plan changes, plans.get's steps, a hand-edited
// progress field, and the progress kept across a restart and resume.
#include "tests/support/agent_session.hpp"
#include "tests/support/script_steps.hpp"

#include <csignal>
#include <gtest/gtest.h>

namespace rio::test {
namespace {

const std::string three_steps =
    "1. Edit greet.py\n2. Test it in tests/test_greet.py\n3. Update README.md\n";

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

Json progress(int step, const std::string& status, const std::string& note = "") {
    Json input{{"step", step}, {"status", status}};
    if (!note.empty()) input["note"] = note;
    return tool("plan_progress", input);
}

std::vector<std::string> statuses(const Json& steps) {
    std::vector<std::string> out;
    for (const Json& s : steps)
        out.push_back(s["status"]);
    return out;
}

using Words = std::vector<std::string>;

TEST(PlanContractE2E, StepsTickDriftIsSaidAtOnceAndResumeKeepsTheProgress) {
    AgentSession s(Json::array(
        {plan_step("Shout", three_steps),
         step({progress(1, "in_progress"),
               tool("edit_file",
                    {{"path", "greet.py"}, {"old_string", "Hello"}, {"new_string", "HELLO"}}),
               progress(1, "done", "uppercased"),
               tool("create_file", {{"path", "notes/todo.txt"}, {"content", "later\n"}}),
               progress(3, "skipped", "there is no README"), progress(9, "done"),
               progress(2, "finished"), progress(2, "done", std::string(5000, 'n'))}),
         text_step("Done.")}));
    write_bytes(s.project() / "greet.py", greet_py);
    s.request("agent.mode.set", {{"mode", "plan"}});
    Json before = s.request("plans.list"); // nothing filed yet
    long turn = s.send("shout");
    std::string path = s.wait("agent.propose")["path"];
    s.request("agent.approve", {{"turn", turn}, {"decision", "approve"}, {"policy", "auto"}});
    auto events = s.client().events_until("agent.done"); // plans.report comes just before

    std::vector<Json> progress_events, results;
    std::size_t done_at = 0, drift_at = 0;
    for (std::size_t i = 0; i < events.size(); ++i) {
        const Json& e = events[i];
        if (e["event"] == "plans.progress") progress_events.push_back(e["params"]);
        if (e["event"] == "plans.progress" && !e["params"]["unplanned"].empty() && !drift_at)
            drift_at = i;
        if (e["event"] == "agent.tool_result" && e["params"]["name"] == "plan_progress")
            results.push_back(e["params"]);
        if (e["event"] == "agent.done") done_at = i;
    }
    ASSERT_EQ(progress_events.size(), 6u) << "approval, 3 changes, the drift, the long note";
    EXPECT_EQ(progress_events[0]["path"], path);
    EXPECT_EQ(progress_events[0]["turn"], turn);
    EXPECT_EQ(statuses(progress_events[0]["steps"]), (Words{"pending", "pending", "pending"}));
    EXPECT_EQ(progress_events[0]["steps"][1]["text"], "Test it in tests/test_greet.py");
    EXPECT_EQ(statuses(progress_events[1]["steps"]), (Words{"in_progress", "pending", "pending"}));
    EXPECT_EQ(progress_events[2]["steps"][0]["note"], "uppercased");
    EXPECT_EQ(progress_events[3]["unplanned"], Json::array({"notes/todo.txt"}));
    EXPECT_GT(drift_at, 0u);
    EXPECT_LT(drift_at, done_at) << "drift is said as it happens, not at the turn's end";

    ASSERT_EQ(results.size(), 6u);
    EXPECT_TRUE(results[1]["ok"]);
    EXPECT_FALSE(results[3]["ok"]);
    EXPECT_EQ(results[3]["content"],
              "There is no step 9: the approved plan has steps 1 to 3. Nothing was recorded.");
    EXPECT_FALSE(results[4]["ok"]);
    EXPECT_TRUE(contains(results[4]["content"], "one of pending, in_progress, done, skipped"))
        << results[4].dump();
    EXPECT_TRUE(results[5]["ok"]);
    EXPECT_TRUE(contains(results[5]["content"], "clipped")) << results[5].dump();

    // What the model was told at approval: the numbered steps and the tool.
    Json approval = s.provider_calls().at(1)["conversation"].back()["results"][0];
    EXPECT_TRUE(contains(approval["content"], "1. Edit greet.py\n2. Test it in "
                                              "tests/test_greet.py\n3. Update README.md\n"))
        << approval.dump();
    EXPECT_TRUE(contains(approval["content"], "plan_progress")) << approval.dump();

    Json status = s.request("agent.status")["result"];
    EXPECT_EQ(status["plan"], (Json{{"done", 2}, {"total", 3}, {"path", path}}));
    Json got = s.request("plans.get", {{"path", path}})["result"];
    EXPECT_EQ(statuses(got["steps"]), (Words{"done", "done", "skipped"}));
    EXPECT_FALSE(got.contains("warning"));
    EXPECT_TRUE(contains(read_bytes(s.project() / path), "progress: done done skipped\n"));

    // After a restart the session brings the progress back; the plan's turn is over, so
    // plan_progress is refused in words and nothing changes.
    std::string id = s.request("agent.status")["result"]["session"];
    s.restart(Json::array({step({progress(2, "pending")}), text_step("ok")}), SIGTERM);
    EXPECT_FALSE(s.request("agent.status")["result"].contains("plan")) << "a new conversation";
    ASSERT_EQ(s.request("agent.session.resume", {{"id", id}})["ok"], true);
    status = s.request("agent.status")["result"];
    EXPECT_EQ(status["plan"], (Json{{"done", 2}, {"total", 3}, {"path", path}}));
    s.send("go on");
    Json refused = s.wait("agent.tool_result");
    EXPECT_FALSE(refused["ok"]);
    EXPECT_TRUE(contains(refused["content"], "has ended")) << refused.dump();
    s.wait("agent.done");
    EXPECT_EQ(s.request("agent.status")["result"]["plan"]["done"], 2);
    EXPECT_EQ(statuses(s.request("plans.get", {{"path", path}})["result"]["steps"]),
              (Words{"done", "done", "skipped"}));
}

TEST(PlanContractE2E, AHandEditedProgressFieldStillAnswersWithAWarning) {
    AgentSession s(Json::array({plan_step("Shout", three_steps), text_step("Done.")}));
    s.request("agent.mode.set", {{"mode", "plan"}});
    long turn = s.send("shout");
    std::string path = s.wait("agent.propose")["path"];
    s.request("agent.approve", {{"turn", turn}, {"decision", "approve"}, {"policy", "auto"}});
    s.wait("agent.done");
    std::string file = read_bytes(s.project() / path);
    ASSERT_TRUE(contains(file, "progress: pending pending pending\n")) << file;
    std::string garbage = file;
    garbage.replace(garbage.find("progress: pending pending pending"),
                    std::string("progress: pending pending pending").size(),
                    "progress: [x] done, oh well");
    write_bytes(s.project() / path, garbage);
    Json got = s.request("plans.get", {{"path", path}})["result"];
    ASSERT_TRUE(got.contains("steps")) << got.dump();
    EXPECT_EQ(statuses(got["steps"]), (Words{"pending", "pending", "pending"}));
    EXPECT_EQ(got["steps"][0]["text"], "Edit greet.py");
    EXPECT_TRUE(contains(got["warning"], "does not fit its 3 steps")) << got.dump();
    EXPECT_EQ(read_bytes(s.project() / path), garbage) << "reading changes nothing";
}

} // namespace
} // namespace rio::test
