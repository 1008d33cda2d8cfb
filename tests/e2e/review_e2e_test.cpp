// Reviewing a turn's edits (DESIGN §14, issue 15): "approve the rest of this turn" is the
// core's, so it holds for every frontend — the turn's later edits apply without asking, its
// commands still wait, and the next turn asks again.
#include "tests/support/agent_session.hpp"
#include "tests/support/script_steps.hpp"

#include <gtest/gtest.h>

namespace rio::test {
namespace {

Json edit(const std::string& path, const std::string& old_s, const std::string& new_s) {
    return tool("edit_file", {{"path", path}, {"old_string", old_s}, {"new_string", new_s}});
}

std::string code_of(const Json& r) {
    return r.at("error").at("code").get<std::string>();
}

Json approve(AgentSession& s, const Json& proposal, Json extra = Json::object()) {
    Json params{{"turn", proposal["turn"]}, {"id", proposal["id"]}, {"decision", "approve"}};
    params.update(extra);
    return s.request("agent.approve", params);
}

std::vector<std::string> applied_paths(const std::vector<Json>& events) {
    std::vector<std::string> paths;
    for (const Json& e : events)
        if (e["event"] == "agent.edit_applied") paths.push_back(e["params"]["path"]);
    return paths;
}

TEST(ReviewE2E, ApprovingTheRestOfATurnAppliesItsEditsButItsCommandsStillWait) {
    AgentSession s(
        Json::array({step({edit("a.txt", "a", "A")}),
                     step({edit("b.txt", "b", "B"), tool("run_command", {{"argv", {"true"}}})}),
                     step({edit("c.txt", "c", "C")}), text_step("done"),
                     step({edit("d.txt", "d", "D")}), text_step("ok")}));
    for (const char* name : {"a", "b", "c", "d"})
        write_bytes(s.project() / (std::string(name) + ".txt"), std::string(name) + "\n");
    ASSERT_EQ(s.request("agent.mode.set", {{"mode", "build"}})["ok"], true);
    long turn = s.send("capitals");
    Json first = s.wait("agent.propose");
    EXPECT_EQ(first["kind"], "edit");
    ASSERT_EQ(approve(s, first, {{"rest_of_turn", true}})["ok"], true);
    Json decided = s.wait("agent.decided");
    EXPECT_EQ(decided["rest_of_turn"], true);

    std::vector<Json> seen = s.client().events_until("agent.propose");
    EXPECT_EQ(applied_paths(seen), (std::vector<std::string>{"a.txt", "b.txt"}))
        << "b.txt's edit is applied without asking";
    Json command = seen.back()["params"];
    EXPECT_EQ(command["kind"], "command") << "a command still waits";
    EXPECT_EQ(read_bytes(s.project() / "b.txt"), "B\n");
    EXPECT_EQ(s.request("agent.status")["result"]["auto_accept"], false)
        << "auto-accept is not turned on";
    ASSERT_EQ(approve(s, command)["ok"], true);
    seen = s.client().events_until("agent.done");
    EXPECT_EQ(applied_paths(seen), std::vector<std::string>{"c.txt"})
        << "edits after the command are still approved";
    EXPECT_EQ(seen.back()["params"]["turn"], turn);

    s.send("one more");
    Json next = s.wait("agent.propose");
    EXPECT_EQ(next["kind"], "edit") << "the next turn asks again";
    EXPECT_EQ(next["path"], "d.txt");
    EXPECT_EQ(read_bytes(s.project() / "d.txt"), "d\n");
}

TEST(ReviewE2E, OnlyApprovingAnEditCanApproveTheRestOfTheTurn) {
    AgentSession s(Json::array({step({tool("run_command", {{"argv", {"true"}}})}),
                                step({edit("a.txt", "a", "A")}), text_step("done")}));
    write_bytes(s.project() / "a.txt", "a\n");
    ASSERT_EQ(s.request("agent.mode.set", {{"mode", "build"}})["ok"], true);
    s.send("go");
    Json command = s.wait("agent.propose");
    Json r = approve(s, command, {{"rest_of_turn", true}});
    EXPECT_EQ(code_of(r), "bad_request") << r.dump();
    EXPECT_EQ(s.request("agent.status")["result"]["pending"]["id"], command["id"])
        << "still pending";
    ASSERT_EQ(approve(s, command)["ok"], true);
    Json edit_proposal = s.wait("agent.propose");
    Json reject{{"turn", edit_proposal["turn"]},
                {"id", edit_proposal["id"]},
                {"decision", "reject"},
                {"rest_of_turn", true}};
    EXPECT_EQ(code_of(s.request("agent.approve", reject)), "bad_request");
    EXPECT_EQ(s.request("agent.status")["result"]["pending"]["id"], edit_proposal["id"]);
}

TEST(ReviewE2E, AStoppedTurnsApprovalDoesNotCarryOver) {
    AgentSession s(Json::array({step({edit("a.txt", "a", "A")}),
                                step({tool("run_command", {{"argv", {"true"}}})}),
                                step({edit("b.txt", "b", "B")}), text_step("ok")}));
    write_bytes(s.project() / "a.txt", "a\n");
    write_bytes(s.project() / "b.txt", "b\n");
    ASSERT_EQ(s.request("agent.mode.set", {{"mode", "build"}})["ok"], true);
    s.send("go");
    ASSERT_EQ(approve(s, s.wait("agent.propose"), {{"rest_of_turn", true}})["ok"], true);
    EXPECT_EQ(s.wait("agent.propose")["kind"], "command");
    ASSERT_EQ(s.request("agent.stop")["ok"], true);
    s.wait("agent.stopped");
    s.send("now b");
    Json next = s.wait("agent.propose");
    EXPECT_EQ(next["path"], "b.txt") << "a new turn asks, whatever the stopped one was allowed";
}

} // namespace
} // namespace rio::test
