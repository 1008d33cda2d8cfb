// The wire stays byte for byte what it was (issue 41): sessions with every kind of proposal
// (plan, edit, new file, command, MCP call) and every kind of decision (approve, reject with
// feedback and comments, approve a command with the network) run through a real rio-core, and
// every line it writes about the agent — events and the answers to the requests made here —
// is compared with the lines recorded from the core before proposals became typed
// (tests/e2e/wire/*.jsonl), with folders, times and durations normalised.
//
// RIO_RECORD_WIRE=1 writes those files instead; run it against the core to record with
// RIO_TEST_CORE=path/to/rio-core.
#include "tests/support/agent_session.hpp"
#include "tests/support/script_steps.hpp"

#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <regex>

namespace rio::test {
namespace {

namespace fs = std::filesystem;

const fs::path recorded = fs::path(RIO_SOURCE_DIR) / "tests/e2e/wire";

void replace_all(std::string& text, const std::string& from, const std::string& to) {
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at))
        text.replace(at, from.size(), to), at += to.size();
}

// What differs from run to run and says nothing about the wire's shape: the session's folders,
// times, durations, the session's id, the kernel's Landlock version and what enforces limits.
std::string normalised(std::string line, const AgentSession& s) {
    replace_all(line, s.project().path().string(), "<project>");
    replace_all(line, s.home().path().string(), "<home>");
    static const std::regex time(R"(\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(\.\d+)?Z?)");
    static const std::regex date(R"(\d{4}-\d\d-\d\d|\d{8}-\d{6})"); // a plan file's stamp too
    static const std::regex abi(R"re("abi":\d+)re");                // the kernel's Landlock
    static const std::regex seconds(R"re("(seconds|elapsed_ms|duration_ms)":[0-9.e+-]+)re");
    static const std::regex session(R"re("session":"[^"]+")re");
    // A command's time in words ("exit code 0 · 0.1 s"): a busy machine makes `true` slow.
    static const std::regex took(R"re( · \d+\.\d s\])re");
    // What enforces a command's limits is the machine's (cgroup v1 or v2, or rlimits).
    static const std::regex limits(R"re("limits":\[[^\]]*\])re");
    line = std::regex_replace(line, time, "<time>");
    line = std::regex_replace(line, date, "<date>");
    line = std::regex_replace(line, seconds, "\"$1\":0");
    line = std::regex_replace(line, abi, "\"abi\":0");
    line = std::regex_replace(line, limits, "\"limits\":[]");
    line = std::regex_replace(line, took, " · <s> s]");
    return std::regex_replace(line, session, "\"session\":\"<session>\"");
}

// The agent's own lines: its events, plans.report, and every answer. The watcher's and the
// servers' events come when the kernel and other programs say, so they are not compared.
bool compared(const std::string& line) {
    Json j = Json::parse(line);
    if (!j.contains("event")) return true;
    const std::string event = j["event"];
    return event.rfind("agent.", 0) == 0 || event == "plans.report";
}

// The lines of the session since keep_transcript, up to the answer to a last request: the core
// answers in order, so every line of what came before has been read.
std::vector<std::string> lines_of(AgentSession& s) {
    s.request("agent.status");
    std::vector<std::string> lines;
    for (std::string& line : s.client().transcript())
        if (compared(line)) lines.push_back(normalised(std::move(line), s));
    return lines;
}

void compare_with_recorded(const std::string& name, const std::vector<std::string>& lines) {
    const fs::path file = recorded / (name + ".jsonl");
    if (const char* record = std::getenv("RIO_RECORD_WIRE"); record && *record == '1') {
        fs::create_directories(recorded);
        std::ofstream out(file, std::ios::binary);
        for (const std::string& line : lines)
            out << line << '\n';
        return;
    }
    std::ifstream in(file, std::ios::binary);
    ASSERT_TRUE(in) << file << " is missing: record it with RIO_RECORD_WIRE=1";
    std::vector<std::string> want;
    for (std::string line; std::getline(in, line);)
        want.push_back(line);
    for (std::size_t i = 0; i < std::min(want.size(), lines.size()); ++i)
        ASSERT_EQ(lines[i], want[i]) << "line " << i + 1 << " of " << file;
    EXPECT_EQ(lines.size(), want.size()) << file;
}

Json decide(AgentSession& s, const Json& proposal, const std::string& decision,
            Json extra = Json::object()) {
    Json params{{"turn", proposal["turn"]}, {"id", proposal["id"]}, {"decision", decision}};
    params.update(extra);
    Json r = s.request("agent.approve", params);
    EXPECT_EQ(r["ok"], true) << r.dump();
    return r;
}

TEST(WireReplayE2E, APlanRejectedRevisedApprovedAndCarriedOut) {
    const Json revised = step({tool("present_plan", {{"title", "Greet loudly"},
                                                     {"plan", "1. Add `--shout` to greet.py\n"
                                                              "2. Write notes.txt\n"
                                                              "3. Run it\n"}})});
    AgentSession s(Json::array(
        {plan_step(), revised,
         step({tool("edit_file",
                    {{"path", "greet.py"}, {"old_string", "Hello"}, {"new_string", "HELLO"}})}),
         step({tool("create_file", {{"path", "notes.txt"}, {"content", "loud\n"}})}),
         step({tool("run_command", {{"argv", {"true"}}})}), text_step("Done.")}));
    write_bytes(s.project() / "greet.py", greet_py);
    s.client().keep_transcript();
    s.request("agent.mode.set", {{"mode", "plan"}});
    s.send("Make the greeting loud.");
    Json plan = s.wait("agent.propose");
    decide(s, plan, "reject",
           {{"feedback", "Also write notes."},
            {"comments", {{{"quote", "Test it"}, {"line", 2}, {"text", "How?"}}}}});
    Json again = s.wait("agent.propose");
    decide(s, again, "approve", {{"policy", "review"}});
    Json edit = s.wait("agent.propose");
    s.request("agent.proposal"); // the edit with its whole texts
    decide(s, edit, "approve");
    Json created = s.wait("agent.propose");
    decide(s, created, "reject", {{"feedback", "No notes after all."}});
    Json command = s.wait("agent.propose");
    decide(s, command, "approve", {{"network", true}});
    s.wait("agent.done");
    compare_with_recorded("plan_edit_command", lines_of(s));
}

TEST(WireReplayE2E, AnMcpCallProposedAndApproved) {
    const std::string odd = std::string(RIO_SOURCE_DIR) + "/tests/e2e/mcp_odd_server.py";
    auto s = AgentSession::prepared([&](const AgentSession& a) {
        fs::create_directories(a.config());
        Json server{{"command", "python3"}, {"args", {odd, "ok"}}};
        write_bytes(a.config() / "mcp.json", Json{{"mcpServers", {{"odd", server}}}}.dump());
        return Json::array({step({tool("mcp__odd__probe", {{"what", "x"}})}), text_step("ok")});
    });
    s->trust_project();
    for (Json listed = s->request("mcp.list")["result"];;
         listed = s->client().next_event("mcp.changed", 60s)["params"]) {
        bool ready = false;
        for (const Json& server : listed["servers"])
            ready |= server["name"] == "odd" && server["state"] == "ready";
        if (ready) break;
    }
    s->request("agent.mode.set", {{"mode", "build"}});
    s->client().keep_transcript();
    s->send("Probe it.");
    Json call = s->wait("agent.propose");
    decide(*s, call, "approve");
    s->wait("agent.done");
    compare_with_recorded("mcp_call", lines_of(*s));
}

} // namespace
} // namespace rio::test
