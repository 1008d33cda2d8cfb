// A project is a workspace (issue 46): project.open switches the conversation, its mode, its
// plan and its undo checkpoints to that project's — its latest session resumed, or a new one
// — through the real rio-core, and every client hears it as agent.reset. A turn still running
// is stopped; a plan waiting for a decision stays with its session.
#include "tests/support/agent_session.hpp"
#include "tests/support/script_steps.hpp"

#include <gtest/gtest.h>

namespace rio::test {
namespace {

namespace fs = std::filesystem;

std::string session_id(AgentSession& s) {
    return s.request("agent.status")["result"]["session"];
}

Json open_project(AgentSession& s, const fs::path& root) {
    return s.request("project.open", {{"path", root.string()}});
}

// The last reset a switch sends: leaving a begun conversation sends `agent.reset {}` (while
// the old project is still open), continuing a saved one `{resumed: id}` after it.
Json switched_to(AgentSession& s, const fs::path& root, bool resumes) {
    Json opened = open_project(s, root);
    EXPECT_EQ(opened["ok"], true) << opened.dump();
    for (;;) {
        Json reset = s.wait("agent.reset");
        if (!resumes || reset.contains("resumed")) return reset;
    }
}

Json history(AgentSession& s) {
    return s.request("agent.history")["result"]["messages"];
}

TEST(WorkspaceE2E, EachProjectKeepsItsConversation_AndOpeningItAgainContinuesIt) {
    AgentSession s(Json::array({text_step("in A"), text_step("in B"), text_step("A again")}));
    TempDir other;
    s.send("work on A");
    s.wait("agent.done");
    const std::string a = session_id(s);

    Json reset = switched_to(s, other.path(), false);
    EXPECT_FALSE(reset.contains("resumed")) << "B has no conversation yet: " << reset.dump();
    EXPECT_NE(session_id(s), a);
    EXPECT_TRUE(history(s).empty());
    s.send("work on B");
    s.wait("agent.done");
    const std::string b = session_id(s);

    reset = switched_to(s, s.project().path(), true);
    EXPECT_EQ(reset.value("resumed", ""), a);
    EXPECT_EQ(session_id(s), a);
    Json messages = history(s);
    ASSERT_EQ(messages.size(), 2u) << messages.dump();
    EXPECT_EQ(messages[0]["text"], "work on A");
    EXPECT_EQ(messages[1]["text"], "in A");
    long turn = s.send("more on A");
    EXPECT_EQ(turn, 2) << "A's turns go on counting";
    s.wait("agent.done");

    reset = switched_to(s, other.path(), true);
    EXPECT_EQ(reset.value("resumed", ""), b);
    EXPECT_EQ(history(s).size(), 2u);
    EXPECT_EQ(history(s)[0]["text"], "work on B");
}

TEST(WorkspaceE2E, APendingPlanWaitsInItsSession_AndIsProposedAgainOnComingBack) {
    AgentSession s(Json::array({plan_step("Shout", "1. Add --shout to greet.py\n")}));
    TempDir other;
    s.request("agent.mode.set", {{"mode", "plan"}});
    s.send("plan a flag");
    const std::string path = s.wait("agent.propose")["path"];

    switched_to(s, other.path(), false);
    Json status = s.request("agent.status")["result"];
    EXPECT_TRUE(status["pending"].is_null()) << "B has nothing to decide: " << status.dump();
    EXPECT_EQ(status["busy"], false);

    Json reset = switched_to(s, s.project().path(), true);
    EXPECT_TRUE(reset.contains("resumed"));
    Json again = s.wait("agent.propose");
    EXPECT_EQ(again["kind"], "plan");
    EXPECT_EQ(again["path"], path);
    status = s.request("agent.status")["result"];
    EXPECT_EQ(status["mode"], "plan");
    EXPECT_EQ(status["pending"]["id"], again["id"]);
}

TEST(WorkspaceE2E, ARunningTurnIsStoppedFirst_AndSavedWithItsProject) {
    AgentSession s(Json::array({{{"text", "slow"}, {"delay_ms", 30000}}}));
    TempDir other;
    long turn = s.send("take your time");
    ASSERT_EQ(s.request("agent.status")["result"]["busy"], true);
    const std::string a = session_id(s);

    ASSERT_EQ(open_project(s, other.path())["ok"], true);
    EXPECT_EQ(s.wait("agent.stopped")["turn"], turn);
    s.wait("agent.reset");
    EXPECT_EQ(s.request("agent.status")["result"]["busy"], false);

    Json reset = switched_to(s, s.project().path(), true);
    EXPECT_EQ(reset.value("resumed", ""), a);
    Json messages = history(s);
    ASSERT_FALSE(messages.empty());
    EXPECT_EQ(messages[0]["text"], "take your time");
}

TEST(WorkspaceE2E, UndoComesBackWithItsProject_AndAutoAcceptDoesNotTravel) {
    AgentSession s(Json::array(
        {step({tool("edit_file",
                    {{"path", "greet.py"}, {"old_string", "Hello"}, {"new_string", "Hi"}})}),
         text_step("Done.")}));
    write_bytes(s.project() / "greet.py", greet_py);
    TempDir other;
    ASSERT_EQ(s.request("agent.autoaccept.set", {{"on", true}})["ok"], true);
    long turn = s.send("shorter greeting");
    s.wait("agent.done");
    ASSERT_NE(read_bytes(s.project() / "greet.py").find("Hi"), std::string::npos);

    switched_to(s, other.path(), false);
    EXPECT_TRUE(s.request("agent.checkpoints")["result"]["turns"].empty()) << "B's undo is empty";
    EXPECT_EQ(s.request("agent.status")["result"]["auto_accept"], false)
        << "a grant for A is not one for B";
    EXPECT_EQ(s.request("agent.undo", {{"turn", turn}})["error"]["code"], "not_found");

    switched_to(s, s.project().path(), true);
    Json turns = s.request("agent.checkpoints")["result"]["turns"];
    ASSERT_EQ(turns.size(), 1u) << turns.dump();
    Json undone = s.request("agent.undo", {{"turn", turn}});
    ASSERT_EQ(undone["ok"], true) << undone.dump();
    EXPECT_EQ(read_bytes(s.project() / "greet.py"), greet_py);
}

TEST(WorkspaceE2E, FilesThatAreNotThisProjectsSessionsArePassedOver) {
    AgentSession s(Json::array({text_step("in B")}));
    TempDir other;
    ASSERT_EQ(open_project(s, other.path())["ok"], true); // nothing begun: no reset
    s.send("work on B");
    s.wait("agent.done");
    const std::string b = session_id(s);
    switched_to(s, s.project().path(), false);
    // Newer than B's session: a header claiming B over a body that cannot be replayed, a
    // project that is not a string, and a file that is not JSON.
    const fs::path sessions = s.home() / "state/rio/sessions";
    write_bytes(sessions / "claims-b-1.jsonl",
                Json{{"type", "session"}, {"project", other.path().string()}}.dump() + "\n");
    write_bytes(sessions / "odd-1.jsonl", R"({"type":"session","project":5})"
                                          "\n");
    write_bytes(sessions / "garbage-1.jsonl", "not json at all\n");

    Json reset = switched_to(s, other.path(), true);
    EXPECT_EQ(reset.value("resumed", ""), b);
    EXPECT_EQ(history(s)[0]["text"], "work on B");
}

TEST(WorkspaceE2E, EveryClientFollows) {
    auto s = AgentSession::listening(Json::array({text_step("in A")}));
    TempDir other;
    LineClient watcher = s->connect();
    // A round trip: the core knows this client before anything is said.
    ASSERT_EQ(watcher.request("session.hello", {{"client", "watcher"}})["ok"], true);
    s->send("work on A");
    s->wait("agent.done");
    const std::string a = session_id(*s);

    ASSERT_EQ(open_project(*s, other.path())["ok"], true);
    EXPECT_EQ(watcher.next_event("project.changed")["params"]["root"], other.path().string());
    EXPECT_FALSE(watcher.next_event("agent.reset")["params"].contains("resumed"));
    ASSERT_EQ(open_project(*s, s->project().path())["ok"], true);
    EXPECT_EQ(watcher.next_event("agent.reset")["params"].value("resumed", ""), a);
    EXPECT_EQ(watcher.request("agent.history")["result"]["messages"].size(), 2u);
}

} // namespace
} // namespace rio::test
