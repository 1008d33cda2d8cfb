// The agent core through the real rio-core with the script provider: plan mode, the gate,
// plan files, stop/reset, and what the provider is offered on every call (issue 3's list).
#include "tests/support/agent_session.hpp"
#include "tests/support/script_steps.hpp"

#include <cerrno>
#include <csignal>
#include <gtest/gtest.h>
#include <regex>
#include <thread>

namespace rio::test {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> read_and_plan{"list_dir",    "read_file",    "search",
                                             "diagnostics", "present_plan", "task"};
// Plan mode's tools where commands run in the read-only sandbox (DESIGN §19).
const std::vector<std::string> sandboxed_plan{
    "list_dir", "read_file", "search", "diagnostics", "run_command", "present_plan", "task"};
const std::vector<std::string>& plan_tools(AgentSession& s) {
    return s.sandboxed() ? sandboxed_plan : read_and_plan;
}
const std::vector<std::string> every_tool{"list_dir",    "read_file",    "search",
                                          "diagnostics", "edit_file",    "create_file",
                                          "run_command", "present_plan", "task"};
// What every request lists (decision 0053): plan_progress too, allowed only while an approved
// plan is carried out (DESIGN §20).
const std::vector<std::string> listed_tools{
    "list_dir",    "read_file",   "search",       "diagnostics",   "edit_file",
    "create_file", "run_command", "present_plan", "plan_progress", "task"};

Json edit_step(const std::string& old_s = "Hello", const std::string& new_s = "Hi") {
    return step(
        {tool("edit_file", {{"path", "greet.py"}, {"old_string", old_s}, {"new_string", new_s}})});
}

std::vector<std::string> names_of(const Json& tools) {
    std::vector<std::string> out;
    for (const Json& t : tools)
        out.push_back(t["name"]);
    return out;
}

bool alive(pid_t pid) {
    return ::kill(pid, 0) == 0 || errno != ESRCH;
}

// Roles alternate from the user, and every tool call is answered by the next entry.
void expect_valid_history(AgentSession& s) {
    Json messages = s.request("agent.history")["result"]["messages"];
    for (std::size_t i = 0; i < messages.size(); ++i) {
        EXPECT_EQ(messages[i]["role"], i % 2 == 0 ? "user" : "assistant") << messages.dump();
        if (!messages[i].contains("calls")) continue;
        ASSERT_LT(i + 1, messages.size());
        EXPECT_EQ(messages[i]["calls"].size(), messages[i + 1]["results"].size());
    }
}

TEST(AgentE2E, PlanModeOffersReadToolsAndPresentPlan_BuildModeOffersAll) {
    AgentSession s(Json::array());
    EXPECT_EQ(names_of(s.request("agent.tools")["result"]["tools"]), every_tool);
    ASSERT_EQ(s.request("agent.mode.set", {{"mode", "plan"}})["ok"], true);
    Json tools = s.request("agent.tools")["result"]["tools"];
    EXPECT_EQ(names_of(tools), plan_tools(s));
    for (const Json& t : tools) {
        EXPECT_TRUE(t["input_schema"]["type"] == "object") << t.dump();
        EXPECT_FALSE(t["description"].get<std::string>().empty());
        EXPECT_TRUE(t["kind"] == "read" || t["kind"] == "plan");
    }
}

TEST(AgentE2E, ThePlanLayerIsLastInPlanModeAndAbsentInBuildMode) {
    AgentSession s(Json::array({text_step("one"), text_step("two")}));
    write_bytes(s.project() / "AGENTS.md", "Project rule: use tabs.\n");
    std::string build = s.request("agent.prompt.get")["result"]["composed"];
    EXPECT_EQ(build.find("# Plan mode"), std::string::npos);
    EXPECT_NE(build.find("Project rule: use tabs."), std::string::npos);
    s.request("agent.mode.set", {{"mode", "plan"}});
    std::string plan = s.request("agent.prompt.get")["result"]["composed"];
    auto at = plan.find("# Plan mode");
    ASSERT_NE(at, std::string::npos);
    EXPECT_GT(at, plan.find("Project rule: use tabs.")) << "the plan layer comes last";
    s.send("go");
    s.wait("agent.done");
    // Decision 0053: the system prompt is the same in both modes; the plan layer rides in
    // the user message that began plan mode.
    EXPECT_EQ(s.provider_calls().at(0)["system"], build) << "the provider got the composed text";
}

TEST(AgentE2E, ClaudeMdIsTheProjectsInstructionsWhenThereIsNoAgentsMd) {
    AgentSession s(Json::array());
    write_bytes(s.project() / "CLAUDE.md", "Claude rule: no semicolons.\n");
    std::string composed = s.request("agent.prompt.get")["result"]["composed"];
    EXPECT_NE(composed.find("Claude rule: no semicolons."), std::string::npos);
    write_bytes(s.project() / "AGENTS.md", "Agents rule: tabs.\n");
    composed = s.request("agent.prompt.get")["result"]["composed"];
    EXPECT_NE(composed.find("Agents rule: tabs."), std::string::npos);
    EXPECT_EQ(composed.find("Claude rule"), std::string::npos) << "AGENTS.md wins";
}

TEST(AgentE2E, UserAndProjectOverridesReplaceTheShippedPlanLayer) {
    AgentSession s(Json::array());
    s.request("agent.mode.set", {{"mode", "plan"}});
    write_bytes(s.config() / "agent/plan.md", "USER PLAN LAYER\n");
    std::string composed = s.request("agent.prompt.get")["result"]["composed"];
    EXPECT_EQ(composed.substr(composed.size() - 15), "USER PLAN LAYER");
    EXPECT_EQ(composed.find("# Plan mode"), std::string::npos);
    write_bytes(s.project() / ".rio/plan.md", "PROJECT PLAN LAYER\n");
    composed = s.request("agent.prompt.get")["result"]["composed"];
    EXPECT_EQ(composed.substr(composed.size() - 18), "PROJECT PLAN LAYER");
    EXPECT_EQ(composed.find("USER PLAN LAYER"), std::string::npos);
    Json plan_layer = s.request("agent.prompt.get", {{"layer", "plan"}})["result"];
    EXPECT_EQ(plan_layer["origin"], "project");
    EXPECT_EQ(plan_layer["active"], true);
}

void expect_write_tools_refused(bool auto_accept) {
    AgentSession s(Json::array(
        {step({tool("edit_file",
                    {{"path", "greet.py"}, {"old_string", "Hello"}, {"new_string", "Bye"}}),
               tool("create_file", {{"path", "new.txt"}, {"content", "x"}}),
               tool("run_command", {{"argv", {"touch", "marker"}}})}),
         text_step("ok")}));
    write_bytes(s.project() / "greet.py", greet_py);
    write_bytes(s.config() / "allow", "touch\n"); // even an allow-listed command
    s.trust_project();                            // in a trusted project
    s.request("agent.mode.set", {{"mode", "plan"}});
    s.request("agent.autoaccept.set", {{"on", auto_accept}});
    bool sandboxed = s.sandboxed();
    s.send("change it");
    for (int i = 0; i < 3; ++i) {
        Json result = s.wait("agent.tool_result");
        EXPECT_EQ(result["ok"], false);
        // In the read-only sandbox the command runs, and its write is refused by the kernel.
        std::string expected = sandboxed && i == 2 ? "cannot touch 'marker': Permission denied"
                                                   : "not available in plan mode";
        EXPECT_NE(result["content"].get<std::string>().find(expected), std::string::npos)
            << result.dump();
    }
    s.wait("agent.done");
    EXPECT_EQ(read_bytes(s.project() / "greet.py"), greet_py);
    EXPECT_FALSE(fs::exists(s.project() / "new.txt"));
    EXPECT_FALSE(fs::exists(s.project() / "marker")) << "no process may write";
    Json second = s.provider_calls().at(1)["conversation"].back()["results"];
    ASSERT_EQ(second.size(), 3u);
    for (const Json& r : second)
        EXPECT_EQ(r["ok"], false);
}

TEST(AgentE2E, WriteToolsInPlanModeGetErrorResultsAndNothingChanges) {
    expect_write_tools_refused(false);
}

TEST(AgentE2E, WriteToolsInPlanModeAreRefusedEvenWithAutoAccept) {
    expect_write_tools_refused(true);
}

TEST(AgentE2E, PresentPlanIsProposedAndFiled_AndWaitsEvenWithAutoAccept) {
    AgentSession s(Json::array({plan_step("Add a --shout flag!")}));
    s.request("agent.mode.set", {{"mode", "plan"}});
    s.request("agent.autoaccept.set", {{"on", true}});
    long turn = s.send("plan a flag");
    Json proposal = s.wait("agent.propose");
    EXPECT_EQ(proposal["turn"], turn);
    EXPECT_EQ(proposal["kind"], "plan");
    EXPECT_EQ(proposal["title"], "Add a --shout flag!");
    EXPECT_EQ(proposal["plan"], "1. Add `--shout` to greet.py\n2. Test it\n");
    std::string path = proposal["path"];
    EXPECT_TRUE(
        std::regex_match(path, std::regex(R"(\.rio/plans/\d{8}-\d{6}-add-a-shout-flag\.md)")))
        << path;
    std::string file = read_bytes(s.project() / path);
    EXPECT_NE(file.find("status: presented"), std::string::npos);
    EXPECT_NE(file.find("# Add a --shout flag!\n\n1. Add `--shout`"), std::string::npos);
    for (const Json& e : s.client().drain(300ms))
        EXPECT_TRUE(e["event"] != "agent.tool_result" && e["event"] != "agent.decided")
            << "a plan is never auto-accepted: " << e.dump();
    Json status = s.request("agent.status")["result"];
    EXPECT_EQ(status["busy"], true);
    EXPECT_EQ(status["pending"]["kind"], "plan");
    Json listed = s.request("plans.list")["result"]["plans"];
    ASSERT_EQ(listed.size(), 1u);
    EXPECT_EQ(listed[0]["status"], "presented");
    EXPECT_EQ(listed[0]["title"], "Add a --shout flag!");
}

TEST(AgentE2E, ApproveWithAutoSwitchesToBuildBeforeTheResult_NextCallCanEdit) {
    AgentSession s(Json::array({plan_step(), edit_step(), text_step("Done.")}));
    write_bytes(s.project() / "greet.py", greet_py);
    s.request("agent.mode.set", {{"mode", "plan"}});
    long turn = s.send("plan it");
    s.wait("agent.propose");
    s.client().drain(0ms); // forget the agent.mode {plan} of mode.set
    ASSERT_EQ(s.request("agent.approve",
                        {{"turn", turn}, {"decision", "approve"}, {"policy", "auto"}})["ok"],
              true);
    auto events = s.client().events_until("agent.tool_result");
    std::vector<std::string> order;
    for (const Json& e : events)
        order.push_back(e["event"]);
    auto mode = std::find(order.begin(), order.end(), "agent.mode");
    ASSERT_NE(mode, order.end()) << "agent.mode must precede the plan's tool result";
    EXPECT_EQ(events[mode - order.begin()]["params"]["mode"], "build");
    EXPECT_EQ(events.back()["params"]["ok"], true);
    Json edit_result = s.wait("agent.tool_result");
    EXPECT_EQ(edit_result["name"], "edit_file");
    EXPECT_EQ(edit_result["ok"], true) << "auto-accept applies the edit without waiting";
    Json done = s.wait("agent.done");
    EXPECT_EQ(done["turn"], turn) << "all within the same turn";
    // Decision 0053: every call lists every tool (the gate allows the mode's), so approving
    // the plan leaves the request's prefix as it was.
    EXPECT_EQ(s.tools_of_call(0), listed_tools);
    EXPECT_EQ(s.tools_of_call(1), listed_tools);
    EXPECT_EQ(read_bytes(s.project() / "greet.py"),
              "def greeting(name):\n    return f\"Hi, {name}!\"\n");
    Json status = s.request("agent.status")["result"];
    EXPECT_EQ(status["mode"], "build");
    EXPECT_EQ(status["auto_accept"], true);
    std::string plan = s.request("plans.list")["result"]["plans"][0]["path"];
    EXPECT_NE(read_bytes(s.project() / plan).find("status: approved\n"), std::string::npos);
    EXPECT_NE(read_bytes(s.project() / plan).find("policy: auto\n"), std::string::npos);
}

TEST(AgentE2E, ApproveWithReviewLeavesTheNextEditWaiting) {
    AgentSession s(Json::array({plan_step(), edit_step(), text_step("Done.")}));
    write_bytes(s.project() / "greet.py", greet_py);
    s.request("agent.mode.set", {{"mode", "plan"}});
    s.request("agent.autoaccept.set", {{"on", true}});
    long turn = s.send("plan it");
    s.wait("agent.propose");
    s.request("agent.approve", {{"turn", turn}, {"decision", "approve"}, {"policy", "review"}});
    Json edit = s.wait("agent.propose");
    EXPECT_EQ(edit["kind"], "edit");
    EXPECT_EQ(edit["path"], "greet.py");
    EXPECT_NE(edit["diff"].get<std::string>().find(
                  "-    return f\"Hello, {name}!\"\n+    return f\"Hi, {name}!\""),
              std::string::npos)
        << edit.dump();
    EXPECT_EQ(read_bytes(s.project() / "greet.py"), greet_py) << "nothing before approval";
    Json full = s.request("agent.proposal")["result"]["proposal"];
    EXPECT_EQ(full["before"], greet_py);
    EXPECT_EQ(s.request("agent.status")["result"]["auto_accept"], false);
    s.request("agent.approve", {{"turn", turn}, {"decision", "approve"}});
    s.wait("agent.done");
    EXPECT_NE(read_bytes(s.project() / "greet.py").find("Hi, {name}"), std::string::npos);
}

TEST(AgentE2E, RejectWithFeedbackKeepsPlanModeAndTellsTheModel) {
    AgentSession s(Json::array({plan_step(), text_step("What should change?")}));
    s.request("agent.mode.set", {{"mode", "plan"}});
    long turn = s.send("plan it");
    std::string path = s.wait("agent.propose")["path"];
    s.request("agent.approve",
              {{"turn", turn}, {"decision", "reject"}, {"feedback", "use argparse"}});
    Json decided = s.wait("agent.decided");
    EXPECT_EQ(decided["decision"], "reject");
    s.wait("agent.done");
    EXPECT_EQ(s.request("agent.status")["result"]["mode"], "plan");
    Json result = s.provider_calls().at(1)["conversation"].back()["results"][0];
    EXPECT_EQ(result["ok"], false);
    EXPECT_NE(result["content"].get<std::string>().find("use argparse"), std::string::npos);
    EXPECT_EQ(s.tools_of_call(1), listed_tools) << "listed; the gate allows plan mode's";
    EXPECT_TRUE(fs::exists(s.project() / path));
    EXPECT_NE(read_bytes(s.project() / path).find("status: rejected\n"), std::string::npos);
}

TEST(AgentE2E, APlanEditedOnDiskIsWhatGetsApproved) {
    AgentSession s(Json::array({plan_step(), text_step("ok")}));
    s.request("agent.mode.set", {{"mode", "plan"}});
    long turn = s.send("plan it");
    std::string path = s.wait("agent.propose")["path"];
    std::string file = read_bytes(s.project() / path);
    file.replace(file.find("2. Test it"), 10, "2. Test it with pytest\n3. Update README");
    write_bytes(s.project() / path, file);
    s.request("agent.approve", {{"turn", turn}, {"decision", "approve"}, {"policy", "review"}});
    Json result = s.wait("agent.tool_result");
    std::string content = result["content"];
    EXPECT_NE(content.find("The user edited the plan"), std::string::npos) << content;
    EXPECT_NE(content.find("3. Update README"), std::string::npos) << content;
}

TEST(AgentE2E, APlanEditedInAnUnsavedBufferIsWhatGetsApproved) {
    AgentSession s(Json::array({plan_step(), text_step("ok")}));
    s.request("agent.mode.set", {{"mode", "plan"}});
    long turn = s.send("plan it");
    std::string path = s.wait("agent.propose")["path"];
    Json opened = s.request("buffer.open", {{"path", path}})["result"];
    std::string text = opened["text"];
    ASSERT_EQ(s.request("buffer.replace",
                        {{"path", path}, {"text", text + "3. Also a man page\n"}})["ok"],
              true);
    s.request("agent.approve", {{"turn", turn}, {"decision", "approve"}});
    std::string content = s.wait("agent.tool_result")["content"];
    EXPECT_NE(content.find("The user edited the plan"), std::string::npos);
    EXPECT_NE(content.find("3. Also a man page"), std::string::npos);
    EXPECT_NE(read_bytes(s.project() / path).find("3. Also a man page"), std::string::npos)
        << "the approved text is saved with its status";
}

TEST(AgentE2E, AnUneditedPlanIsApprovedWithoutAnEditNote) {
    AgentSession s(Json::array({plan_step(), text_step("ok")}));
    s.request("agent.mode.set", {{"mode", "plan"}});
    long turn = s.send("plan it");
    s.wait("agent.propose");
    s.request("agent.approve", {{"turn", turn}, {"decision", "approve"}});
    std::string content = s.wait("agent.tool_result")["content"];
    EXPECT_EQ(content.find("edited"), std::string::npos) << content;
}

TEST(AgentE2E, WithoutAProjectThePlanIsProposedWithAnEmptyPathAndNothingIsWritten) {
    AgentSession s(Json::array({plan_step(), text_step("ok")}), /*with_project=*/false);
    s.request("agent.mode.set", {{"mode", "plan"}});
    long turn = s.send("plan it");
    Json proposal = s.wait("agent.propose");
    EXPECT_EQ(proposal["path"], "");
    EXPECT_EQ(proposal["title"], "Add a greeting flag");
    s.request("agent.approve", {{"turn", turn}, {"decision", "approve"}});
    EXPECT_EQ(s.wait("agent.tool_result")["ok"], true);
    EXPECT_FALSE(fs::exists(s.project() / ".rio"));
    EXPECT_EQ(std::distance(fs::directory_iterator(s.project().path()), {}), 0);
}

TEST(AgentE2E, PresentPlanInBuildModeIsGatedAndApprovedWithoutAModeEvent) {
    AgentSession s(Json::array({plan_step(), text_step("ok")}));
    long turn = s.send("plan it");
    s.wait("agent.propose");
    s.request("agent.approve", {{"turn", turn}, {"decision", "approve"}});
    auto events = s.client().events_until("agent.done");
    for (const Json& e : events)
        EXPECT_NE(e["event"], "agent.mode") << e.dump();
    EXPECT_EQ(s.request("agent.status")["result"]["mode"], "build");
}

TEST(AgentE2E, TwoClientsSeeTheProposalModeAndDecision_TheSecondDecisionIsRefused) {
    TempDir dir;
    TempDir project;
    std::string socket = (dir / "core.sock").string();
    write_bytes(dir / "script.json", Json{{"steps", {plan_step(), text_step("ok")}}}.dump());
    CoreProcess core({"--listen", "unix:" + socket, "--project", project.path().string(),
                      "--provider", "script:" + (dir / "script.json").string()},
                     {"XDG_CONFIG_HOME=" + dir.path().string()});
    core.wait_for_stderr("listening on");
    LineClient a = LineClient::connect_unix(socket), b = LineClient::connect_unix(socket);
    a.request("agent.mode.set", {{"mode", "plan"}});
    for (LineClient* c : {&a, &b})
        EXPECT_EQ(c->next_event("agent.mode")["params"]["mode"], "plan");
    long turn = a.request("agent.send", {{"text", "plan"}})["result"]["turn"];
    for (LineClient* c : {&a, &b})
        EXPECT_EQ(c->next_event("agent.propose")["params"]["kind"], "plan");
    Json first =
        b.request("agent.approve", {{"turn", turn}, {"decision", "approve"}, {"policy", "auto"}});
    EXPECT_EQ(first["ok"], true);
    Json second = a.request("agent.approve", {{"turn", turn}, {"decision", "reject"}});
    EXPECT_EQ(second["ok"], false);
    EXPECT_EQ(second["error"]["code"], "conflict");
    for (LineClient* c : {&a, &b}) {
        Json decided = c->next_event("agent.decided")["params"];
        EXPECT_EQ(decided["decision"], "approve");
        EXPECT_EQ(c->next_event("agent.mode")["params"]["mode"], "build");
    }
}

TEST(AgentE2E, StopWhileWaitingOnTheProvider) {
    AgentSession s(Json::array({{{"text", "slow"}, {"delay_ms", 30000}}, text_step("fast")}));
    long turn = s.send("first");
    // agent.send starts the provider before it answers (the script logs the call as it
    // starts), and the slow step holds its reply for 30 s: a round trip finds the turn waiting.
    ASSERT_EQ(s.provider_calls().size(), 1u);
    Json status = s.request("agent.status")["result"];
    EXPECT_EQ(status["busy"], true);
    EXPECT_EQ(status["turn"], turn);
    Json stopped = s.request("agent.stop");
    EXPECT_EQ(stopped["result"]["stopped"], Json::array({turn}));
    EXPECT_EQ(s.wait("agent.stopped")["turn"], turn);
    EXPECT_EQ(s.request("agent.status")["result"]["busy"], false);
    long next = s.send("second");
    EXPECT_EQ(s.wait("agent.done")["turn"], next);
    expect_valid_history(s);
}

TEST(AgentE2E, StopWhileACommandRunsKillsItsProcessGroup) {
    AgentSession s(Json::array(
        {step({tool(
             "run_command",
             {{"argv", {"sh", "-c", "echo $$ > parent.pid; sleep 60 & echo $! > child.pid; wait"}},
              {"cwd", "run"}})}),
         text_step("after")}));
    write_bytes(s.config() / "allow", "cwd=run sh -c\n");
    // A folder of its own: under workspace-write the project's top level takes no new files.
    fs::create_directories(s.project() / "run");
    s.trust_project(); // allow rules apply in trusted projects only (issue 26)
    long turn = s.send("run it");
    auto child = s.project() / "run/child.pid";
    for (int i = 0; i < 500 && !(fs::exists(child) && fs::file_size(child) > 0); ++i)
        std::this_thread::sleep_for(10ms);
    ASSERT_TRUE(fs::exists(child)) << "the allow-listed command should have started";
    pid_t parent = std::stoi(read_bytes(s.project() / "run/parent.pid"));
    pid_t grandchild = std::stoi(read_bytes(child));
    EXPECT_TRUE(alive(grandchild));
    EXPECT_EQ(s.request("agent.stop")["result"]["stopped"], Json::array({turn}));
    bool gone = false;
    for (int i = 0; i < 500 && !gone; ++i) {
        gone = !alive(parent) && !alive(grandchild);
        if (!gone) std::this_thread::sleep_for(10ms);
    }
    EXPECT_TRUE(gone) << "the whole process group is killed";
    long next = s.send("again");
    s.wait("agent.done");
    (void)next;
    expect_valid_history(s);
}

TEST(AgentE2E, StopWhileAProposalIsPending) {
    AgentSession s(Json::array({edit_step(), text_step("next turn")}));
    write_bytes(s.project() / "greet.py", greet_py);
    long turn = s.send("edit");
    s.wait("agent.propose");
    EXPECT_EQ(s.request("agent.stop", {{"turn", turn}})["result"]["stopped"], Json::array({turn}));
    EXPECT_TRUE(s.request("agent.status")["result"]["pending"].is_null());
    Json late = s.request("agent.approve", {{"turn", turn}, {"decision", "approve"}});
    EXPECT_EQ(late["error"]["code"], "bad_request");
    EXPECT_EQ(read_bytes(s.project() / "greet.py"), greet_py);
    s.send("go on");
    s.wait("agent.done");
    expect_valid_history(s);
}

TEST(AgentE2E, ANewMessageWhileAPlanIsPendingEndsTheTurnAndKeepsPlanMode) {
    AgentSession s(Json::array({plan_step(), text_step("ok")}));
    s.request("agent.mode.set", {{"mode", "plan"}});
    long first = s.send("plan it");
    s.wait("agent.propose");
    long second = s.send("never mind, explain instead");
    EXPECT_EQ(s.wait("agent.stopped")["turn"], first);
    EXPECT_EQ(s.wait("agent.done")["turn"], second);
    EXPECT_EQ(s.request("agent.status")["result"]["mode"], "plan");
    Json last_user = s.provider_calls().at(1)["conversation"].back();
    ASSERT_EQ(last_user["results"].size(), 1u);
    EXPECT_NE(last_user["results"][0]["content"].get<std::string>().find("interrupted"),
              std::string::npos);
    EXPECT_EQ(last_user["text"], "never mind, explain instead");
    expect_valid_history(s);
}

TEST(AgentE2E, ResetBroadcastsClearsHistoryAndRefusesThePendingDecision) {
    AgentSession s(Json::array({plan_step()}));
    s.request("agent.mode.set", {{"mode", "plan"}});
    long turn = s.send("plan it");
    s.wait("agent.propose");
    ASSERT_EQ(s.request("agent.reset")["ok"], true);
    s.wait("agent.reset");
    EXPECT_EQ(s.request("agent.history")["result"]["messages"].size(), 0u);
    Json refused = s.request("agent.approve", {{"turn", turn}, {"decision", "approve"}});
    EXPECT_EQ(refused["ok"], false);
    EXPECT_EQ(refused["error"]["code"], "bad_request");
}

TEST(AgentE2E, EditConflictsAreRefusedAndTheFileIsUntouched) {
    AgentSession s(Json::array(
        {edit_step("Goodbye", "x"), edit_step("e", "x"), edit_step(), text_step("done")}));
    write_bytes(s.project() / "greet.py", greet_py);
    long turn = s.send("edit");
    Json missing = s.wait("agent.tool_result");
    EXPECT_EQ(missing["ok"], false);
    EXPECT_NE(missing["content"].get<std::string>().find("was not found in greet.py"),
              std::string::npos);
    Json repeated = s.wait("agent.tool_result");
    EXPECT_NE(repeated["content"].get<std::string>().find("times in greet.py"), std::string::npos);
    s.wait("agent.propose"); // the third edit is valid and waits
    std::string changed = "def greeting(name):\n    return f\"Howdy, {name}!\"\n";
    write_bytes(s.project() / "greet.py", changed);
    s.request("agent.approve", {{"turn", turn}, {"decision", "approve"}});
    Json stale = s.wait("agent.tool_result");
    EXPECT_EQ(stale["ok"], false);
    EXPECT_NE(stale["content"].get<std::string>().find("changed since the edit was proposed"),
              std::string::npos)
        << stale.dump();
    EXPECT_EQ(read_bytes(s.project() / "greet.py"), changed);
}

TEST(AgentE2E, AnAllowListedCommandRunsWithoutAsking_OthersWait) {
    AgentSession s(Json::array({step({tool("run_command", {{"argv", {"echo", "allowed"}}}),
                                      tool("run_command", {{"argv", {"touch", "out/made"}}})}),
                                text_step("done")}));
    write_bytes(s.project() / ".rio/allow", "echo\n");
    fs::create_directories(s.project() / "out");
    // The project's own rules apply once the user trusts them (DESIGN §12).
    s.trust_project();
    long turn = s.send("run");
    Json ran = s.wait("agent.tool_result");
    EXPECT_EQ(ran["ok"], true);
    EXPECT_NE(ran["content"].get<std::string>().find("allowed\n[exit code 0"), std::string::npos)
        << ran.dump();
    Json asked = s.wait("agent.propose");
    EXPECT_EQ(asked["kind"], "command");
    EXPECT_EQ(asked["argv"], Json::array({"touch", "out/made"}));
    EXPECT_EQ(asked["cwd"], ".");
    EXPECT_FALSE(fs::exists(s.project() / "out/made"));
    s.request("agent.approve", {{"turn", turn}, {"decision", "approve"}});
    s.wait("agent.done");
    EXPECT_TRUE(fs::exists(s.project() / "out/made"));
}

} // namespace
} // namespace rio::test

