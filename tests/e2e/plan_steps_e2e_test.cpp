// Declared plan steps (issue 43 item 1, DESIGN §20) through the real rio-core with the script
// provider: present_plan's `steps` carried by agent.propose, filed in the plan's front matter,
// the approved plan's checklist in plans.progress, plans.get and agent.status, kept across a
// restart and resume; malformed steps refused with their place named, and nothing filed.
#include "tests/support/agent_session.hpp"
#include "tests/support/script_steps.hpp"

#include <csignal>
#include <filesystem>
#include <gtest/gtest.h>

namespace rio::test {
namespace {

namespace fs = std::filesystem;
using Words = std::vector<std::string>;

// A readable plan whose lists are not the checklist: the declared steps are.
const std::string readable_plan = "## Changes\n\n- greet.py: shout\n- a test\n\n## Not doing\n\n"
                                  "- colours\n- i18n\n- docs\n- packaging\n\nSee the docs.\n";

Json three_declared() {
    return Json::array(
        {{{"text", "Uppercase the greeting"},
          {"files", {"greet.py", "src/**/*.py"}},
          {"check",
           {{"argv", {"python3", "-m", "pytest", "-q"}}, {"cwd", "tests"}, {"writes", true}}}},
         {{"text", "Add a test"}, {"files", {"tests/test_greet.py"}}},
         {{"text", "Say so in the changelog"}}});
}

Json plan_with_steps(Json steps) {
    return step({tool("present_plan",
                      {{"title", "Shout"}, {"plan", readable_plan}, {"steps", std::move(steps)}})});
}

Words step_texts_of(const Json& steps) {
    Words out;
    for (const Json& s : steps)
        out.push_back(s["text"]);
    return out;
}

std::size_t plan_files_in(const AgentSession& s) {
    fs::path folder = s.project() / ".rio/plans";
    std::error_code ec;
    if (!fs::exists(folder, ec)) return 0;
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(folder), {}));
}

const Words three_texts = {"Uppercase the greeting", "Add a test", "Say so in the changelog"};

TEST(PlanStepsE2E, DeclaredStepsAreProposedFiledTrackedAndResumed) {
    AgentSession s(Json::array({plan_with_steps(three_declared()),
                                step({tool("plan_progress", {{"step", 3}, {"status", "done"}})}),
                                text_step("Done.")}));
    write_bytes(s.project() / "greet.py", greet_py);
    s.request("agent.mode.set", {{"mode", "plan"}});
    long turn = s.send("shout");
    Json proposed = s.wait("agent.propose");
    std::string path = proposed["path"];
    ASSERT_TRUE(proposed.contains("steps")) << proposed.dump();
    EXPECT_EQ(proposed["steps"], three_declared()) << "carried as declared";
    Json presented = s.request("plans.get", {{"path", path}})["result"];
    EXPECT_EQ(presented["declared"], three_declared()) << "filed with the plan";

    s.request("agent.approve", {{"turn", turn}, {"decision", "approve"}, {"policy", "auto"}});
    Json progress = s.wait("plans.progress");
    EXPECT_EQ(step_texts_of(progress["steps"]), three_texts)
        << "not the Changes or Not doing lists";
    s.wait("agent.done");

    Json status = s.request("agent.status")["result"];
    EXPECT_EQ(status["plan"], (Json{{"done", 1}, {"total", 3}, {"path", path}}));
    Json got = s.request("plans.get", {{"path", path}})["result"];
    EXPECT_EQ(step_texts_of(got["steps"]), three_texts);
    EXPECT_EQ(got["steps"][2]["status"], "done");
    EXPECT_EQ(got["declared"], three_declared());
    EXPECT_FALSE(got.contains("warning")) << got.dump();
    // The model was told the declared steps at approval.
    Json approval = s.provider_calls().at(1)["conversation"].back()["results"][0];
    EXPECT_NE(std::string(approval["content"])
                  .find("1. Uppercase the greeting\n2. Add a test\n3. "
                        "Say so in the changelog\n"),
              std::string::npos)
        << approval.dump();

    std::string id = status["session"];
    s.restart(Json::array({text_step("ok")}), SIGTERM);
    ASSERT_EQ(s.request("agent.session.resume", {{"id", id}})["ok"], true);
    EXPECT_EQ(s.request("agent.status")["result"]["plan"],
              (Json{{"done", 1}, {"total", 3}, {"path", path}}));
    EXPECT_EQ(step_texts_of(s.request("plans.get", {{"path", path}})["result"]["steps"]),
              three_texts);
}

TEST(PlanStepsE2E, WithoutStepsTheChangesListIsTheChecklist) {
    AgentSession s(Json::array({plan_step("Shout", readable_plan), text_step("Done.")}));
    s.request("agent.mode.set", {{"mode", "plan"}});
    long turn = s.send("shout");
    Json proposed = s.wait("agent.propose");
    EXPECT_FALSE(proposed.contains("steps")) << "the wire as before";
    s.request("agent.approve", {{"turn", turn}, {"decision", "approve"}, {"policy", "auto"}});
    s.wait("agent.done");
    Json status = s.request("agent.status")["result"];
    EXPECT_EQ(status["plan"]["total"], 2) << status.dump();
    Json got = s.request("plans.get", {{"path", proposed["path"]}})["result"];
    EXPECT_EQ(step_texts_of(got["steps"]), (Words{"greet.py: shout", "a test"}));
    EXPECT_FALSE(got.contains("declared"));
}

TEST(PlanStepsE2E, MalformedStepsAreRefusedWithTheirPlaceAndNothingIsFiled) {
    Json empty_argv = three_declared();
    empty_argv[2]["check"] = {{"argv", Json::array()}};
    Json no_text = three_declared();
    no_text[1].erase("text");
    Json files_not_strings = three_declared();
    files_not_strings[0]["files"] = {"greet.py", 7};
    Json writes_not_bool = three_declared();
    writes_not_bool[0]["check"]["writes"] = "yes";
    const std::vector<std::pair<Json, std::string>> cases = {
        {"1. do it", "steps must be a list of objects {text, files?, check?}"},
        {Json::array({"do it"}), "steps[0] must be an object {text, files?, check?}"},
        {no_text, "steps[1].text must be a non-empty string"},
        {files_not_strings, "steps[0].files must be a list of project paths or globs (strings)"},
        {empty_argv, "steps[2].check.argv must be a non-empty list of strings"},
        {writes_not_bool, "steps[0].check.writes must be true or false"}};
    Json script = Json::array();
    for (const auto& [steps, message] : cases)
        script.push_back(plan_with_steps(steps));
    script.push_back(text_step("I will fix it."));
    AgentSession s(script);
    s.request("agent.mode.set", {{"mode", "plan"}});
    s.send("shout");
    std::vector<Json> results;
    for (const Json& e : s.client().events_until("agent.done")) {
        EXPECT_NE(e["event"], "agent.propose") << "nothing is proposed";
        if (e["event"] == "agent.tool_result") results.push_back(e["params"]);
    }
    ASSERT_EQ(results.size(), cases.size());
    for (std::size_t i = 0; i < cases.size(); ++i) {
        EXPECT_FALSE(results[i]["ok"]);
        EXPECT_EQ(results[i]["content"], "The plan was not presented: " + cases[i].second +
                                             ". Fix steps and present the plan again.");
    }
    EXPECT_EQ(plan_files_in(s), 0u);
    EXPECT_TRUE(s.request("plans.list")["result"]["plans"].empty());
}

} // namespace
} // namespace rio::test
