// The gate holds (issue 10): nothing the model, a cloned project or another client writes
// grants the agent power. One named test per hole, then the figures the suite prints.
#include "tests/support/agent_session.hpp"
#include "tests/support/fake_llm.hpp"
#include "tests/support/script_steps.hpp"

#include <atomic>
#include <csignal>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <sys/stat.h>
#include <thread>

namespace rio::test {
namespace {

namespace fs = std::filesystem;

// Every file below `root` with its bytes and mode: what "nothing changed" is checked against.
std::map<std::string, std::pair<std::string, unsigned>> snapshot(const fs::path& root) {
    std::map<std::string, std::pair<std::string, unsigned>> files;
    for (auto it = fs::recursive_directory_iterator(root); it != fs::end(it); ++it) {
        if (!it->is_regular_file() || it->is_symlink()) continue;
        struct stat st {};
        ::stat(it->path().c_str(), &st);
        files[fs::relative(it->path(), root).string()] = {read_bytes(it->path()), st.st_mode};
    }
    return files;
}

// The next `name` event of `turn`, passing over older turns' that are still buffered.
Json wait_in_turn(AgentSession& s, std::string_view name, long turn) {
    for (;;) {
        Json e = s.wait(name);
        if (e.value("turn", -1L) == turn) return e;
    }
}

std::vector<Json> results_of_turn(AgentSession& s) {
    std::vector<Json> results;
    for (const Json& e : s.client().events_until("agent.done", std::chrono::seconds(60)))
        if (e["event"] == "agent.tool_result") results.push_back(e["params"]);
    return results;
}

// Hole 2: with `git status` allowed and edits auto-accepted, an edit adding core.fsmonitor
// to .git/config made the next `git status` run any command.
TEST(GateE2E, WritesIntoGitAreRefusedInEverySpelling) {
    std::string cfg = "[core]\n\trepositoryformatversion = 0\n";
    Json fsmonitor{{"old_string", "[core]\n"},
                   {"new_string", "[core]\n\tfsmonitor = touch pwned\n"}};
    auto edit = [&](const std::string& path) {
        Json input = fsmonitor;
        input["path"] = path;
        return tool("edit_file", input);
    };
    AgentSession probe(Json::array());
    std::string absolute = (probe.project() / ".git/config").string();
    AgentSession s(Json::array(
        {step({edit(".git/config"), edit("./.git/config"), edit("sub/../.git/config"),
               edit(".git//config"), edit("gitlink/config"), edit("nested/.git/config"),
               tool("create_file", {{"path", ".git/hooks/pre-commit"}, {"content", "touch pwned"}}),
               tool("create_file", {{"path", ".GIT/config"}, {"content", "x"}}),
               tool("create_file", {{"path", "gitlink/hooks/post-checkout"}, {"content", "x"}})}),
         text_step("done")}));
    write_bytes(s.project() / ".git/config", cfg);
    write_bytes(s.project() / "nested/.git/config", cfg);
    fs::create_directories(s.project() / "sub");
    fs::create_directory_symlink(s.project() / ".git", s.project() / "gitlink");
    write_bytes(s.config() / "allow", "git status\n");
    ASSERT_EQ(s.request("agent.autoaccept.set", {{"on", true}})["ok"], true);
    auto before = snapshot(s.project().path());
    s.send("set up git");
    auto results = results_of_turn(s);
    ASSERT_EQ(results.size(), 9u);
    for (const Json& r : results) {
        EXPECT_EQ(r["ok"], false) << r.dump();
        EXPECT_NE(r["content"].get<std::string>().find(".git folder"), std::string::npos)
            << r.dump();
    }
    EXPECT_EQ(snapshot(s.project().path()), before);
    EXPECT_FALSE(fs::exists(s.project() / ".GIT"));
}

// Hole 3: a project holding the user's config and data folders let plan-mode read_file and
// search return a stored key, and create_file write the user's allow-list.
TEST(GateE2E, RiosOwnFoldersInsideTheProjectAreOffLimitsToEveryTool) {
    const std::string key = "sk-ant-api03-0123456789abcdefSECRET";
    auto session = AgentSession::with_env(
        Json::array(
            {step({tool("read_file", {{"path", "home/data/rio/secrets/anthropic"}}),
                   tool("search", {{"pattern", "SECRET"}}),
                   tool("search", {{"pattern", "SECRET"}, {"path", "home/data/rio"}}),
                   tool("list_dir", {{"path", "home/config/rio"}})}),
             text_step("looked"),
             step({tool("create_file", {{"path", "home/config/rio/allow"}, {"content", "sh\n"}}),
                   tool("edit_file", {{"path", "home/config/rio/trust.json"},
                                      {"old_string", "{"},
                                      {"new_string", "{ "}}),
                   tool("read_file", {{"path", "link-to-secret"}})}),
             text_step("done")}),
        [](const AgentSession& session) {
            fs::path home = session.project() / "home";
            return std::vector<std::string>{"XDG_CONFIG_HOME=" + (home / "config").string(),
                                            "XDG_DATA_HOME=" + (home / "data").string(),
                                            "XDG_STATE_HOME=" + (home / "state").string()};
        });
    AgentSession& s = *session;
    ASSERT_EQ(s.request("agent.key.set", {{"provider", "anthropic"}, {"key", key}})["ok"], true);
    write_bytes(s.project() / "home/config/rio/trust.json", "{}\n");
    fs::create_symlink(s.project() / "home/data/rio/secrets/anthropic",
                       s.project() / "link-to-secret");
    ASSERT_EQ(s.request("agent.mode.set", {{"mode", "plan"}})["ok"], true);
    s.send("look around");
    auto reads = results_of_turn(s);
    ASSERT_EQ(reads.size(), 4u);
    EXPECT_EQ(reads[0]["ok"], false);
    EXPECT_NE(reads[0]["content"].get<std::string>().find("rio's own settings and data"),
              std::string::npos);
    EXPECT_NE(reads[1]["content"].get<std::string>().find("No matches"), std::string::npos)
        << reads[1].dump();
    EXPECT_EQ(reads[2]["ok"], false);
    EXPECT_EQ(reads[3]["ok"], false);
    ASSERT_EQ(s.request("agent.mode.set", {{"mode", "build"}})["ok"], true);
    ASSERT_EQ(s.request("agent.autoaccept.set", {{"on", true}})["ok"], true);
    s.send("now change them");
    for (const Json& r : results_of_turn(s))
        EXPECT_EQ(r["ok"], false) << r.dump();
    EXPECT_FALSE(fs::exists(s.project() / "home/config/rio/allow"));
    EXPECT_EQ(read_bytes(s.project() / "home/config/rio/trust.json"), "{}\n");
    std::string history = s.request("agent.history").dump();
    EXPECT_EQ(history.find(key), std::string::npos);
}

// Hole 5: build mode, auto-accept on, an edit_file arriving 1.5 s after the user pressed
// Plan was applied while agent.status said plan.
TEST(GateE2E, SwitchingToPlanDuringAStepRefusesTheWritesStillToCome) {
    AgentSession s(Json::array(
        {{{"delay_ms", 1500},
          {"tools",
           {tool("edit_file", {{"path", "a.txt"}, {"old_string", "a"}, {"new_string", "b"}})}}},
         text_step("ok")}));
    write_bytes(s.project() / "a.txt", "a\n");
    ASSERT_EQ(s.request("agent.autoaccept.set", {{"on", true}})["ok"], true);
    s.send("edit it");
    ASSERT_EQ(s.request("agent.mode.set", {{"mode", "plan"}})["ok"], true); // while it streams
    Json result = s.wait("agent.tool_result");
    EXPECT_EQ(result["ok"], false);
    EXPECT_NE(result["content"].get<std::string>().find("the user switched to plan mode"),
              std::string::npos);
    s.wait("agent.done");
    EXPECT_EQ(read_bytes(s.project() / "a.txt"), "a\n");
}

// Hole 7: an approved `env` showed ANTHROPIC_API_KEY to the model, and the history and the
// next provider request carried it.
TEST(GateE2E, CommandsNeverSeeKeysAndNothingTheCoreSaysCarriesOne) {
    const std::string env_key = "sk-ant-api03-fromTheEnvironment0001";
    const std::string stored = "sk-proj-storedInRiosSecretsFolder0002";
    TempDir elsewhere; // a file the user keeps the key in, which a command may print
    write_bytes(elsewhere / "key.txt", stored + "\n");
    std::string print_it = "cat " + (elsewhere / "key.txt").string();
    auto session = AgentSession::with_env(
        Json::array({step({tool("run_command", {{"argv", {"env"}}}),
                           tool("run_command", {{"argv", {"sh", "-c", print_it}}})}),
                     text_step("done")}),
        [&](const AgentSession&) {
            return std::vector<std::string>{"ANTHROPIC_API_KEY=" + env_key,
                                            "RIO_SECRET_THING=rio-own-variable"};
        });
    AgentSession& s = *session;
    ASSERT_EQ(s.request("agent.key.set", {{"provider", "openai"}, {"key", stored}})["ok"], true);
    write_bytes(s.config() / "allow", "env\nsh\n");
    s.send("show me the environment");
    std::string everything;
    for (const Json& e : s.client().events_until("agent.done"))
        everything += e.dump();
    everything += s.request("agent.history").dump();
    for (const Json& call : s.provider_calls())
        everything += call.dump();
    EXPECT_EQ(everything.find(env_key), std::string::npos);
    EXPECT_EQ(everything.find(stored), std::string::npos);
    EXPECT_EQ(everything.find("RIO_SECRET_THING"), std::string::npos) << "rio's own variables";
    EXPECT_NE(everything.find("[redacted]"), std::string::npos);
    EXPECT_NE(everything.find("PATH="), std::string::npos) << "the rest of the environment";
}

// Hole 7, the other half: a 401 whose body quotes the key went out verbatim in agent.error.
TEST(GateE2E, AProviderErrorQuotingTheKeyIsRedacted) {
    const std::string key = "sk-ant-api03-quotedBackByTheServer0003";
    FakeLlm fake(Json::array({{{"status", 401}, {"error", "invalid x-api-key: " + key}}}));
    auto s = AgentSession::with_provider(
        {"--provider", "anthropic"},
        {"ANTHROPIC_BASE_URL=" + fake.url(), "ANTHROPIC_API_KEY=" + key});
    s->send("hi");
    Json error = s->wait("agent.error");
    EXPECT_EQ(error["code"], "auth");
    std::string message = error["message"];
    EXPECT_EQ(message.find(key), std::string::npos) << message;
    EXPECT_NE(message.find("invalid x-api-key: [redacted]"), std::string::npos) << message;
}

// Hole 8: plans left undecided said "presented" forever; a plan opening with "## " lost its
// title; plans.list was by file name; an emptied plan was approved as empty.
TEST(GateE2E, PlansAreAbandonedTitledSortedAndNeverApprovedEmpty) {
    Json first = tool("present_plan", {{"title", "Zebra first"}, {"plan", "## Steps\n\n1. z\n"}});
    Json second = tool("present_plan", {{"title", "Ünïcode café"}, {"plan", "1. a\n"}});
    Json third = tool("present_plan", {{"title", "Stopped one"}, {"plan", "1. s\n"}});
    Json fourth = tool("present_plan", {{"title", "Emptied"}, {"plan", "1. e\n"}});
    AgentSession s(Json::array({step({first, second}), text_step("ok"), step({third}),
                                step({fourth}), text_step("asked")}));
    ASSERT_EQ(s.request("agent.mode.set", {{"mode", "plan"}})["ok"], true);
    long turn = s.send("plan");
    Json z = s.wait("agent.propose");
    s.request("agent.approve", {{"turn", turn}, {"id", z["id"]}, {"decision", "reject"}});
    Json u = s.wait("agent.propose"); // the same second, most likely
    s.request("agent.approve", {{"turn", turn}, {"id", u["id"]}, {"decision", "reject"}});
    s.wait("agent.done");
    EXPECT_EQ(fs::path(u["path"].get<std::string>()).filename().string().substr(16),
              "unicode-cafe.md");
    Json plans = s.request("plans.list")["result"]["plans"];
    ASSERT_EQ(plans.size(), 2u);
    EXPECT_EQ(plans[0]["path"], u["path"]) << "newest first, by the time presented";
    EXPECT_EQ(plans[1]["title"], "Zebra first") << "the given title heads a plan of ## sections";

    turn = s.send("again");
    Json stopped = wait_in_turn(s, "agent.propose", turn);
    s.request("agent.stop");
    wait_in_turn(s, "agent.stopped", turn);
    EXPECT_EQ(s.request("plans.get", {{"path", stopped["path"]}})["result"]["status"], "abandoned");

    turn = s.send("once more");
    Json emptied = wait_in_turn(s, "agent.propose", turn);
    write_bytes(s.project() / emptied["path"].get<std::string>(),
                "---\nstatus: presented\n---\n\n");
    s.request("agent.approve",
              {{"turn", turn}, {"id", emptied["id"]}, {"decision", "approve"}, {"policy", "auto"}});
    Json result = wait_in_turn(s, "agent.tool_result", turn);
    EXPECT_EQ(result["ok"], false);
    EXPECT_NE(result["content"].get<std::string>().find("The plan is empty"), std::string::npos)
        << result.dump();
    wait_in_turn(s, "agent.done", turn);
    Json status = s.request("agent.status")["result"];
    EXPECT_EQ(status["mode"], "plan") << "nothing was approved";
    EXPECT_EQ(status["auto_accept"], false);
}

// Hole 8: a plan still waiting when the core is told to exit is abandoned, not "presented".
TEST(GateE2E, APlanPendingWhenTheCoreExitsIsAbandoned) {
    AgentSession s(Json::array(
        {step({tool("present_plan", {{"title", "Left waiting"}, {"plan", "1. x\n"}})})}));
    ASSERT_EQ(s.request("agent.mode.set", {{"mode", "plan"}})["ok"], true);
    s.send("plan");
    std::string path = s.wait("agent.propose")["path"];
    ::kill(s.core().pid(), SIGTERM);
    ASSERT_TRUE(s.core().wait_exit().has_value());
    EXPECT_NE(read_bytes(s.project() / path).find("status: abandoned"), std::string::npos);
}

// Hole 8, the last item: an empty .rio/plan.md silently removed the plan layer.
TEST(GateE2E, AnEmptyPlanOverrideKeepsTheShippedPlanLayerAndSaysSo) {
    AgentSession s(Json::array());
    write_bytes(s.project() / ".rio/plan.md", "\n");
    ASSERT_EQ(s.request("agent.mode.set", {{"mode", "plan"}})["ok"], true);
    Json layers = s.request("agent.prompt.list")["result"]["layers"];
    Json plan = layers.back();
    EXPECT_EQ(plan["name"], "plan");
    EXPECT_EQ(plan["origin"], "shipped");
    EXPECT_GT(plan["chars"].get<int>(), 100);
    EXPECT_NE(plan.value("warning", "").find(".rio/plan.md is empty"), std::string::npos)
        << plan.dump();
    std::string composed = s.request("agent.prompt.get")["result"]["composed"];
    EXPECT_NE(composed.find("# Plan mode"), std::string::npos);
}

// Figures. A hostile scripted model in plan mode with auto-accept on: write tools, unknown
// and look-alike names, malformed arguments, path escapes — more than 1,000 calls. Where
// commands run in the read-only sandbox (DESIGN §19), run_command runs there, and its writes
// are refused by the kernel instead (tests/e2e/sandbox_e2e_test.cpp has the battery).
TEST(GateE2E, FigureAHostilePlanModeModelChangesNothingAndStartsNothing) {
    TempDir outside;
    std::string marker = (outside / "ran").string();
    std::vector<Json> hostile;
    for (std::string name :
         {"edit_file", "create_file", "run_command", "write_file", "Edit_File", "edit_file ",
          " create_file", "run_command\n", "shell", "bash", "exec", "mcp__fs__write_file",
          "apply_patch", "present_plan2", "EDIT_FILE", "run-command"}) {
        hostile.push_back(
            tool(name, {{"path", "a.txt"}, {"old_string", "a"}, {"new_string", "b"}}));
        hostile.push_back(tool(name, {{"path", "new.txt"}, {"content", "x"}}));
        hostile.push_back(tool(name, {{"argv", {"touch", marker}}}));
        hostile.push_back(tool(name, {{"argv", {"sh", "-c", "touch " + marker}}, {"cwd", "."}}));
    }
    for (Json bad : {Json("a string"), Json::array({1, 2}), Json(nullptr), Json(42), Json(true),
                     Json{{"path", 7}}, Json{{"path", "../escape.txt"}, {"content", "x"}},
                     Json{{"path", "/tmp/escape.txt"}, {"content", "x"}},
                     Json{{"argv", "touch " + marker}}, Json{{"argv", Json::array()}}})
        for (const char* name : {"edit_file", "create_file", "run_command"})
            hostile.push_back(tool(name, bad));
    Json steps = Json::array();
    std::size_t calls = 0;
    while (calls < 1000) {
        steps.push_back(step(hostile));
        calls += hostile.size();
    }
    steps.push_back(text_step("done"));
    AgentSession s(steps);
    write_bytes(s.project() / "a.txt", "a\n");
    write_bytes(s.config() / "allow", "touch\nsh\n"); // even an allow-listed command
    ASSERT_EQ(s.request("agent.mode.set", {{"mode", "plan"}})["ok"], true);
    ASSERT_EQ(s.request("agent.autoaccept.set", {{"on", true}})["ok"], true);
    const bool sandboxed = s.sandboxed();
    auto before = snapshot(s.project().path());

    std::atomic<bool> watching{true};
    std::set<pid_t> started;
    std::string children = "/proc/" + std::to_string(s.core().pid()) + "/task/" +
                           std::to_string(s.core().pid()) + "/children";
    std::thread watcher([&] {
        while (watching) {
            std::ifstream in(children);
            for (pid_t pid; in >> pid;)
                started.insert(pid);
        }
    });
    s.send("do as you like");
    auto results = results_of_turn(s);
    watching = false;
    watcher.join();
    std::size_t refused = 0, confined = 0;
    for (const Json& r : results) {
        refused += r["ok"] == false;
        confined += r.contains("sandbox") && r["sandbox"]["profile"] == "read-only";
    }
    std::printf("hostile plan-mode model with auto-accept: %zu calls, %zu refused, %zu files "
                "changed, %zu processes started, %zu commands run in the read-only sandbox\n",
                results.size(), refused,
                snapshot(s.project().path()) == before ? std::size_t(0) : std::size_t(1),
                started.size(), confined);
    EXPECT_GE(results.size(), 1000u);
    EXPECT_EQ(refused, results.size());
    EXPECT_EQ(snapshot(s.project().path()), before);
    // Every process plan mode started was a sandboxed run_command; without the sandbox none.
    if (sandboxed)
        EXPECT_LE(started.size(), confined);
    else
        EXPECT_TRUE(started.empty());
    EXPECT_FALSE(fs::exists(marker));
    EXPECT_TRUE(fs::is_empty(outside.path()));
}

// Path escapes through every op and tool that takes a path.
TEST(GateE2E, FigurePathEscapesThroughEveryOpAndToolReachNothingOutside) {
    TempDir outside;
    write_bytes(outside / "secret.txt", "OUTSIDE-SECRET\n");
    const std::vector<std::string> escapes{"../secret.txt",
                                           "sub/../../secret.txt",
                                           "./../secret.txt",
                                           "sub/./../../secret.txt",
                                           (outside / "secret.txt").string(),
                                           "link-out/secret.txt",
                                           "link-out",
                                           "link-file",
                                           "sub/link-up/secret.txt",
                                           "//" + (outside / "secret.txt").string().substr(1),
                                           std::string("a\0b", 3)};
    const std::vector<std::string> new_outside{
        "../new.txt",       "sub/../../new.txt",   (outside / "new.txt").string(),
        "link-out/new.txt", "sub/link-up/new.txt", "link-out/deeper/new.txt"};
    std::vector<Json> tools;
    for (const std::string& p : escapes) {
        tools.push_back(tool("read_file", {{"path", p}}));
        tools.push_back(tool("list_dir", {{"path", p}}));
        tools.push_back(tool("search", {{"pattern", "OUTSIDE-SECRET"}, {"path", p}}));
        tools.push_back(
            tool("edit_file", {{"path", p}, {"old_string", "OUTSIDE"}, {"new_string", "x"}}));
        tools.push_back(tool("run_command", {{"argv", {"true"}}, {"cwd", p}}));
    }
    for (const std::string& p : new_outside)
        tools.push_back(tool("create_file", {{"path", p}, {"content", "x"}}));
    AgentSession s(Json::array({step(tools), text_step("done")}));
    fs::create_directories(s.project() / "sub");
    fs::create_directory_symlink(outside.path(), s.project() / "link-out");
    fs::create_symlink(outside / "secret.txt", s.project() / "link-file");
    fs::create_directory_symlink(outside.path(), s.project() / "sub/link-up");
    ASSERT_EQ(s.request("agent.autoaccept.set", {{"on", true}})["ok"], true);

    std::size_t attempts = 0, escaped = 0;
    auto check = [&](const Json& response, const std::string& what) {
        ++attempts;
        std::string text = response.dump();
        bool leaked = text.find("OUTSIDE-SECRET") != std::string::npos;
        bool ok = response.value("ok", false) &&
                  !(response.contains("result") && response["result"].is_object() &&
                    response["result"].value("exact", false));
        if (leaked || ok) {
            ++escaped;
            ADD_FAILURE() << what << ": " << text.substr(0, 300);
        }
    };
    for (const std::string& p : escapes) {
        for (const char* op : {"fs.list", "fs.read", "buffer.open", "buffer.text", "buffer.save",
                               "buffer.close", "plans.get"})
            check(s.request(op, {{"path", p}}), std::string(op) + " " + p);
        check(s.request("buffer.replace", {{"path", p}, {"text", "x"}}), "buffer.replace " + p);
        check(s.request("diff.lines", {{"a", {{"path", p}}}, {"b", "x"}}), "diff.lines " + p);
    }
    s.send("escape");
    for (const Json& r : results_of_turn(s)) {
        ++attempts;
        bool leaked = r["content"].get<std::string>().find("OUTSIDE-SECRET") != std::string::npos;
        if (r["ok"] == true || leaked) {
            ++escaped;
            ADD_FAILURE() << r.dump().substr(0, 300);
        }
    }
    std::printf("path escapes: %zu attempts through 9 ops and 6 tools, %zu escaped\n", attempts,
                escaped);
    EXPECT_EQ(escaped, 0u);
    EXPECT_EQ(read_bytes(outside / "secret.txt"), "OUTSIDE-SECRET\n");
    std::size_t outside_files = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(outside.path()))
        ++outside_files;
    EXPECT_EQ(outside_files, 1u);
}

// Two clients approving one proposal at the same instant: before, 7 of 200 losers got
// bad_request (the next proposal was pending by then); a loser is always `conflict` now.
TEST(GateE2E, FigureTwoClientsApprovingAtOnceMakeExactlyOneDecision200Times) {
    constexpr int rounds = 200;
    Json steps = Json::array();
    for (int i = 0; i < rounds; i += 2) // two edits per step: the next one waits right behind
        steps.push_back(
            step({tool("create_file", {{"path", "f" + std::to_string(i)}, {"content", "x"}}),
                  tool("create_file", {{"path", "f" + std::to_string(i + 1)}, {"content", "x"}})}));
    steps.push_back(text_step("done"));
    TempDir home, project;
    write_bytes(home / "script.json", Json{{"steps", steps}}.dump());
    std::string socket = (home / "core.sock").string();
    CoreProcess core({"--provider", "script:" + (home / "script.json").string(), "--project",
                      project.path().string(), "--listen", "unix:" + socket},
                     {"XDG_CONFIG_HOME=" + (home / "config").string(),
                      "XDG_STATE_HOME=" + (home / "state").string()});
    core.wait_for_stderr("listening on unix:");
    LineClient a = LineClient::connect_unix(socket), b = LineClient::connect_unix(socket);
    ASSERT_EQ(b.request("session.hello")["ok"], true);
    long turn = a.request("agent.send", {{"text", "make files"}})["result"]["turn"];
    std::map<std::string, int> outcomes;
    for (int i = 0; i < rounds; ++i) {
        Json p = a.next_event("agent.propose", std::chrono::seconds(20))["params"];
        auto approve = [&](const std::string& id) {
            return Json{{"id", id},
                        {"op", "agent.approve"},
                        {"params", {{"turn", turn}, {"id", p["id"]}, {"decision", "approve"}}}}
                       .dump() +
                   "\n";
        };
        std::string ida = "a" + std::to_string(i), idb = "b" + std::to_string(i);
        a.send_raw(approve(ida));
        b.send_raw(approve(idb));
        Json first = a.response_to(ida), second = b.response_to(idb);
        int ok = (first["ok"] == true) + (second["ok"] == true);
        Json loser = first["ok"] == true ? second : first;
        std::string code =
            loser.contains("error") ? loser["error"]["code"].get<std::string>() : "none";
        // Appended, not `+`: GCC 12 at -O2 warns falsely (array-bounds) on that temporary.
        std::string outcome = std::to_string(ok);
        outcome.append(" approved, the other ").append(code);
        ++outcomes[outcome];
        b.drain(0ms);
    }
    a.next_event("agent.done", std::chrono::seconds(20));
    for (const auto& [what, n] : outcomes)
        std::printf("two clients approving at once: %d of %d rounds: %s\n", n, rounds,
                    what.c_str());
    EXPECT_EQ(outcomes["1 approved, the other conflict"], rounds);
    EXPECT_EQ(std::distance(fs::directory_iterator(project.path()), {}), rounds)
        << "every file once";
}

} // namespace
} // namespace rio::test