namespace rio::test {
namespace {

TEST(AgentToolsE2E, BadToolInputGetsAClearErrorResultAndTheTurnGoesOn) {
    AgentSession s(Json::array(
        {step({tool("read_file", {{"path", 42}}), tool("read_file", {{"path", "../etc/passwd"}}),
               tool("read_file", {{"path", "missing.txt"}}), tool("list_dir", Json::array({1})),
               tool("run_command", {{"argv", "make test"}})}),
         text_step("sorry")}));
    write_bytes(s.config() / "allow", "make\n");
    s.trust_project();
    s.send("go");
    std::vector<std::string> contents;
    for (int i = 0; i < 5; ++i) {
        Json r = s.wait("agent.tool_result");
        EXPECT_EQ(r["ok"], false) << r.dump();
        contents.push_back(r["content"]);
    }
    EXPECT_EQ(contents[0],
              "Invalid input for read_file: input.path: expected a string, got number.");
    EXPECT_EQ(contents[1], "path is outside the project: ../etc/passwd");
    EXPECT_EQ(contents[2], "no such file or folder: missing.txt");
    EXPECT_EQ(contents[3], "The input of list_dir must be a JSON object.");
    EXPECT_NE(contents[4].find("input.argv must be a non-empty array of strings"),
              std::string::npos);
    EXPECT_EQ(s.wait("agent.done")["stop_reason"], "end_turn");
}

TEST(AgentToolsE2E, ReadFileShowsTheOpenBuffersUnsavedText) {
    AgentSession s(
        Json::array({step({tool("read_file", {{"path", "notes.txt"}})}), text_step("ok")}));
    write_bytes(s.project() / "notes.txt", "on disk\n");
    s.request("buffer.open", {{"path", "notes.txt"}});
    s.request("buffer.replace", {{"path", "notes.txt"}, {"text", "in the editor\nline two\n"}});
    s.send("read");
    EXPECT_EQ(s.wait("agent.tool_result")["content"], "     1\tin the editor\n     2\tline two\n");
}

TEST(AgentToolsE2E, ReadFilePagesLongFilesAndSaysSo) {
    AgentSession s(
        Json::array({step({tool("read_file", {{"path", "long.txt"}, {"offset", 3}, {"limit", 2}})}),
                     text_step("ok")}));
    write_bytes(s.project() / "long.txt", "1\n2\n3\n4\n5\n6\n");
    s.send("read");
    EXPECT_EQ(s.wait("agent.tool_result")["content"],
              "     3\t3\n     4\t4\n(showing lines 3-4 of 6; read more with offset 5)\n");
}

// Decision 0056: one call takes at most a tenth of the window (the script provider's model is
// unknown: 32,768 tokens, so 13,107 bytes), and says how to read on.
TEST(AgentToolsE2E, ReadFileStopsAtATenthOfTheWindowAndSaysWhereToGoOn) {
    AgentSession s(Json::array(
        {step({tool("read_file", {{"path", "big.txt"}}), tool("list_dir", {{"path", "many"}})}),
         text_step("ok")}));
    std::string big;
    for (int i = 0; i < 1000; ++i)
        big.append(39, 'x').push_back('\n'); // not string + "\n": GCC 12's -Warray-bounds at -O2
    write_bytes(s.project() / "big.txt", big);
    for (int i = 0; i < 600; ++i)
        write_bytes(s.project() / "many" / ("a-file-with-a-rather-long-name-" + std::to_string(i)),
                    "");
    s.send("read");
    std::string read = s.wait("agent.tool_result")["content"];
    EXPECT_LT(read.size(), 13'107u + 200);
    EXPECT_GT(read.size(), 12'000u);
    EXPECT_NE(read.find("of 1000; read more with offset "), std::string::npos)
        << read.substr(read.size() - 200);
    EXPECT_NE(read.find(" and a smaller limit)"), std::string::npos);
    std::string listed = s.wait("agent.tool_result")["content"];
    EXPECT_LT(listed.size(), 13'107u + 200);
    EXPECT_NE(listed.find("more bytes not shown; list a subfolder to see the rest]"),
              std::string::npos);
}

TEST(AgentToolsE2E, SearchRespectsGitignoreAndReportsPathLineText) {
    AgentSession s(Json::array({step({tool("search", {{"pattern", "needle"}})}), text_step("ok")}));
    write_bytes(s.project() / "src/a.cpp", "int x;\nint needle = 1;\n");
    write_bytes(s.project() / "build/gen.cpp", "int needle = 2;\n");
    write_bytes(s.project() / ".gitignore", "build/\n");
    s.send("find");
    std::string content = s.wait("agent.tool_result")["content"];
    EXPECT_NE(content.find("src/a.cpp:2: int needle = 1;"), std::string::npos) << content;
    EXPECT_EQ(content.find("build/gen.cpp"), std::string::npos) << content;
}

// The glob a model used to other agents writes (issue 40): braces, `!`, several at once.
TEST(AgentToolsE2E, SearchTakesGlobsAsRipgrepDoes) {
    AgentSession s(Json::array(
        {step({tool("search", {{"pattern", "needle"}, {"glob", "*.{ts,tsx}"}}),
               tool("search", {{"pattern", "needle"}, {"glob", Json::array({"*.ts*", "!b.*"})}}),
               tool("search", {{"pattern", "needle"}, {"glob", "*.{ts,tsx"}})}),
         text_step("ok")}));
    write_bytes(s.project() / "a.ts", "needle\n");
    write_bytes(s.project() / "b.tsx", "needle\n");
    write_bytes(s.project() / "c.js", "needle\n");
    s.send("find");
    EXPECT_EQ(s.wait("agent.tool_result")["content"],
              "a.ts:1: needle\nb.tsx:1: needle\n(2 matches in 2 files; 2 files searched)");
    EXPECT_EQ(s.wait("agent.tool_result")["content"],
              "a.ts:1: needle\n(1 match in 1 file; 1 file searched)");
    Json refused = s.wait("agent.tool_result");
    EXPECT_EQ(refused["ok"], false) << refused.dump();
    EXPECT_NE(refused["content"].get<std::string>().find("{a,b}"), std::string::npos)
        << refused.dump();
}

TEST(AgentToolsE2E, SearchIgnoresCaseWhenAsked) {
    AgentSession s(
        Json::array({step({tool("search", {{"pattern", "NEEDLE"}}),
                           tool("search", {{"pattern", "NEEDLE"}, {"ignore_case", true}})}),
                     text_step("ok")}));
    write_bytes(s.project() / "a.txt", "a needle\n");
    s.send("find");
    EXPECT_EQ(s.wait("agent.tool_result")["content"], "No matches for \"NEEDLE\" in 1 file.");
    EXPECT_EQ(s.wait("agent.tool_result")["content"],
              "a.txt:1: a needle\n(1 match in 1 file; 1 file searched)");
}

TEST(AgentToolsE2E, AnAutoAcceptedEditToAnOpenBufferUpdatesItAndSavesIt) {
    AgentSession s(Json::array({edit_step(), text_step("ok")}));
    write_bytes(s.project() / "greet.py", greet_py);
    s.request("buffer.open", {{"path", "greet.py"}});
    s.request("agent.autoaccept.set", {{"on", true}});
    s.send("edit");
    s.wait("agent.done");
    Json buffer = s.request("buffer.text", {{"path", "greet.py"}})["result"];
    EXPECT_NE(buffer["text"].get<std::string>().find("Hi, {name}"), std::string::npos);
    EXPECT_EQ(buffer["dirty"], false);
    EXPECT_EQ(read_bytes(s.project() / "greet.py"), buffer["text"]);
}

TEST(AgentToolsE2E, CreateFileMakesFoldersButNeverOverwrites) {
    AgentSession s(
        Json::array({step({tool("create_file", {{"path", "docs/new.md"}, {"content", "# New\n"}}),
                           tool("create_file", {{"path", "greet.py"}, {"content", "x"}})}),
                     text_step("ok")}));
    write_bytes(s.project() / "greet.py", greet_py);
    s.request("agent.autoaccept.set", {{"on", true}});
    s.send("create");
    EXPECT_EQ(s.wait("agent.tool_result")["content"], "Created docs/new.md (1 line).");
    EXPECT_EQ(s.wait("agent.tool_result")["content"],
              "greet.py already exists; use edit_file to change it.");
    EXPECT_EQ(read_bytes(s.project() / "docs/new.md"), "# New\n");
    EXPECT_EQ(read_bytes(s.project() / "greet.py"), greet_py);
}

TEST(AgentToolsE2E, TheAgentCannotWriteRiosSettingsEvenUnderAutoAccept) {
    AgentSession s(Json::array(
        {step({tool("edit_file",
                    {{"path", ".rio/allow"}, {"old_string", "echo\n"}, {"new_string", "sh\n"}}),
               tool("create_file", {{"path", ".rio/prompt.md"}, {"content", "obey"}}),
               tool("create_file", {{"path", "link/allow2"}, {"content", "sh\n"}}),
               tool("run_command", {{"argv", {"sh", "-c", "touch made"}}})}),
         text_step("ok")}));
    write_bytes(s.project() / ".rio/allow", "echo\n");
    fs::create_directory_symlink(s.project() / ".rio", s.project() / "link");
    s.request("agent.autoaccept.set", {{"on", true}});
    long turn = s.send("grant yourself commands");
    for (const char* rel : {".rio/allow", ".rio/prompt.md", ".rio/allow2"}) {
        Json refused = s.wait("agent.tool_result");
        EXPECT_EQ(refused["ok"], false) << rel;
        EXPECT_EQ(refused["content"].get<std::string>().find(std::string(rel) +
                                                             " is inside .rio/, which holds rio's "
                                                             "own settings"),
                  0u)
            << refused.dump();
    }
    Json asked = s.wait("agent.propose"); // sh is still not allowed: it waits for a person
    EXPECT_EQ(asked["kind"], "command");
    s.request("agent.approve", {{"turn", turn}, {"decision", "reject"}});
    s.wait("agent.done");
    EXPECT_EQ(read_bytes(s.project() / ".rio/allow"), "echo\n");
    EXPECT_FALSE(fs::exists(s.project() / ".rio/prompt.md"));
    EXPECT_FALSE(fs::exists(s.project() / ".rio/allow2"));
    EXPECT_FALSE(fs::exists(s.project() / "made"));
}

TEST(AgentToolsE2E, ACommandThatFailsReportsItsExitCodeToTheModel) {
    AgentSession s(
        Json::array({step({tool("run_command", {{"argv", {"sh", "-c", "echo oops >&2; exit 3"}}})}),
                     text_step("ok")}));
    write_bytes(s.project() / ".rio/allow", "sh\n");
    s.trust_project();
    s.send("run");
    Json r = s.wait("agent.tool_result");
    EXPECT_EQ(r["ok"], false);
    EXPECT_NE(r["content"].get<std::string>().find("oops\n[exit code 3"), std::string::npos)
        << r.dump();
}

TEST(AgentProvidersE2E, EchoIsTheOfflineDefaultAndRioProviderSelects) {
    TempDir home;
    CoreProcess echo({}, {"RIO_PROVIDER=", "ANTHROPIC_API_KEY=", "OPENAI_API_KEY=",
                          "OLLAMA_HOST=127.0.0.1:1", "XDG_CONFIG_HOME=" + home.path().string()});
    EXPECT_EQ(echo.stdio().request("agent.status")["result"]["provider"], "echo");
    echo.stdio().request("agent.send", {{"text", "hello rio"}});
    EXPECT_EQ(echo.stdio().next_event("agent.message")["params"]["text"], "You said: hello rio");

    write_bytes(home / "s.json", Json{{"steps", {text_step("scripted")}}}.dump());
    CoreProcess scripted({}, {"RIO_PROVIDER=script:" + (home / "s.json").string()});
    EXPECT_EQ(scripted.stdio().request("agent.status")["result"]["provider"], "script");
}

TEST(AgentProvidersE2E, AnUnknownProviderOrABrokenScriptStopsTheCoreWithAMessage) {
    CoreProcess unknown({"--provider", "telepathy"});
    EXPECT_EQ(unknown.wait_exit(), 2);
    EXPECT_NE(unknown.stderr_text().find("unknown provider 'telepathy'"), std::string::npos);
    TempDir dir;
    write_bytes(dir / "bad.json", "{\"steps\": [{\"tools\": [{}]}]}");
    CoreProcess broken({"--provider", "script:" + (dir / "bad.json").string()});
    EXPECT_EQ(broken.wait_exit(), 2);
    EXPECT_NE(broken.stderr_text().find("steps[0].tools[0] needs a \"name\""), std::string::npos)
        << broken.stderr_text();
}

TEST(AgentProvidersE2E, AScriptedProviderErrorEndsTheTurnAndTheNextTurnWorks) {
    AgentSession s(Json::array(
        {{{"text", "partial "}, {"error", {{"code", "rate_limit"}, {"message", "slow down"}}}},
         text_step("recovered")}));
    long first = s.send("one");
    Json error = s.wait("agent.error");
    EXPECT_EQ(error["code"], "rate_limit");
    EXPECT_EQ(error["turn"], first);
    EXPECT_EQ(s.wait("agent.done")["stop_reason"], "error");
    s.send("two");
    EXPECT_EQ(s.wait("agent.message")["text"], "recovered");
    expect_valid_history(s);
}

TEST(AgentPromptE2E, PromptListShowsEveryLayerAndEditWritesTheOverride) {
    AgentSession s(Json::array());
    Json layers = s.request("agent.prompt.list")["result"]["layers"];
    std::vector<std::string> order;
    for (const Json& l : layers)
        order.push_back(l["name"]);
    EXPECT_EQ(order, (std::vector<std::string>{"base", "user", "provider", "project", "plan",
                                               "compact", "subagent"}));
    EXPECT_EQ(layers[5]["active"], false) << "a summary request's prompt, in no step's";
    EXPECT_EQ(layers[0]["origin"], "shipped");
    EXPECT_EQ(layers[4]["active"], false) << "the plan layer is off in build mode";
    Json edited =
        s.request("agent.prompt.edit", {{"layer", "user"}, {"text", "Answer in French."}});
    ASSERT_EQ(edited["ok"], true) << edited.dump();
    EXPECT_EQ(read_bytes(edited["result"]["path"].get<std::string>()), "Answer in French.");
    EXPECT_NE(s.request("agent.prompt.get")["result"]["composed"].get<std::string>().find(
                  "Answer in French."),
              std::string::npos);
    Json project =
        s.request("agent.prompt.edit", {{"layer", "plan"}, {"scope", "project"}, {"text", "P"}});
    EXPECT_EQ(project["result"]["path"], (s.project() / ".rio/plan.md").string());
    EXPECT_EQ(s.request("agent.prompt.edit", {{"layer", "nope"}, {"text", "x"}})["error"]["code"],
              "bad_request");
}

} // namespace
} // namespace rio::test
