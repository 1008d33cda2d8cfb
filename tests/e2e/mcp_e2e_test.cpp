// MCP servers as rio tools (DESIGN §16, issue 14), against the real
// @modelcontextprotocol/server-filesystem (installed by scripts/install-deps into the build
// tree) and a tiny misbehaving server written here (mcp_odd_server.py). A missing Node or
// package fails these tests; nothing is skipped.
#include "tests/support/agent_session.hpp"
#include "tests/support/script_steps.hpp"

#include <csignal>
#include <fstream>
#include <gtest/gtest.h>

namespace rio::test {
namespace {

namespace fs = std::filesystem;

const std::string fs_server = RIO_MCP_FS_SERVER;
const std::string everything_server = RIO_MCP_EVERYTHING_SERVER;
const std::string odd_server = std::string(RIO_SOURCE_DIR) + "/tests/e2e/mcp_odd_server.py";

Json fs_entry(const fs::path& root, bool plan) {
    Json entry{{"command", RIO_NODE}, {"args", {fs_server, root.string()}}};
    if (plan) entry["rio"] = {{"plan", true}};
    return entry;
}

Json odd_entry(const std::string& mode, const fs::path& marker, Json rio = Json::object()) {
    Json entry{{"command", "python3"}, {"args", {odd_server, mode, marker.string()}}};
    if (!rio.empty()) entry["rio"] = std::move(rio);
    return entry;
}

using ForSession = std::function<Json(const AgentSession&)>;

// A core whose user mcp.json holds `servers`, started after the file is written, with the
// script `steps` (both may name the session's folders), in a project the user trusted: the
// user's stdio servers wait for that (decision 0071).
std::unique_ptr<AgentSession> with_servers(
    const ForSession& servers,
    const ForSession& steps = [](const AgentSession&) { return Json::array(); }) {
    if (!fs::exists(fs_server))
        throw std::runtime_error("the MCP filesystem server is missing: " + fs_server +
                                 " (scripts/install-deps BUILD/node installs it)");
    auto s = AgentSession::prepared([&](const AgentSession& s) {
        fs::create_directories(s.config());
        write_bytes(s.config() / "mcp.json", Json{{"mcpServers", servers(s)}}.dump(2));
        return steps(s);
    });
    s->trust_project();
    return s;
}

// Servers are other programs (Node, Python) starting beside the sanitizer build's heaviest
// tests: the waits are generous.
constexpr std::chrono::seconds patience{60};

Json wait_long(AgentSession& s, std::string_view event) {
    return s.client().next_event(event, patience)["params"];
}

// mcp.changed until `server` is in `state`; returns that server's entry. The list's answer is
// newer than every mcp.changed read before it (the core writes in order), and those could
// still show a failure a restart since ended: they are dropped.
Json wait_for_server(AgentSession& s, const std::string& server, const std::string& state) {
    Json listed = s.request("mcp.list")["result"];
    s.client().forget_events("mcp.changed");
    for (;;) {
        for (const Json& entry : listed["servers"]) {
            if (entry["name"] != server) continue;
            if (entry["state"] == state) return entry;
            if (entry["state"] == "failed" && state == "ready")
                throw std::runtime_error(server + " failed: " + entry.dump());
        }
        listed = wait_long(s, "mcp.changed");
    }
}

std::vector<std::string> tool_names(const Json& entry) {
    std::vector<std::string> names;
    for (const Json& tool : entry["tools"])
        names.push_back(tool["name"]);
    return names;
}

std::vector<std::string> offered(AgentSession& s) {
    std::vector<std::string> names;
    Json tools = s.request("agent.tools")["result"]["tools"];
    for (const Json& tool : tools)
        names.push_back(tool["name"]);
    return names;
}

bool has(const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

std::vector<Json> tool_results(AgentSession& s) {
    std::vector<Json> results;
    for (const Json& e : s.client().events_until("agent.done", patience))
        if (e["event"] == "agent.tool_result") results.push_back(e["params"]);
    return results;
}

// The processes whose command line holds `needle`: "the process table".
std::vector<pid_t> processes_with(const std::string& needle) {
    std::vector<pid_t> found;
    for (const auto& entry : fs::directory_iterator("/proc")) {
        std::string name = entry.path().filename();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream in(entry.path() / "cmdline");
        std::string cmdline((std::istreambuf_iterator<char>(in)), {});
        if (cmdline.find(needle) != std::string::npos) found.push_back(std::stoi(name));
    }
    return found;
}

Json read_text(const fs::path& path) {
    return tool("mcp__fs__read_text_file", {{"path", path.string()}});
}
Json write_text(const fs::path& path, const std::string& content) {
    return tool("mcp__fs__write_file", {{"path", path.string()}, {"content", content}});
}

TEST(McpE2E, PlanModeOffersOnlyTheReadOnlyToolsOfAServerAdmittedInPlan) {
    auto s = with_servers(
        [](const AgentSession& a) {
            return Json{{"fs", fs_entry(a.project().path(), true)}};
        },
        [](const AgentSession& a) {
            return Json::array({step({read_text(a.project() / "a.txt"),
                                      write_text(a.project() / "a.txt", "pwned")}),
                                text_step("read it")});
        });
    write_bytes(s->project() / "a.txt", "hello from the project\n");
    Json entry = wait_for_server(*s, "fs", "ready");
    EXPECT_TRUE(has(tool_names(entry), "mcp__fs__write_file")) << entry.dump();
    ASSERT_EQ(s->request("agent.mode.set", {{"mode", "plan"}})["ok"], true);

    std::vector<std::string> names = offered(*s);
    for (const char* read : {"mcp__fs__read_text_file", "mcp__fs__list_directory",
                             "mcp__fs__search_files", "mcp__fs__get_file_info"})
        EXPECT_TRUE(has(names, read)) << read << " in " << Json(names).dump();
    for (const char* write : {"mcp__fs__write_file", "mcp__fs__edit_file", "mcp__fs__move_file",
                              "mcp__fs__create_directory"})
        EXPECT_FALSE(has(names, write)) << write;

    s->send("look around");
    std::vector<Json> results = tool_results(*s);
    ASSERT_EQ(results.size(), 2u);
    EXPECT_EQ(results[0]["ok"], true) << results[0].dump();
    EXPECT_NE(results[0]["content"].get<std::string>().find("hello from the project"),
              std::string::npos);
    EXPECT_EQ(results[1]["ok"], false);
    EXPECT_EQ(read_bytes(s->project() / "a.txt"), "hello from the project\n");
    // Decision 0053: listed in every request, so the prefix stays; the gate refused its
    // call above.
    EXPECT_TRUE(has(s->tools_of_call(0), "mcp__fs__write_file"));
    EXPECT_TRUE(has(s->tools_of_call(0), "mcp__fs__read_text_file"));
}

TEST(McpE2E, PlanModeOffersNoMcpToolWithoutPlanTrue) {
    auto s = with_servers(
        [](const AgentSession& a) {
            return Json{{"fs", fs_entry(a.project().path(), false)}};
        },
        [](const AgentSession& a) {
            return Json::array({step({read_text(a.project() / "a.txt")}), text_step("ok")});
        });
    write_bytes(s->project() / "a.txt", "secret\n");
    Json entry = wait_for_server(*s, "fs", "ready");
    for (const Json& tool : entry["tools"])
        EXPECT_EQ(tool["kind"], "mcp") << tool.dump();
    ASSERT_EQ(s->request("agent.mode.set", {{"mode", "plan"}})["ok"], true);
    for (const std::string& name : offered(*s))
        EXPECT_NE(name.rfind("mcp__", 0), 0u) << name;
    s->send("read it");
    std::vector<Json> results = tool_results(*s);
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(results[0]["ok"], false);
    EXPECT_EQ(results[0]["content"].get<std::string>().find("secret"), std::string::npos);
}

TEST(McpE2E, BuildModeProposesAWriteAndAppliesItOnlyWhenApproved) {
    auto s = with_servers(
        [](const AgentSession& a) {
            return Json{{"fs", fs_entry(a.project().path(), true)}};
        },
        [](const AgentSession& a) {
            fs::path file = a.project() / "a.txt";
            return Json::array({step({write_text(file, "approved\n")}), text_step("written"),
                                step({write_text(file, "rejected\n")}), text_step("not written")});
        });
    fs::path file = s->project() / "a.txt";
    write_bytes(file, "before\n");
    wait_for_server(*s, "fs", "ready");

    long turn = s->send("write it");
    Json proposal = wait_long(*s, "agent.propose");
    EXPECT_EQ(proposal["kind"], "mcp");
    EXPECT_EQ(proposal["server"], "fs");
    EXPECT_EQ(proposal["tool"], "write_file");
    EXPECT_EQ(proposal["arguments"]["content"], "approved\n");
    EXPECT_EQ(proposal["allowed"], false);
    EXPECT_EQ(read_bytes(file), "before\n");
    Json approved = s->request("agent.approve", {{"turn", turn}, {"decision", "approve"}});
    ASSERT_EQ(approved["ok"], true) << approved.dump();
    std::vector<Json> results = tool_results(*s);
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(results[0]["ok"], true) << results[0].dump();
    EXPECT_EQ(read_bytes(file), "approved\n");

    turn = s->send("write again");
    wait_long(*s, "agent.propose");
    ASSERT_EQ(s->request("agent.approve", {{"turn", turn}, {"decision", "reject"}})["ok"], true);
    results = tool_results(*s);
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(results[0]["ok"], false);
    EXPECT_NE(results[0]["content"].get<std::string>().find("declined"), std::string::npos);
    EXPECT_EQ(read_bytes(file), "approved\n");
}

TEST(McpE2E, AnAllowRuleNamingTheToolLetsItRunUnasked) {
    auto s = with_servers(
        [](const AgentSession& a) {
            write_bytes(a.config() / "allow", "mcp__fs__write_file\n");
            return Json{{"fs", fs_entry(a.project().path(), false)}};
        },
        [](const AgentSession& a) {
            return Json::array(
                {step({write_text(a.project() / "a.txt", "allowed\n")}), text_step("done")});
        });
    fs::path file = s->project() / "a.txt";
    wait_for_server(*s, "fs", "ready");
    s->trust_project(); // allow rules apply in trusted projects only (issue 26)
    s->send("write it");
    std::vector<Json> events = s->client().events_until("agent.done", patience);
    for (const Json& e : events)
        EXPECT_NE(e["event"], "agent.propose") << e.dump();
    EXPECT_EQ(read_bytes(file), "allowed\n");
}

TEST(McpE2E, AnUntrustedProjectsServerStartsOnlyOnceTrusted) {
    TempDir marker;
    auto s = with_servers([](const AgentSession&) { return Json::object(); });
    write_bytes(s->project() / ".mcp.json",
                Json{{"mcpServers", {{"proj", odd_entry("ok", marker.path())}}}}.dump());
    // The project was open before the file existed: opening it again reads it.
    ASSERT_EQ(s->request("project.close")["ok"], true);
    ASSERT_EQ(s->request("project.open", {{"path", s->project().path()}})["ok"], true);
    Json entry = wait_for_server(*s, "proj", "untrusted");
    EXPECT_NE(entry["error"].get<std::string>().find("not trusted"), std::string::npos);
    s->request("agent.status"); // a round trip: had it been started, it would be by now
    EXPECT_TRUE(processes_with(marker.path().string()).empty());
    EXPECT_FALSE(fs::exists(marker / "pid"));

    s->trust_project();
    entry = wait_for_server(*s, "proj", "ready");
    EXPECT_EQ(tool_names(entry), std::vector<std::string>{"mcp__proj__probe"});
    EXPECT_FALSE(processes_with(marker.path().string()).empty());
}

// Issue 39: the user's own server, started in the project, ran the project's program —
// `python3 -m probe` finds the project's probe.py first. In a project nobody trusted it waits,
// says why, and the trust question names it; trusting the project starts it.
TEST(McpE2E, TheUsersOwnServerWaitsForTrustInAProjectNobodyTrusted) {
    TempDir marker;
    auto s = AgentSession::prepared([&](const AgentSession& a) {
        fs::create_directories(a.config());
        Json entry{{"command", "/usr/bin/python3"}, {"args", {"-m", "probe"}}};
        write_bytes(a.config() / "mcp.json", Json{{"mcpServers", {{"srv", entry}}}}.dump());
        write_bytes(a.project() / "probe.py", "import os, sys\n"
                                              "open(" +
                                                  Json((marker / "ran").string()).dump() +
                                                  ", 'w').write(os.getcwd())\n"
                                                  "os.execv(sys.executable, [sys.executable, " +
                                                  Json(odd_server).dump() + ", 'ok', " +
                                                  Json(marker.path().string()).dump() + "])\n");
        return Json::array();
    });
    Json entry = wait_for_server(*s, "srv", "untrusted");
    EXPECT_EQ(entry["source"], "user");
    EXPECT_NE(entry["error"].get<std::string>().find("starts when you trust this project"),
              std::string::npos)
        << entry.dump();
    EXPECT_EQ(s->request("project.trust.get")["result"]["mcp_servers"], Json::array({"srv"}));
    Json restart = s->request("mcp.restart", {{"name", "srv"}});
    EXPECT_EQ(restart["error"]["code"], "refused") << restart.dump();
    s->request("agent.status"); // a round trip: had it been started, it would be by now
    EXPECT_FALSE(fs::exists(marker / "ran")) << "the project's probe.py ran untrusted";

    s->trust_project();
    wait_for_server(*s, "srv", "ready");
    EXPECT_TRUE(fs::exists(marker / "ran"));
}

TEST(McpE2E, KillingTheServerMidTurnGivesAnErrorResultAndTheTurnEnds) {
    auto s = with_servers(
        [](const AgentSession& a) {
            return Json{{"fs", fs_entry(a.project().path(), true)}};
        },
        [](const AgentSession& a) {
            return Json::array(
                {step({write_text(a.project() / "a.txt", "after\n")}), text_step("finished")});
        });
    fs::path file = s->project() / "a.txt";
    write_bytes(file, "before\n");
    wait_for_server(*s, "fs", "ready");
    long turn = s->send("write it");
    wait_long(*s, "agent.propose");
    // This session's server only (its argv names this project): other tests' servers may be
    // running beside it under ctest -j.
    std::vector<pid_t> servers =
        processes_with(fs_server + std::string(1, '\0') + s->project().path().string());
    ASSERT_FALSE(servers.empty());
    for (pid_t pid : servers)
        ::kill(pid, SIGKILL);
    Json entry = wait_for_server(*s, "fs", "failed");
    EXPECT_NE(entry["error"].get<std::string>().find("signal 9"), std::string::npos)
        << entry.dump();
    EXPECT_TRUE(entry["tools"].empty());
    ASSERT_EQ(s->request("agent.approve", {{"turn", turn}, {"decision", "approve"}})["ok"], true);
    std::vector<Json> results = tool_results(*s);
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(results[0]["ok"], false);
    EXPECT_NE(results[0]["content"].get<std::string>().find("not running"), std::string::npos);
    EXPECT_EQ(read_bytes(file), "before\n");
    EXPECT_EQ(s->request("agent.status")["result"]["state"], "idle");
}

// What rio says it is as a client (issue 27): roots, and nothing else; roots/list answers the
// open project and follows it to another; a call carries a progressToken and its progress
// reaches the protocol in order, before the result; sampling and elicitation are refused
// with a reason. The odd server reads its input in order, so nothing here races.
TEST(McpE2E, RootsAreTheProjectAndFollowItAndACallsProgressComesBeforeItsResult) {
    TempDir marker, other;
    auto s = with_servers(
        [&](const AgentSession&) {
            return Json{{"odd", odd_entry("client", marker.path(), {{"plan", true}})}};
        },
        [](const AgentSession&) {
            return Json::array({step({tool("mcp__odd__probe", Json::object())}), text_step("one"),
                                step({tool("mcp__odd__probe", Json::object())}), text_step("two")});
        });
    // The user's server runs only in trusted projects (decision 0071): the other one is
    // trusted too (as trust.json keeps it), so the server keeps running across the change
    // below and hears of it.
    Json trusted = Json::parse(read_bytes(s->config() / "trust.json"));
    trusted["projects"][fs::canonical(other.path()).string()] = {{"files", Json::object()}};
    write_bytes(s->config() / "trust.json", trusted.dump());
    wait_for_server(*s, "odd", "ready");
    auto probe = [&](const std::string& text) {
        s->send(text);
        std::vector<Json> progress;
        Json result;
        for (const Json& e : s->client().events_until("agent.done", patience)) {
            if (e["event"] == "agent.tool_progress") {
                EXPECT_TRUE(result.is_null()) << "progress after the result: " << e.dump();
                progress.push_back(e["params"]);
            }
            if (e["event"] == "agent.tool_result") result = e["params"];
        }
        EXPECT_EQ(result["ok"], true) << result.dump();
        EXPECT_EQ(progress.size(), 2u);
        for (std::size_t i = 0; i < progress.size(); ++i) {
            EXPECT_EQ(progress[i]["id"], result["id"]);
            EXPECT_EQ(progress[i]["progress"], static_cast<double>(i + 1));
            EXPECT_EQ(progress[i]["total"], 2.0);
            EXPECT_EQ(progress[i]["message"], "step " + std::to_string(i + 1));
        }
        return Json::parse(result["content"].get<std::string>());
    };
    const std::string root = fs::canonical(s->project().path()).string();
    Json first = probe("probe it");
    EXPECT_EQ(first["capabilities"], (Json{{"roots", {{"listChanged", true}}}}));
    EXPECT_TRUE(first["progress_token"].is_number_integer()) << first.dump();
    ASSERT_EQ(first["roots"]["roots"].size(), 1u) << first.dump();
    EXPECT_EQ(first["roots"]["roots"][0]["uri"], "file://" + root);
    for (const char* refused : {"sampling", "elicitation"}) {
        EXPECT_EQ(first[refused]["code"], -32601) << first.dump();
        EXPECT_NE(first[refused]["message"].get<std::string>().find("rio does not offer"),
                  std::string::npos);
    }
    EXPECT_EQ(first["roots_changed"], 0);

    ASSERT_EQ(s->request("project.open", {{"path", other.path().string()}})["ok"], true);
    Json second = probe("again");
    EXPECT_EQ(second["roots_changed"], 1) << second.dump();
    EXPECT_EQ(second["roots"]["roots"][0]["uri"], "file://" + fs::canonical(other.path()).string());
}

// The real reference server (@modelcontextprotocol/server-everything): with rio declaring
// roots it offers get-roots-list, which names the project; its long operation's progress
// reaches the protocol; and its tool that runs only as a task, which every direct call of
// fails, is not offered to the model.
TEST(McpE2E, TheEverythingServerSeesTheRootsReportsProgressAndKeepsItsTaskOnlyTool) {
    if (!fs::exists(everything_server))
        throw std::runtime_error("the MCP everything server is missing: " + everything_server +
                                 " (scripts/install-deps BUILD/node installs it)");
    auto s = with_servers(
        [](const AgentSession&) {
            return Json{{"all",
                         {{"command", RIO_NODE},
                          {"args", {everything_server, "stdio"}},
                          {"rio", {{"plan", true}}}}}};
        },
        [](const AgentSession&) {
            return Json::array({step({tool("mcp__all__get-roots-list", Json::object()),
                                      tool("mcp__all__trigger-long-running-operation",
                                           {{"duration", 0.2}, {"steps", 2}})}),
                                text_step("done")});
        });
    Json entry = wait_for_server(*s, "all", "ready");
    std::vector<std::string> names = tool_names(entry);
    EXPECT_TRUE(has(names, "mcp__all__get-roots-list")) << Json(names).dump();
    EXPECT_TRUE(has(names, "mcp__all__trigger-long-running-operation"));
    EXPECT_FALSE(has(names, "mcp__all__simulate-research-query"))
        << "a task-only tool is not offered";
    EXPECT_FALSE(has(offered(*s), "mcp__all__simulate-research-query"));
    ASSERT_TRUE(entry.contains("error")) << entry.dump();
    EXPECT_NE(entry["error"].get<std::string>().find("simulate-research-query"), std::string::npos)
        << entry.dump();

    s->send("look");
    std::vector<Json> progress;
    std::vector<Json> results;
    for (const Json& e : s->client().events_until("agent.done", patience)) {
        if (e["event"] == "agent.tool_progress") progress.push_back(e["params"]);
        if (e["event"] == "agent.tool_result") results.push_back(e["params"]);
    }
    ASSERT_EQ(results.size(), 2u);
    EXPECT_EQ(results[0]["ok"], true) << results[0].dump();
    EXPECT_NE(results[0]["content"].get<std::string>().find(
                  "file://" + fs::canonical(s->project().path()).string()),
              std::string::npos)
        << results[0].dump();
    EXPECT_EQ(results[1]["ok"], true) << results[1].dump();
    ASSERT_EQ(progress.size(), 2u);
    EXPECT_EQ(progress[1]["id"], results[1]["id"]);
    EXPECT_EQ(progress[1]["progress"], 2.0);
    EXPECT_EQ(progress[1]["total"], 2.0);
}

// The misbehaving server: each fault is a clear error result, the turn goes on, mcp.list
// says what happened, and the core answers meanwhile.
struct Fault {
    std::string mode;
    std::string in_result; // what the model reads of it
    std::string state;     // of the server afterwards
    std::string in_error;  // what mcp.list says
};

class McpFaults : public ::testing::TestWithParam<Fault> {};

TEST_P(McpFaults, EndTheCallWithAClearErrorAndTheTurnGoesOn) {
    const Fault& fault = GetParam();
    TempDir marker;
    auto s = with_servers(
        [&](const AgentSession&) {
            return Json{
                {"odd", odd_entry(fault.mode, marker.path(), {{"plan", true}, {"timeout_s", 1}})}};
        },
        [](const AgentSession&) {
            return Json::array({step({tool("mcp__odd__probe", {{"text", "x"}}),
                                      tool("list_dir", {{"path", "."}})}),
                                text_step("went on")});
        });
    wait_for_server(*s, "odd", "ready");
    s->send("probe");
    std::vector<Json> events = s->client().events_until("agent.done", patience);
    std::vector<Json> results;
    for (const Json& e : events)
        if (e["event"] == "agent.tool_result") results.push_back(e["params"]);
    ASSERT_EQ(results.size(), 2u);
    EXPECT_EQ(results[0]["ok"], false);
    EXPECT_NE(results[0]["content"].get<std::string>().find(fault.in_result), std::string::npos)
        << results[0]["content"];
    EXPECT_EQ(results[1]["ok"], true); // the next call of the same step still ran
    EXPECT_EQ(events.back()["params"]["stop_reason"], "end_turn");
    Json entry = wait_for_server(*s, "odd", fault.state);
    if (fault.in_error.empty()) {
        EXPECT_FALSE(entry.contains("error")) << entry.dump(); // a tool's own failure
        return;
    }
    ASSERT_TRUE(entry.contains("error")) << entry.dump();
    EXPECT_NE(entry["error"].get<std::string>().find(fault.in_error), std::string::npos)
        << entry.dump();
}

INSTANTIATE_TEST_SUITE_P(
    Misbehaving, McpFaults,
    ::testing::Values(Fault{"hang", "no answer from probe within 1 second", "ready", "timed out"},
                      Fault{"garbage", "malformed JSON-RPC", "failed", "malformed JSON-RPC"},
                      Fault{"crash", "exited with code 3: boom: crashed on purpose", "failed",
                            "exited with code 3"},
                      Fault{"iserror", "failed: the probe broke", "ready", ""}),
    [](const auto& info) { return info.param.mode; });

TEST(McpE2E, AServerThatCannotStartIsFailedWithItsReason) {
    TempDir marker;
    auto s = with_servers([&](const AgentSession&) {
        return Json{{"early", odd_entry("nostart", marker.path())},
                    {"nowhere", {{"command", "no-such-mcp-server-program"}}},
                    {"unset", {{"command", "${RIO_TEST_UNSET_VARIABLE}"}}}};
    });
    Json early = wait_for_server(*s, "early", "failed");
    EXPECT_NE(early["error"].get<std::string>().find(
                  "could not start: it exited with code 2: odd server: refusing to start"),
              std::string::npos)
        << early.dump();
    Json nowhere = wait_for_server(*s, "nowhere", "failed");
    EXPECT_NE(nowhere["error"].get<std::string>().find("no such program"), std::string::npos);
    Json unset = wait_for_server(*s, "unset", "failed");
    EXPECT_NE(unset["error"].get<std::string>().find("${RIO_TEST_UNSET_VARIABLE} is not set"),
              std::string::npos)
        << unset.dump();
}

TEST(McpE2E, ResultsOfOtherKindsAreSummarisedAndAListChangeIsFollowed) {
    TempDir marker;
    auto s = with_servers(
        [&](const AgentSession&) {
            return Json{{"odd", odd_entry("grow", marker.path(), {{"plan", true}})}};
        },
        [](const AgentSession&) {
            return Json::array(
                {step({tool("mcp__odd__probe", {{"text", "hi"}})}), text_step("ok")});
        });
    wait_for_server(*s, "odd", "ready");
    s->send("probe");
    std::vector<Json> results = tool_results(*s);
    ASSERT_EQ(results.size(), 1u);
    std::string content = results[0]["content"];
    EXPECT_NE(content.find("probed: {\"text\": \"hi\"}"), std::string::npos) << content;
    EXPECT_NE(content.find("[image: image/png, 825 bytes]"), std::string::npos) << content;
    EXPECT_NE(content.find("[resource link: file:///x.txt (x.txt)]"), std::string::npos);
    for (;;) {
        Json entry = wait_for_server(*s, "odd", "ready");
        if (has(tool_names(entry), "mcp__odd__grown")) break;
        wait_long(*s, "mcp.changed");
    }
    EXPECT_TRUE(has(offered(*s), "mcp__odd__grown"));
}

// Streamable HTTP against a server made with the real SDK: the session id and protocol
// version it hands out carry every later request, headers expand ${VAR}, and a server that
// refuses the token is failed with its answer.
TEST(McpE2E, AStreamableHttpServerIsUsedWithItsHeaders) {
    CoreProcess server({RIO_MCP_HTTP_SERVER, "sesame"}, {}, RIO_NODE);
    std::string said = server.wait_for_stderr("listening on ");
    std::string url = "http://127.0.0.1:" + said.substr(said.find("listening on ") + 13);
    url = url.substr(0, url.find('\n')) + "/mcp";
    auto s = AgentSession::prepared([&](const AgentSession& a) {
        fs::create_directories(a.config());
        Json servers{
            {"web",
             {{"type", "http"},
              {"url", url},
              {"headers", {{"Authorization", "Bearer ${RIO_TEST_TOKEN:-sesame}"}}},
              {"rio", {{"plan", true}}}}},
            {"locked",
             {{"type", "http"}, {"url", url}, {"headers", {{"Authorization", "Bearer no"}}}}}};
        write_bytes(a.config() / "mcp.json", Json{{"mcpServers", servers}}.dump());
        return Json::array(
            {step({tool("mcp__web__echo", {{"text", "over http"}})}), text_step("heard it")});
    });
    Json web = wait_for_server(*s, "web", "ready");
    EXPECT_EQ(web["tools"], Json::parse(R"([{"kind":"read","name":"mcp__web__echo"}])"));
    Json locked = wait_for_server(*s, "locked", "failed");
    EXPECT_NE(locked["error"].get<std::string>().find("answered HTTP 401: wrong token"),
              std::string::npos)
        << locked.dump();
    ASSERT_EQ(s->request("agent.mode.set", {{"mode", "plan"}})["ok"], true);
    s->send("echo");
    std::vector<Json> results = tool_results(*s);
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(results[0]["ok"], true) << results[0].dump();
    EXPECT_EQ(results[0]["content"], "echo: over http");
}

TEST(McpE2E, RestartStartsAFailedServerAgainAndAnUnknownNameIsNotFound) {
    TempDir marker;
    auto s = with_servers([&](const AgentSession&) {
        return Json{{"odd", odd_entry("crash", marker.path(), {{"plan", true}})}};
    });
    wait_for_server(*s, "odd", "ready");
    std::string first = read_bytes(marker / "pid");
    ::kill(std::stoi(first), SIGKILL);
    wait_for_server(*s, "odd", "failed");
    Json r = s->request("mcp.restart", {{"name", "odd"}});
    ASSERT_EQ(r["ok"], true) << r.dump();
    wait_for_server(*s, "odd", "ready");
    EXPECT_NE(read_bytes(marker / "pid"), first);
    Json unknown = s->request("mcp.restart", {{"name", "nope"}});
    EXPECT_EQ(unknown["error"]["code"], "not_found");
    EXPECT_EQ(unknown["error"]["message"], "no MCP server named 'nope' is configured");
}

} // namespace
} // namespace rio::test
