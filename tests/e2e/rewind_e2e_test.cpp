// Rewind (issue 48 item 2, DESIGN §23) through the real rio-core: the conversation returns to
// just before a message and the agent's edits after it are put back, shown first; a file a
// command changed is named as one rewind cannot put back; a file the person changed since is
// never overwritten without saying so; the session keeps the rewind across a restart.
#include "tests/support/agent_session.hpp"
#include "tests/support/script_steps.hpp"

#include <csignal>
#include <gtest/gtest.h>

namespace rio::test {
namespace {

namespace fs = std::filesystem;

Json edit(const std::string& path, const std::string& from, const std::string& to) {
    return tool("edit_file", {{"path", path}, {"old_string", from}, {"new_string", to}});
}

std::vector<std::string> texts_of(AgentSession& s) {
    Json history = s.request("agent.history");
    EXPECT_EQ(history["ok"], true) << history.dump();
    std::vector<std::string> out;
    for (const Json& m : history["result"]["messages"])
        out.push_back(m["role"].get<std::string>() + ": " + m["text"].get<std::string>());
    return out;
}

// Waits until the watcher has reported `rel` changed (the core's own fs.changed).
void wait_changed(AgentSession& s, const std::string& rel) {
    for (;;) {
        Json paths = s.wait("fs.changed")["paths"];
        for (const Json& p : paths)
            if (p == rel) return;
    }
}

TEST(RewindE2E, TwoEditedFilesComeBackTheLaterMessagesGoAndTheSessionKeepsIt) {
    AgentSession s(
        Json::array({text_step("ok"),
                     step({edit("greet.py", "Hello", "Hi"),
                           tool("create_file", {{"path", "notes.txt"}, {"content", "n"}})}),
                     text_step("changed"), step({edit("greet.py", "Hi", "Hey")}), text_step("more"),
                     text_step("again, fresh")}));
    write_bytes(s.project() / "greet.py", greet_py);
    s.request("agent.mode.set", {{"mode", "build"}});
    s.request("agent.autoaccept.set", {{"on", true}});
    for (const char* message : {"first", "change it", "more"}) {
        s.send(message);
        s.wait("agent.done");
    }
    ASSERT_NE(read_bytes(s.project() / "greet.py").find("Hey"), std::string::npos);
    Json history = s.request("agent.history")["result"]["messages"];
    EXPECT_EQ(history[0]["turn"], 1);
    EXPECT_EQ(history[2]["turn"], 2);

    Json preview = s.request("agent.rewind", {{"turn", 2}, {"preview", true}})["result"];
    EXPECT_EQ(preview["rewound"], false);
    EXPECT_EQ(preview["text"], "change it");
    EXPECT_EQ(preview["files"], (Json::array({{{"path", "greet.py"}, {"action", "restore"}},
                                              {{"path", "notes.txt"}, {"action", "delete"}}})));
    EXPECT_EQ(preview["kept"], Json::array()) << preview.dump();
    EXPECT_TRUE(fs::exists(s.project() / "notes.txt")) << "a preview changes nothing";

    Json done = s.request("agent.rewind", {{"turn", 2}});
    ASSERT_EQ(done["ok"], true) << done.dump();
    EXPECT_EQ(done["result"]["rewound"], true);
    EXPECT_EQ(s.wait("agent.rewound")["turn"], 2);
    EXPECT_EQ(read_bytes(s.project() / "greet.py"), greet_py);
    EXPECT_FALSE(fs::exists(s.project() / "notes.txt"));
    EXPECT_EQ(texts_of(s), (std::vector<std::string>{"user: first", "assistant: ok"}));
    EXPECT_EQ(s.request("agent.checkpoints")["result"]["turns"], Json::array())
        << "nothing after the rewind is left to undo";

    // The session file holds the rewind: a new core takes up the conversation as it is now.
    const std::string session = s.request("agent.status")["result"]["session"];
    s.restart(Json::array({text_step("after the restart")}), SIGTERM);
    Json resumed = s.request("agent.session.resume", {{"id", session}});
    ASSERT_EQ(resumed["ok"], true) << resumed.dump();
    EXPECT_EQ(texts_of(s), (std::vector<std::string>{"user: first", "assistant: ok"}));
    s.send("go on");
    s.wait("agent.done");
    Json last = s.provider_calls().back()["conversation"];
    ASSERT_EQ(last.size(), 3u) << last.dump();
    EXPECT_EQ(last[2]["text"], "go on");
    Json again = s.request("agent.rewind", {{"turn", 1}, {"preview", true}});
    EXPECT_EQ(again["ok"], true) << "turn 1's message is still one to return to: " << again.dump();
}

TEST(RewindE2E, ACommandsFileIsNamedAndAPersonsChangeIsNeverOverwrittenUnasked) {
    AgentSession s(
        Json::array({step({edit("greet.py", "Hello", "Hi"),
                           tool("run_command",
                                {{"argv", {"sh", "-c", "echo made > made.txt"}}, {"cwd", "run"}})}),
                     text_step("done")}));
    write_bytes(s.project() / "greet.py", greet_py);
    write_bytes(s.project() / "run/.keep", "");
    write_bytes(s.config() / "allow", "cwd=run sh -c\n");
    s.trust_project();
    s.request("agent.mode.set", {{"mode", "build"}});
    s.request("agent.autoaccept.set", {{"on", true}});
    s.send("edit and run");
    s.wait("agent.done");
    ASSERT_TRUE(fs::exists(s.project() / "run/made.txt"));
    wait_changed(s, "run/made.txt");
    write_bytes(s.project() / "greet.py", "the person's own text\n"); // after the agent's edit

    Json preview = s.request("agent.rewind", {{"turn", 1}, {"preview", true}})["result"];
    ASSERT_EQ(preview["files"].size(), 1u) << preview.dump();
    EXPECT_EQ(preview["files"][0]["path"], "greet.py");
    EXPECT_EQ(preview["files"][0]["changed"], "changed");
    ASSERT_EQ(preview["kept"].size(), 1u) << preview.dump();
    EXPECT_EQ(preview["kept"][0]["path"], "run/made.txt");
    EXPECT_NE(preview["kept"][0]["why"].get<std::string>().find("cannot put it back"),
              std::string::npos);

    Json refused = s.request("agent.rewind", {{"turn", 1}});
    EXPECT_EQ(refused["error"]["code"], "conflict") << refused.dump();
    EXPECT_NE(refused["error"]["message"].get<std::string>().find(
                  "nothing was rewound: since the agent wrote them, greet.py changed"),
              std::string::npos)
        << refused.dump();
    EXPECT_EQ(read_bytes(s.project() / "greet.py"), "the person's own text\n");
    EXPECT_EQ(texts_of(s).size(), 4u) << "the conversation is as it was";

    Json only = s.request("agent.rewind", {{"turn", 1}, {"files", false}});
    ASSERT_EQ(only["ok"], true) << only.dump();
    EXPECT_EQ(read_bytes(s.project() / "greet.py"), "the person's own text\n");
    EXPECT_TRUE(texts_of(s).empty());
    EXPECT_EQ(s.request("agent.rewind", {{"turn", 1}})["error"]["code"], "not_found");
    // Rewound to the first message, the session is empty on file too.
    const std::string session = s.request("agent.status")["result"]["session"];
    s.restart(Json::array({text_step("x")}), SIGTERM);
    Json resumed = s.request("agent.session.resume", {{"id", session}});
    ASSERT_EQ(resumed["ok"], true) << resumed.dump();
    EXPECT_TRUE(texts_of(s).empty());
}

TEST(RewindE2E, ARewindWhileAPlanWaitsWithdrawsIt) {
    AgentSession s(Json::array({plan_step()}));
    write_bytes(s.project() / "greet.py", greet_py);
    s.request("agent.mode.set", {{"mode", "plan"}});
    s.send("plan it");
    Json proposal = s.wait("agent.propose");
    Json preview = s.request("agent.rewind", {{"turn", 1}, {"preview", true}})["result"];
    EXPECT_EQ(preview["withdrawn"], true);
    ASSERT_EQ(s.request("agent.rewind", {{"turn", 1}})["ok"], true);
    s.wait("agent.rewound");
    Json status = s.request("agent.status")["result"];
    EXPECT_TRUE(status.value("pending", Json()).is_null()) << status.dump();
    EXPECT_EQ(status["busy"], false);
    Json plan = s.request("plans.get", {{"path", proposal["path"]}})["result"];
    EXPECT_EQ(plan["status"], "abandoned") << plan.dump();
}

} // namespace
} // namespace rio::test
