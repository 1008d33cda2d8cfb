// Declared plan steps (issue 43 item 1, DESIGN §20) through the real rio-core with the script
// provider: present_plan's `steps` carried by agent.propose, filed in the plan's front matter,
// the approved plan's checklist in plans.progress, plans.get and agent.status, kept across a
// restart and resume; malformed steps refused with their place named, and nothing filed.
// Checks (item 2, 3): a step reported done runs its check in the sandbox, done only on exit 0,
// with the evidence in plans.get, the plan file and the session.
#include "tests/support/agent_session.hpp"
#include "tests/support/script_steps.hpp"

#include <csignal>
#include <filesystem>
#include <fstream>
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
                  .find("1. Uppercase the greeting (check: python3 -m pytest -q)\n2. Add a "
                        "test\n3. Say so in the changelog\n"),
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

Json progress_step(int n, const std::string& status) {
    return step({tool("plan_progress", {{"step", n}, {"status", status}})});
}

Json check(Words argv, bool writes = false) {
    Json c{{"argv", argv}};
    if (writes) c["writes"] = true;
    return c;
}

// The tool results of a turn, in order, until agent.done.
std::vector<Json> results_until_done(AgentSession& s) {
    std::vector<Json> results;
    for (const Json& e : s.client().events_until("agent.done"))
        if (e["event"] == "agent.tool_result") results.push_back(e["params"]);
    return results;
}

bool has(const Json& text, const std::string& part) {
    return text.get<std::string>().find(part) != std::string::npos;
}

