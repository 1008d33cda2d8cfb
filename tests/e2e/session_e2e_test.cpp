// Sessions (DESIGN §14) through the real rio-core with the script provider: every
// conversation saved as it goes, resumed after a restart or a crash, a pending plan proposed
// again, torn files loading their valid prefix, and bad ids refused.
#include "tests/support/agent_session.hpp"
#include "tests/support/script_steps.hpp"

#include <csignal>
#include <gtest/gtest.h>
#include <sys/stat.h>

namespace rio::test {
namespace {

namespace fs = std::filesystem;

Json shout_plan_step() {
    return step(
        {tool("present_plan", {{"title", "Shout"}, {"plan", "1. Add --shout to greet.py\n"}})});
}

fs::path sessions_of(const AgentSession& s) {
    return s.home() / "state/rio/sessions";
}
std::string session_id(AgentSession& s) {
    return s.request("agent.status")["result"]["session"];
}
fs::path file_of(AgentSession& s, const std::string& id) {
    return sessions_of(s) / (id + ".jsonl");
}

std::vector<Json> lines_of(const fs::path& file) {
    std::vector<Json> out;
    std::string bytes = read_bytes(file);
    std::size_t start = 0;
    while (start < bytes.size()) {
        std::size_t end = bytes.find('\n', start);
        EXPECT_NE(end, std::string::npos) << "a torn line in " << file;
        if (end == std::string::npos) break;
        out.push_back(Json::parse(bytes.substr(start, end - start)));
        start = end + 1;
    }
    return out;
}

unsigned permissions(const fs::path& p) {
    struct stat st {};
    ::stat(p.c_str(), &st);
    return st.st_mode & 0777;
}

// Roles alternate from the user, and every tool call is answered by the next entry.
void expect_valid_conversation(const Json& messages) {
    for (std::size_t i = 0; i < messages.size(); ++i) {
        EXPECT_EQ(messages[i]["role"], i % 2 == 0 ? "user" : "assistant") << messages.dump();
        if (!messages[i].contains("calls")) continue;
        ASSERT_LT(i + 1, messages.size()) << "a dangling tool call: " << messages.dump();
        EXPECT_EQ(messages[i]["calls"].size(), messages[i + 1]["results"].size());
    }
}

Json resume(AgentSession& s, const std::string& id) {
    return s.request("agent.session.resume", {{"id", id}});
}

TEST(SessionE2E, AConversationIsSavedAsItGoes_InAPrivateFile) {
    AgentSession s(Json::array({step({tool("list_dir", {{"path", "."}})}), text_step("Done.")}));
    std::string id = session_id(s);
    EXPECT_FALSE(fs::exists(file_of(s, id))) << "no file for a conversation not yet begun";
    s.send("look around\nand tell me");
    s.wait("agent.done");
    std::vector<Json> lines = lines_of(file_of(s, id));
    ASSERT_EQ(lines.size(), 5u) << "header, request, call, results, answer";
    EXPECT_EQ(lines[0]["type"], "session");
    EXPECT_EQ(lines[0]["title"], "look around");
    EXPECT_EQ(lines[0]["project"], s.project().path().string());
    EXPECT_EQ(lines[2]["message"]["calls"][0]["name"], "list_dir");
    EXPECT_EQ(lines[3]["message"]["results"][0]["ok"], true);
    EXPECT_EQ(lines[4]["message"]["text"], "Done.");
    EXPECT_EQ(permissions(file_of(s, id)), 0600u);
    EXPECT_EQ(permissions(sessions_of(s)), 0700u);
}

TEST(SessionE2E, ResumeAfterARestartRestoresTheConversation) {
    AgentSession s(Json::array({step({tool("list_dir", {{"path", "."}})}), text_step("Done.")}));
    s.send("look around");
    s.wait("agent.done");
    std::string id = session_id(s);
    Json before = s.request("agent.history")["result"]["messages"];
    s.restart(Json::array({text_step("Still here.")}), SIGTERM);

    Json listed = s.request("agent.sessions.list")["result"]["sessions"];
    ASSERT_EQ(listed.size(), 1u);
    EXPECT_EQ(listed[0]["id"], id);
    EXPECT_EQ(listed[0]["title"], "look around");
    EXPECT_EQ(listed[0]["turns"], 1);
    EXPECT_EQ(listed[0]["pending"], false);
    EXPECT_NE(session_id(s), id) << "a new core starts a new conversation";

    Json resumed = resume(s, id);
    ASSERT_EQ(resumed["ok"], true) << resumed.dump();
    EXPECT_EQ(resumed["result"]["messages"], 4);
    EXPECT_EQ(session_id(s), id);
    EXPECT_EQ(s.request("agent.history")["result"]["messages"], before);
    long turn = s.send("and now?");
    EXPECT_EQ(turn, 2) << "turns go on counting";
    s.wait("agent.done");
    Json sent = s.provider_calls().back()["conversation"];
    ASSERT_EQ(sent.size(), 5u) << sent.dump();
    expect_valid_conversation(sent);
    EXPECT_EQ(sent[4]["text"], "and now?");
    EXPECT_EQ(lines_of(file_of(s, id)).back()["message"]["text"], "Still here.");
}

void pending_plan_survives(int signal) {
    AgentSession s(Json::array({shout_plan_step()}));
    s.request("agent.mode.set", {{"mode", "plan"}});
    s.send("plan a flag");
    std::string path = s.wait("agent.propose")["path"];
    std::string id = session_id(s);
    s.restart(Json::array({text_step("Implementing.")}), signal);
    if (signal == SIGTERM) {
        EXPECT_NE(read_bytes(s.project() / path).find("status: abandoned"), std::string::npos);
    }
    EXPECT_EQ(s.request("agent.sessions.list")["result"]["sessions"][0]["pending"], true);

    ASSERT_EQ(resume(s, id)["ok"], true);
    Json again = s.wait("agent.propose");
    EXPECT_EQ(again["kind"], "plan");
    EXPECT_EQ(again["path"], path);
    Json status = s.request("agent.status")["result"];
    EXPECT_EQ(status["mode"], "plan");
    EXPECT_EQ(status["pending"]["id"], again["id"]);
    std::string refiled = read_bytes(s.project() / path);
    EXPECT_NE(refiled.find("status: presented"), std::string::npos);
    EXPECT_EQ(refiled.find("decided:"), std::string::npos) << "undecided again: " << refiled;

    ASSERT_EQ(
        s.request("agent.approve",
                  {{"turn", again["turn"]}, {"decision", "approve"}, {"policy", "auto"}})["ok"],
        true);
    s.wait("agent.done");
    EXPECT_NE(read_bytes(s.project() / path).find("status: approved"), std::string::npos);
    Json sent = s.provider_calls().back()["conversation"];
    expect_valid_conversation(sent);
    EXPECT_EQ(sent.back()["results"][0]["ok"], true) << "the model hears the plan approved";
    EXPECT_EQ(s.provider_calls().size(), 2u) << "no second planning call";
}

TEST(SessionE2E, APendingPlanSurvivesARestartAndIsProposedAgain) {
    pending_plan_survives(SIGTERM);
}

TEST(SessionE2E, APendingPlanSurvivesKillMinus9) {
    pending_plan_survives(SIGKILL);
}

// A session file as a crashed core could leave it: a call recorded, its answer not.
void write_session(const fs::path& file, const std::string& id, const std::string& project,
                   const std::string& tail = "") {
    fs::create_directories(file.parent_path());
    std::string t = "\"time\":\"2026-12-01T10:00:00.000Z\"";
    write_bytes(file, "{\"type\":\"session\",\"version\":1,\"id\":\"" + id +
                          "\",\"project\":" + Json(project).dump() + ",\"title\":\"crash\"," + t +
                          ",\"mode\":\"build\",\"auto_accept\":false}\n"
                          "{\"type\":\"message\",\"turn\":1," +
                          t +
                          ",\"message\":{\"role\":\"user\",\"text\":\"read it\"}}\n"
                          "{\"type\":\"message\",\"turn\":1," +
                          t +
                          ",\"message\":{\"role\":\"assistant\",\"text\":\"\",\"calls\":[{\"id\":"
                          "\"c1\",\"name\":\"read_file\",\"input\":{\"path\":\"a.txt\"}}]}}\n" +
                          tail);
}

TEST(SessionE2E, DanglingCallsAreAnsweredAsInterrupted) {
    AgentSession s(Json::array({text_step("ok")}));
    write_session(sessions_of(s) / "crash-1.jsonl", "crash-1", s.project().path().string());
    ASSERT_EQ(resume(s, "crash-1")["ok"], true);
    Json messages = s.request("agent.history")["result"]["messages"];
    ASSERT_EQ(messages.size(), 3u) << messages.dump();
    expect_valid_conversation(messages);
    EXPECT_EQ(messages[2]["results"][0]["ok"], false);
    EXPECT_NE(messages[2]["results"][0]["content"].get<std::string>().find("interrupted"),
              std::string::npos);
    EXPECT_EQ(s.request("agent.status")["result"]["state"], "idle");
}

TEST(SessionE2E, ATornLastLineLoadsTheValidPrefix_AndIsKeptAside) {
    AgentSession s(Json::array({text_step("Answered.")}));
    fs::path file = sessions_of(s) / "torn-1.jsonl";
    std::string torn = "{\"type\":\"message\",\"turn\":2,\"message\":{\"role\":\"us";
    write_session(file, "torn-1", s.project().path().string(), torn);
    Json r = resume(s, "torn-1");
    ASSERT_EQ(r["ok"], true) << r.dump();
    EXPECT_EQ(r["result"]["messages"], 3) << "two entries kept, the dangling call answered";
    std::string warning = r["result"]["warning"];
    EXPECT_NE(warning.find(std::to_string(torn.size()) + " bytes"), std::string::npos) << warning;
    EXPECT_NE(warning.find("incomplete"), std::string::npos) << warning;
    EXPECT_EQ(read_bytes(file.string() + ".dropped"), torn);
    s.send("go on");
    s.wait("agent.done");
    std::vector<Json> lines = lines_of(file); // every line whole again
    EXPECT_EQ(lines.back()["message"]["text"], "Answered.");
}

// DESIGN §18: a compaction line replaces the conversation on resume; one cut short by a crash
// is dropped like any torn line, and the warning says what it was.
TEST(SessionE2E, ACompactionLineIsResumedAndATornOneIsNamed) {
    AgentSession s(Json::array({text_step("Answered.")}));
    std::string t = "\"time\":\"2026-12-01T10:00:01.000Z\"";
    // As the recorder writes it: keys sorted.
    std::string compacted = "{\"approved_plan\":\"1. x\",\"changed_files\":[],\"conversation\":[{"
                            "\"role\":\"user\",\"text\":\"## Summary\\n\\nRead a.txt.\"}]," +
                            t + ",\"turn\":1,\"type\":\"compacted\"}\n";
    fs::path whole = sessions_of(s) / "compact-1.jsonl";
    write_session(whole, "compact-1", s.project().path().string(), compacted);
    Json r = resume(s, "compact-1");
    ASSERT_EQ(r["ok"], true) << r.dump();
    Json messages = s.request("agent.history")["result"]["messages"];
    ASSERT_EQ(messages.size(), 1u) << messages.dump();
    EXPECT_EQ(messages[0]["text"], "## Summary\n\nRead a.txt.");

    fs::path torn = sessions_of(s) / "compact-2.jsonl";
    write_session(torn, "compact-2", s.project().path().string(),
                  compacted.substr(0, compacted.size() / 2));
    r = resume(s, "compact-2");
    ASSERT_EQ(r["ok"], true) << r.dump();
    std::string warning = r["result"]["warning"];
    EXPECT_NE(warning.find("a compaction record"), std::string::npos) << warning;
    EXPECT_EQ(r["result"]["messages"], 3) << "the conversation as it was before it";
}

TEST(SessionE2E, KillMinus9DuringAHundredTurnsLeavesEveryFileLoadable) {
    Json steps = Json::array();
    for (int i = 0; i < 100; ++i)
        steps.push_back(i % 3 == 0 ? step({tool("list_dir", {{"path", "."}})}) : text_step("ok"));
    AgentSession s(steps);
    // Requests pile up unanswered so the kill lands among writes; a new message while a turn
    // runs interrupts it, which also exercises entries that replace the last.
    for (int i = 0; i < 100; ++i)
        s.client().send_raw(Json{{"id", 1000 + i},
                                 {"op", "agent.send"},
                                 {"params", {{"text", "turn " + std::to_string(i)}}}}
                                .dump() +
                            "\n");
    s.wait("agent.delta");
    s.restart(Json::array({text_step("after")}), SIGKILL);
    Json listed = s.request("agent.sessions.list")["result"]["sessions"];
    ASSERT_GE(listed.size(), 1u);
    for (const Json& info : listed) {
        Json r = resume(s, info["id"]);
        ASSERT_EQ(r["ok"], true) << r.dump();
        expect_valid_conversation(s.request("agent.history")["result"]["messages"]);
    }
    for (const auto& entry : fs::directory_iterator(sessions_of(s)))
        if (entry.path().extension() == ".jsonl") lines_of(entry.path());
}

TEST(SessionE2E, ListingIsTheProjectsSessionsNewestFirst_AllListsEveryProject) {
    AgentSession s(Json::array({text_step("one"), text_step("two")}));
    s.send("first conversation");
    s.wait("agent.done");
    std::string first = session_id(s);
    Json fresh = s.request("agent.session.new");
    std::string second = fresh["result"]["id"];
    EXPECT_NE(second, first);
    EXPECT_EQ(session_id(s), second);
    EXPECT_TRUE(s.request("agent.history")["result"]["messages"].empty());
    s.send("second conversation");
    s.wait("agent.done");
    write_session(sessions_of(s) / "elsewhere-1.jsonl", "elsewhere-1", "/somewhere/else");

    Json mine = s.request("agent.sessions.list")["result"]["sessions"];
    ASSERT_EQ(mine.size(), 2u) << mine.dump();
    EXPECT_EQ(mine[0]["id"], second);
    EXPECT_EQ(mine[0]["title"], "second conversation");
    EXPECT_EQ(mine[1]["id"], first);
    Json all = s.request("agent.sessions.list", {{"all", true}})["result"]["sessions"];
    EXPECT_EQ(all.size(), 3u);
}

TEST(SessionE2E, BadIdsAndOtherProjectsSessionsAreRefused_NothingChanges) {
    AgentSession s(Json::array({text_step("kept")}));
    s.send("keep this");
    s.wait("agent.done");
    std::string id = session_id(s);
    write_session(sessions_of(s) / "elsewhere-1.jsonl", "elsewhere-1", "/somewhere/else");
    write_bytes(sessions_of(s) / "garbage-1.jsonl", "not json at all\n");

    Json r = resume(s, "../../etc/passwd");
    EXPECT_EQ(r["error"]["code"], "bad_request");
    EXPECT_NE(r["error"]["message"].get<std::string>().find("not a session id"), std::string::npos);
    r = resume(s, "nosuch-1");
    EXPECT_EQ(r["error"]["code"], "not_found");
    r = resume(s, "elsewhere-1");
    EXPECT_EQ(r["error"]["code"], "conflict");
    EXPECT_NE(r["error"]["message"].get<std::string>().find("belongs to /somewhere/else"),
              std::string::npos);
    r = resume(s, "garbage-1");
    EXPECT_EQ(r["error"]["code"], "bad_request");
    EXPECT_NE(r["error"]["message"].get<std::string>().find("cannot be read"), std::string::npos);
    EXPECT_EQ(session_id(s), id);
    EXPECT_EQ(s.request("agent.history")["result"]["messages"].size(), 2u);
}

TEST(SessionE2E, ASessionThatCannotBeSavedIsSaid_AndTheConversationGoesOn) {
    AgentSession s(Json::array({text_step("still answered")}));
    fs::create_directories(sessions_of(s).parent_path());
    write_bytes(sessions_of(s), "a file where the folder should be");
    s.send("hello");
    s.wait("agent.done");
    Json status = s.request("agent.status")["result"];
    std::string problem = status.value("session_problem", "");
    EXPECT_NE(problem.find("not being saved"), std::string::npos) << status.dump();
    EXPECT_NE(problem.find("sessions"), std::string::npos) << problem;
    EXPECT_EQ(s.request("agent.history")["result"]["messages"].size(), 2u);
}

TEST(SessionE2E, KeysNeverReachASessionFile) {
    const std::string key = "sk-ant-test-0123456789abcdef";
    auto s = AgentSession::with_env(Json::array({text_step("noted")}), [&](const AgentSession&) {
        return std::vector<std::string>{"ANTHROPIC_API_KEY=" + key};
    });
    s->send("my key is " + key);
    s->wait("agent.done");
    std::string file = read_bytes(file_of(*s, session_id(*s)));
    EXPECT_EQ(file.find(key), std::string::npos);
    EXPECT_NE(file.find("[redacted]"), std::string::npos);
}

} // namespace
} // namespace rio::test