std::string read_text(const fs::path& file) {
    std::ifstream in(file);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// Approves the plan the script presents first and returns its path.
std::string approve_plan(AgentSession& s) {
    s.request("agent.mode.set", {{"mode", "plan"}});
    long turn = s.send("shout");
    std::string path = s.wait("agent.propose")["path"];
    s.request("agent.approve", {{"turn", turn}, {"decision", "approve"}, {"policy", "auto"}});
    return path;
}

// `sha256sum` of greet_py and of src/a.py's "a = 1\n".
const std::string greet_py_sha256 =
    "70127f7dd36d23bbd9ed12d226d26fdc258c976030cf1cf5282adc13d35acbc7";
const std::string a_py_sha256 = "cb78bd8a17f7b751fe0d4663366dcbc257204033ef7ddd64b1f2969573b5b2e2";

TEST(PlanChecksE2E, AStepIsDoneWhenItsCheckPassesFailedWhenNotUnverifiedWithoutOne) {
    Json steps = Json::array(
        {{{"text", "Break"},
          {"files", {"greet.py", "src/*.py", "nothing/**"}},
          {"check", check({"sh", "-c", "echo broke; echo $'\x1b]0;PWNED\x07' >&2; exit 3"})}},
         {{"text", "Pass"}, {"files", {"greet.py"}}, {"check", check({"sh", "-c", "echo fine"})}},
         {{"text", "Unchecked"}}});
    AgentSession s(
        Json::array({plan_with_steps(steps), progress_step(1, "done"), progress_step(2, "done"),
                     progress_step(3, "done"), progress_step(2, "pending"),
                     progress_step(1, "failed"), progress_step(4, "done"), text_step("Done.")}));
    ASSERT_TRUE(s.sandboxed()) << "checks run only sandboxed; this kernel has Landlock";
    write_bytes(s.project() / "greet.py", greet_py);
    write_bytes(s.project() / "src/a.py", "a = 1\n");
    std::string path = approve_plan(s);
    std::vector<Json> r = results_until_done(s);
    ASSERT_EQ(r.size(), 7u); // present_plan, then six reports
    EXPECT_EQ(r[1]["ok"], false) << "a failed check is the tool's error";
    EXPECT_TRUE(has(r[1]["content"], "Step 1's check `sh -c")) << r[1].dump();
    EXPECT_TRUE(has(r[1]["content"], "did not pass (it exited 3): step 1 is failed, not done. "
                                     "0 of 3 steps are done."))
        << r[1].dump();
    EXPECT_TRUE(has(r[1]["content"], "broke")) << "its output goes back to the model";
    EXPECT_EQ(r[2]["ok"], true);
    EXPECT_TRUE(has(r[2]["content"], "passed (it exited 0): step 2 is done, verified. 1 of 3"))
        << r[2].dump();
    EXPECT_EQ(r[3]["ok"], true);
    EXPECT_TRUE(has(r[3]["content"], "step 3 is done (unverified: it has no check). 2 of 3"))
        << r[3].dump();
    EXPECT_EQ(r[4]["ok"], false);
    EXPECT_TRUE(has(r[4]["content"], "Step 2 is done; it does not go back to pending"))
        << r[4].dump();
    EXPECT_EQ(r[5]["ok"], false);
    EXPECT_TRUE(has(r[5]["content"], "'failed' is not a status you report")) << r[5].dump();
    EXPECT_EQ(r[6]["ok"], false);
    EXPECT_TRUE(has(r[6]["content"], "There is no step 4")) << r[6].dump();

    Json got = s.request("plans.get", {{"path", path}})["result"];
    ASSERT_EQ(got["steps"].size(), 3u) << got.dump();
    const Json failed = got["steps"][0], passed = got["steps"][1], unchecked = got["steps"][2];
    EXPECT_EQ(failed["status"], "failed");
    EXPECT_FALSE(failed.contains("verified"));
    EXPECT_EQ(failed["check"]["exit"], 3);
    EXPECT_EQ(failed["check"]["sandbox"], "read-only");
    EXPECT_TRUE(has(failed["check"]["output"], "broke"));
    EXPECT_FALSE(has(failed["check"]["output"], "\x1b")) << "no control characters kept";
    EXPECT_EQ(failed["check"]["files"],
              (Json::array({{{"path", "greet.py"}, {"sha256", greet_py_sha256}},
                            {{"path", "src/a.py"}, {"sha256", a_py_sha256}}})))
        << "a glob that matches nothing is no file";
    EXPECT_EQ(passed["status"], "done");
    EXPECT_EQ(passed["verified"], true);
    EXPECT_EQ(passed["check"]["exit"], 0);
    EXPECT_TRUE(has(passed["check"]["at"], "T")) << passed.dump();
    EXPECT_EQ(unchecked["status"], "done");
    EXPECT_EQ(unchecked["verified"], false);
    EXPECT_FALSE(unchecked.contains("check"));
    EXPECT_FALSE(got.contains("warning")) << got.dump();

    std::string file = read_text(s.project() / path);
    EXPECT_TRUE(has(Json(file), "progress: failed done done\n")) << file;
    // The receipt (item 5): at the end of the file, marked in the front matter, not the plan.
    EXPECT_TRUE(has(Json(file), "receipt: yes\n")) << file;
    const std::size_t receipt = file.rfind("\n## Receipt\n");
    ASSERT_NE(receipt, std::string::npos) << file;
    const std::string section = file.substr(receipt);
    EXPECT_TRUE(has(Json(section), "2/3 steps done (1 verified), 1 failed")) << section;
    EXPECT_TRUE(has(Json(section), "- [!] 1. Break: `sh -c")) << section;
    EXPECT_TRUE(has(Json(section), "exit 3, ")) << section;
    EXPECT_TRUE(has(Json(section), "- [x] 3. Unchecked — unverified")) << section;
    EXPECT_FALSE(has(Json(section), "\x1b")) << "no control characters";
    EXPECT_FALSE(has(got["plan"], "## Receipt")) << "the plan is the approved text";
    EXPECT_TRUE(has(Json(file), "checks: [{\"check\":")) << file;
    EXPECT_EQ(s.request("agent.status")["result"]["plan"]["done"], 2);

    // The session keeps the evidence: a resumed conversation shows it again.
    std::string id = s.request("agent.status")["result"]["session"];
    s.restart(Json::array({text_step("ok")}), SIGTERM);
    ASSERT_EQ(s.request("agent.session.resume", {{"id", id}})["ok"], true);
    EXPECT_EQ(s.request("plans.get", {{"path", path}})["result"]["steps"], got["steps"]);
}

// Item 2: a person runs a check again (plans.check, which every frontend sends): a failed
// step whose check now passes is done, verified, with plans.progress and the file following;
// what cannot run is refused with words and records nothing.
TEST(PlanChecksE2E, APersonRunsAStepsCheckAgain) {
    Json steps = Json::array(
        {{{"text", "Fix"}, {"check", check({"sh", "-c", "test -f fixed && echo ok || exit 4"})}},
         {{"text", "Write"}, {"check", check({"sh", "-c", "echo x > src/written"}, true)}},
         {{"text", "Unchecked"}}});
    AgentSession s(Json::array(
        {plan_with_steps(steps), progress_step(1, "done"), text_step("Step 1 failed.")}));
    ASSERT_TRUE(s.sandboxed()) << "checks run only sandboxed; this kernel has Landlock";
    fs::create_directories(s.project() / "src"); // no .git here: the top level takes no new files
    Json refused = s.request("plans.check", {{"step", 1}});
    EXPECT_EQ(refused["ok"], false);
    EXPECT_EQ(refused["error"]["message"],
              "the check cannot run: no plan was approved in this conversation");
    std::string path = approve_plan(s);
    std::vector<Json> r = results_until_done(s);
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(r[1]["ok"], false);

    write_bytes(s.project() / "fixed", "");
    Json again = s.request("plans.check", {{"step", 1}});
    ASSERT_EQ(again["ok"], true) << again.dump();
    EXPECT_EQ(again["result"]["status"], "done");
    EXPECT_EQ(again["result"]["verified"], true);
    EXPECT_EQ(again["result"]["check"]["exit"], 0);
    EXPECT_TRUE(has(again["result"]["check"]["output"], "ok")) << again.dump();
    Json progress = s.wait("plans.progress");
    EXPECT_EQ(progress["steps"][0]["status"], "done");
    EXPECT_TRUE(has(Json(read_text(s.project() / path)), "progress: done pending pending\n"));

    // A pending step's check runs and is kept as evidence; the step stays pending. A check that
    // writes does not run in plan mode.
    Json pending = s.request("plans.check", {{"step", 2}});
    ASSERT_EQ(pending["ok"], true) << pending.dump();
    EXPECT_EQ(pending["result"]["status"], "pending");
    EXPECT_EQ(pending["result"]["check"]["sandbox"], "workspace-write");
    EXPECT_EQ(pending["result"]["check"]["exit"], 0) << pending.dump();
    EXPECT_TRUE(fs::exists(s.project() / "src/written"));
    s.request("agent.mode.set", {{"mode", "plan"}});
    Json writes = s.request("plans.check", {{"step", 2}});
    EXPECT_EQ(writes["ok"], false);
    EXPECT_TRUE(has(writes["error"]["message"], "plan mode runs nothing that writes"))
        << writes.dump();
    for (auto [step, words] : {std::pair{3, "step 3 has no check: the plan did not declare one"},
                               std::pair{9, "the approved plan has 3 steps, not 9"}}) {
        Json bad = s.request("plans.check", {{"step", step}});
        EXPECT_EQ(bad["ok"], false);
        EXPECT_EQ(bad["error"]["message"], std::string("the check cannot run: ") + words);
    }
    EXPECT_EQ(s.request("plans.get", {{"path", path}})["result"]["steps"][2]["status"], "pending");
}

TEST(PlanChecksE2E, ACheckThatCannotRunOrRunsTooLongFailsTheStepWithTheReason) {
    Json steps = Json::array(
        {{{"text", "Slow"}, {"check", check({"sleep", "30"})}},
         {{"text", "Missing"}, {"check", check({"rio-no-such-program"})}},
         {{"text", "Nowhere"}, {"check", {{"argv", {"true"}}, {"cwd", "no/such/folder"}}}}});
    AgentSession s(
        Json::array({plan_with_steps(steps), progress_step(1, "done"), progress_step(2, "done"),
                     progress_step(3, "done"), text_step("Done.")}));
    ASSERT_TRUE(s.sandboxed());
    write_bytes(s.config() / "config.json", R"({"check_timeout_s": 1})");
    std::string path = approve_plan(s);
    std::vector<Json> r = results_until_done(s);
    ASSERT_EQ(r.size(), 4u);
    EXPECT_TRUE(has(r[1]["content"], "did not pass (timed out after 1 s)")) << r[1].dump();
    EXPECT_TRUE(has(r[2]["content"], "did not pass (could not start: ")) << r[2].dump();
    EXPECT_TRUE(has(r[3]["content"], "did not pass (not run: the working folder")) << r[3].dump();
    for (std::size_t i = 1; i < 4; ++i)
        EXPECT_EQ(r[i]["ok"], false);
    Json got = s.request("plans.get", {{"path", path}})["result"];
    for (const Json& st : got["steps"]) {
        EXPECT_EQ(st["status"], "failed") << st.dump();
        EXPECT_FALSE(st["check"].contains("exit")) << "it never exited: " << st.dump();
    }
}

TEST(PlanChecksE2E, AWritingCheckMayWriteTheProjectAReadOnlyOneMayNot) {
    // In a folder: whether the project's top level is writable depends on the mount
    // namespace (decision 0080), which is not what this is about.
    Json steps = Json::array({{{"text", "Build"}, {"check", check({"touch", "out/built"}, true)}},
                              {{"text", "Look"}, {"check", check({"touch", "out/looked"})}}});
    AgentSession s(Json::array({plan_with_steps(steps), progress_step(1, "done"),
                                progress_step(2, "done"), text_step("Done.")}));
    ASSERT_TRUE(s.sandboxed());
    fs::create_directories(s.project() / "out");
    approve_plan(s);
    std::vector<Json> r = results_until_done(s);
    ASSERT_EQ(r.size(), 3u);
    EXPECT_EQ(r[1]["ok"], true) << r[1].dump();
    EXPECT_EQ(r[1]["sandbox"]["profile"], "workspace-write");
    EXPECT_TRUE(fs::exists(s.project() / "out/built"));
    EXPECT_EQ(r[2]["ok"], false) << "read-only: " << r[2].dump();
    EXPECT_EQ(r[2]["sandbox"]["profile"], "read-only");
    EXPECT_FALSE(fs::exists(s.project() / "out/looked"));
}

TEST(PlanChecksE2E, WithoutASandboxACheckDoesNotRunAndTheStepFails) {
    Json steps = Json::array({{{"text", "Build"}, {"check", check({"touch", "built"}, true)}}});
    auto session = AgentSession::through(
        RIO_WITHOUT_LANDLOCK,
        Json::array({plan_with_steps(steps), progress_step(1, "done"), text_step("Done.")}));
    AgentSession& s = *session;
    ASSERT_FALSE(s.sandboxed());
    std::string path = approve_plan(s);
    std::vector<Json> r = results_until_done(s);
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(r[1]["ok"], false);
    EXPECT_TRUE(has(r[1]["content"], "not run: commands cannot run sandboxed here")) << r[1].dump();
    EXPECT_FALSE(fs::exists(s.project() / "built"));
    EXPECT_EQ(s.request("plans.get", {{"path", path}})["result"]["steps"][0]["status"], "failed");
}

// Item 4: a file a step names, changed on disk after the approval by someone else, makes the
// agent's next edit to it wait for a person, with what changed; an approved command's and the
// agent's own changes are not drift.
TEST(PlanChecksE2E, AFileChangedAfterApprovalMakesTheNextEditWaitForAPerson) {
    Json steps = Json::array({{{"text", "Shout"}, {"files", {"greet.py"}}}, {{"text", "Tidy"}}});
    auto edit = [](const std::string& from, const std::string& to) {
        return step(
            {tool("edit_file", {{"path", "greet.py"}, {"old_string", from}, {"new_string", to}})});
    };
    AgentSession s(Json::array(
        {plan_with_steps(steps),
         // In place: a new entry at the top level (sed -i's) depends on the namespace.
         step({tool("run_command",
                    {{"argv",
                      {"sh", "-c",
                       "t=$(sed s/Hello/Hey/ greet.py); printf '%s\\n' \"$t\" > greet.py"}}})}),
         edit("Hey", "Yo"), step({tool("run_command", {{"argv", {"true"}}})}), edit("Yo", "Yoo"),
         text_step("Done.")}));
    ASSERT_TRUE(s.sandboxed());
    write_bytes(s.project() / "greet.py", greet_py);
    s.request("agent.mode.set", {{"mode", "plan"}});
    long turn = s.send("shout");
    s.wait("agent.propose");
    s.request("agent.approve", {{"turn", turn}, {"decision", "approve"}, {"policy", "auto"}});
    // An approved command changes the named file: the plan's own work.
    Json command = s.wait("agent.propose");
    ASSERT_EQ(command["kind"], "command") << command.dump();
    s.request("agent.approve", {{"turn", turn}, {"decision", "approve"}});
    // The agent's edit after it applies at once (auto-accept): no drift. Then a person changes
    // the file while the next command waits.
    Json waiting = s.wait("agent.propose");
    ASSERT_EQ(waiting["kind"], "command") << "the edit was not held: " << waiting.dump();
    EXPECT_EQ(read_text(s.project() / "greet.py"),
              "def greeting(name):\n    return f\"Yo, {name}!\"\n");
    const std::string mine = "def greeting(name):\n    return f\"Yo, {name}! (mine)\"\n";
    write_bytes(s.project() / "greet.py", mine);
    s.request("agent.approve", {{"turn", turn}, {"decision", "reject"}});
    Json held = s.wait("agent.propose");
    ASSERT_EQ(held["kind"], "edit") << "auto-accept does not cover drift: " << held.dump();
    ASSERT_TRUE(held.contains("drift")) << held.dump();
    EXPECT_TRUE(has(held["drift"], "greet.py changed since the plan was approved")) << held;
    EXPECT_TRUE(has(held["drift"], "+    return f\"Yo, {name}! (mine)\"")) << held["drift"];
    EXPECT_EQ(read_text(s.project() / "greet.py"), mine) << "nothing written while it waits";
    s.request("agent.approve", {{"turn", turn}, {"decision", "approve"}});
    s.wait("agent.done");
    EXPECT_TRUE(has(Json(read_text(s.project() / "greet.py")), "Yoo, {name}! (mine)"));
}

TEST(PlanChecksE2E, DriftIsInPlansProgressAndUnplannedComesFromTheStepsFiles) {
    Json steps = Json::array({{{"text", "Shout"}, {"files", {"greet.py", "src/"}}}});
    AgentSession s(Json::array(
        {plan_with_steps(steps),
         step({tool("create_file", {{"path", "src/new.py"}, {"content", "x = 1\n"}})}),
         step({tool("create_file", {{"path", "notes.txt"}, {"content", "n\n"}})}),
         step({tool("run_command", {{"argv", {"true"}}})}),
         step({tool("edit_file",
                    {{"path", "greet.py"}, {"old_string", "Hello"}, {"new_string", "Hi"}})}),
         text_step("Done.")}));
    write_bytes(s.project() / "greet.py", greet_py);
    s.request("agent.mode.set", {{"mode", "plan"}});
    long turn = s.send("shout");
    s.wait("agent.propose");
    s.request("agent.approve", {{"turn", turn}, {"decision", "approve"}, {"policy", "auto"}});
    s.wait("agent.propose"); // the command waits
    write_bytes(s.project() / "greet.py", greet_py + "# a person's line\n");
    s.request("agent.approve", {{"turn", turn}, {"decision", "reject"}});
    Json held = s.wait("agent.propose");
    ASSERT_TRUE(held.contains("drift")) << held.dump();
    s.request("agent.approve", {{"turn", turn}, {"decision", "reject"}});
    Json last;
    for (const Json& e : s.client().events_until("agent.done"))
        if (e["event"] == "plans.progress") last = e["params"];
    // The last plans.progress of the turn: drift, and unplanned from the steps' files.
    ASSERT_TRUE(last.contains("drift")) << last.dump();
    EXPECT_EQ(last["drift"], Json::array({"greet.py"}));
    EXPECT_EQ(last["unplanned"], Json::array({"notes.txt"})) << "src/new.py is under src/";
}

// Item 4, "plans.progress says so at once": a named file (here one in a folder a step names)
// changed by a person while the agent waits is drift as soon as the watcher sees it, before
// the agent touches the file again; the plan's own work (an approved command, an edit) is not.
TEST(PlanChecksE2E, DriftIsSaidWhenTheWatcherSeesItAndAFolderStandsForItsFiles) {
    Json steps = Json::array({{{"text", "Shout"}, {"files", {"greet.py", "src"}}}});
    AgentSession s(Json::array(
        {plan_with_steps(steps),
         step({tool("run_command", {{"argv", {"sh", "-c", "echo b = 2 >> src/b.py"}}})}),
         step({tool("edit_file",
                    {{"path", "greet.py"}, {"old_string", "Hello"}, {"new_string", "Hi"}})}),
         step({tool("run_command", {{"argv", {"true"}}})}), text_step("Done.")}));
    ASSERT_TRUE(s.sandboxed());
    write_bytes(s.project() / "greet.py", greet_py);
    write_bytes(s.project() / "src/a.py", "a = 1\n");
    write_bytes(s.project() / "src/b.py", "b = 1\n");
    s.request("agent.mode.set", {{"mode", "plan"}});
    long turn = s.send("shout");
    s.wait("agent.propose");
    s.request("agent.approve", {{"turn", turn}, {"decision", "approve"}, {"policy", "auto"}});
    ASSERT_EQ(s.wait("agent.propose")["argv"][0], "sh");
    s.request("agent.approve", {{"turn", turn}, {"decision", "approve"}});
    Json waiting = s.wait("agent.propose");
    ASSERT_EQ(waiting["argv"], Json::array({"true"})) << waiting.dump();
    // The watcher tells of changes in the order they were made: by the time it tells of the
    // person's, it told of the plan's own work (src/b.py, greet.py), which is not drift.
    write_bytes(s.project() / "src/a.py", "a = 1\n# a person's line\n");
    auto next_drift = [&s] {
        for (;;) {
            Json p = s.wait("plans.progress");
            if (p.contains("drift")) return p["drift"];
        }
    };
    EXPECT_EQ(next_drift(), Json::array({"src/a.py"})) << "while the command waits";
    write_bytes(s.project() / "greet.py", "# a person's file\n");
    EXPECT_EQ(next_drift(), Json::array({"src/a.py", "greet.py"}));
    s.request("agent.approve", {{"turn", turn}, {"decision", "reject"}});
    Json report;
    for (const Json& e : s.client().events_until("agent.done"))
        if (e["event"] == "plans.report") report = e["params"];
    EXPECT_EQ(report["receipt"]["drift"], Json::array({"src/a.py", "greet.py"})) << report;
}

// The receipt's git HEAD: a branch resolved through .git/refs; a HEAD naming a ref outside
// .git/refs/ (the project's to write) reads nothing.
TEST(PlanChecksE2E, TheReceiptNamesTheHeadAndAForgedRefReadsNothing) {
    const std::string commit = "0123456789abcdef0123456789abcdef01234567";
    for (const std::string& ref : {std::string("refs/heads/main"), std::string("../x")}) {
        Json steps = Json::array({{{"text", "Look"}, {"files", {"greet.py"}}}});
        AgentSession s(Json::array({plan_with_steps(steps), text_step("Done.")}));
        write_bytes(s.project() / "greet.py", greet_py);
        write_bytes(s.project() / ".git/HEAD", "ref: " + ref + "\n");
        write_bytes(s.project() / ".git/refs/heads/main", commit + "\n");
        write_bytes(s.project() / "x", commit + "\n"); // what ../x reaches from .git/
        approve_plan(s);
        Json report = s.wait("plans.report");
        s.wait("agent.done");
        EXPECT_EQ(report["receipt"]["head_at_approval"], ref == "refs/heads/main" ? commit : "")
            << ref;
        EXPECT_EQ(report["receipt"]["final"], false) << "its step is still pending";
        EXPECT_TRUE(has(report["receipt_text"], "## Receipt\n\n0/1 steps done")) << report;
    }
}

} // namespace
} // namespace rio::test
