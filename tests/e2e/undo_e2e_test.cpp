// Every change is reversible (DESIGN §14, issue 15): the real rio-core keeps, per turn, what
// the agent's writes replaced, and agent.undo puts it back — byte for byte, with the file's
// mode — unless a file changed since, when nothing is undone and the conflict names it.
#include "tests/support/agent_session.hpp"
#include "tests/support/replies.hpp"
#include "tests/support/script_steps.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

namespace rio::test {
namespace {

namespace fs = std::filesystem;

Json edit(const std::string& path, const std::string& old_s, const std::string& new_s) {
    return tool("edit_file", {{"path", path}, {"old_string", old_s}, {"new_string", new_s}});
}
Json create(const std::string& path, const std::string& content) {
    return tool("create_file", {{"path", path}, {"content", content}});
}

unsigned mode_of(const fs::path& path) {
    struct stat st {};
    ::stat(path.c_str(), &st);
    return st.st_mode & 07777;
}

// The next fs.changed naming exactly `paths`: the watcher may report the test's own writes
// (and the folders the core made) in between.
Json wait_changed(AgentSession& s, const Json& paths) {
    for (;;) {
        Json changed = s.wait("fs.changed");
        if (changed["paths"] == paths) return changed;
    }
}

// In build mode with auto-accept: each step's edits are applied as the model makes them.
std::unique_ptr<AgentSession> auto_session(const Json& steps) {
    auto s = std::make_unique<AgentSession>(steps);
    EXPECT_EQ(s->request("agent.autoaccept.set", {{"on", true}})["ok"], true);
    return s;
}

// Sends the message and waits for the turn to end; returns its number.
long run_turn(AgentSession& s, const std::string& text) {
    long turn = s.send(text);
    EXPECT_EQ(s.wait("agent.done")["turn"], turn);
    return turn;
}

Json undo(AgentSession& s, long turn, const std::string& path = "") {
    Json params{{"turn", turn}};
    if (!path.empty()) params["path"] = path;
    return s.request("agent.undo", params);
}

// A UTF-8 file with a byte-order mark and CRLF line endings.
const std::string bom_crlf = "\xEF\xBB\xBF"
                             "def greeting(name):\r\n    return f\"Hello, {name}!\"\r\n";

TEST(UndoE2E, UndoRestoresTheBytesEncodingLineEndingsAndMode) {
    auto s = auto_session(Json::array({step({edit("greet.py", "Hello", "Hi")}), text_step("ok")}));
    write_bytes(s->project() / "greet.py", bom_crlf);
    fs::permissions(s->project() / "greet.py", static_cast<fs::perms>(0750));
    long turn = s->send("shorter greeting");
    Json applied = s->wait("agent.edit_applied");
    EXPECT_EQ(applied["turn"], turn);
    EXPECT_EQ(applied["path"], "greet.py");
    EXPECT_EQ(applied["created"], false);
    EXPECT_EQ(applied["added"], 1);
    EXPECT_EQ(applied["removed"], 1);
    EXPECT_FALSE(applied["id"].get<std::string>().empty());
    Json state = s->wait("agent.checkpoints");
    ASSERT_EQ(state["turns"].size(), 1u);
    EXPECT_EQ(state["turns"][0]["turn"], turn);
    EXPECT_EQ(state["turns"][0]["files"],
              Json::parse(R"([{"path": "greet.py", "created": false}])"));
    s->wait("agent.done");
    ASSERT_NE(read_bytes(s->project() / "greet.py"), bom_crlf);
    // Someone changes its mode meanwhile; the bytes are still the agent's.
    fs::permissions(s->project() / "greet.py", static_cast<fs::perms>(0600));

    s->client().drain(std::chrono::milliseconds(0));
    Json r = undo(*s, turn);
    ASSERT_EQ(r["ok"], true) << r.dump();
    EXPECT_EQ(r["result"],
              (Json{{"turn", turn}, {"restored", {"greet.py"}}, {"deleted", Json::array()}}));
    EXPECT_EQ(read_bytes(s->project() / "greet.py"), bom_crlf) << "BOM and CRLF, byte for byte";
    EXPECT_EQ(mode_of(s->project() / "greet.py"), 0750u) << "the mode it had before the turn";
    wait_changed(*s, Json::array({"greet.py"}));
    Json undone = s->wait("agent.undone");
    EXPECT_EQ(undone, r["result"]) << "every client hears of it";
    EXPECT_EQ(s->wait("agent.checkpoints")["turns"], Json::array());
    EXPECT_EQ(s->request("agent.checkpoints")["result"]["turns"], Json::array());
}

TEST(UndoE2E, BytesThatAreNotUtf8ComeBackExactly) {
    // rio edits only UTF-8, so such bytes reach a checkpoint only through an open buffer the
    // agent's edit saved over them.
    auto s = auto_session(Json::array({step({edit("menu.txt", "= 1", "= 2")}), text_step("ok")}));
    write_bytes(s->project() / "menu.txt", "caf\xC3\xA9 = 1\n");
    ASSERT_EQ(s->request("buffer.open", {{"path", "menu.txt"}})["ok"], true);
    const std::string latin1 = "caf\xE9 = 1\n";
    replace_bytes(s->project() / "menu.txt", latin1);
    Json told = s->wait("buffer.changed");
    while (told["reason"] != "disk_changed")
        told = s->wait("buffer.changed");
    long turn = run_turn(*s, "raise the price");
    EXPECT_EQ(read_bytes(s->project() / "menu.txt"), "caf\xC3\xA9 = 2\n");
    Json r = undo(*s, turn);
    ASSERT_EQ(r["ok"], true) << r.dump();
    EXPECT_EQ(read_bytes(s->project() / "menu.txt"), latin1);
    Json after = s->wait("buffer.changed");
    while (after["reason"] != "disk_changed") // the agent's edit and save come first
        after = s->wait("buffer.changed");
    EXPECT_EQ(s->request("buffer.text", {{"path", "menu.txt"}})["result"]["text"],
              "caf\xC3\xA9 = 2\n")
        << "the buffer cannot show those bytes, and keeps its text";
    Json save = s->request("buffer.save", {{"path", "menu.txt"}});
    EXPECT_EQ(code_of(save), "conflict") << "nor overwrite them unasked";
}

TEST(UndoE2E, UndoingACreatedFileDeletesItAndTheFoldersMadeForIt) {
    auto s = auto_session(
        Json::array({step({create("pkg/util/new.py", "a\nb\nc\n")}), text_step("ok")}));
    long turn = s->send("add a module");
    Json applied = s->wait("agent.edit_applied");
    EXPECT_EQ(applied["created"], true);
    EXPECT_EQ(applied["added"], 3);
    EXPECT_EQ(applied["removed"], 0);
    s->wait("agent.done");
    ASSERT_TRUE(fs::exists(s->project() / "pkg/util/new.py"));
    Json r = undo(*s, turn);
    ASSERT_EQ(r["ok"], true) << r.dump();
    EXPECT_EQ(r["result"]["deleted"], Json::array({"pkg/util/new.py"}));
    EXPECT_EQ(r["result"]["restored"], Json::array());
    EXPECT_FALSE(fs::exists(s->project() / "pkg/util/new.py"));
    EXPECT_FALSE(fs::exists(s->project() / "pkg")) << "the folders it made for the file";
    wait_changed(*s, Json::array({"pkg/util/new.py", "pkg/util", "pkg"}));
}

TEST(UndoE2E, UndoOfOnePathLeavesTheTurnsOtherFiles) {
    auto s = auto_session(Json::array(
        {step({edit("a.txt", "one", "ONE"), edit("b.txt", "two", "TWO")}), text_step("ok")}));
    write_bytes(s->project() / "a.txt", "one\n");
    write_bytes(s->project() / "b.txt", "two\n");
    long turn = run_turn(*s, "shout");
    Json r = undo(*s, turn, "a.txt");
    ASSERT_EQ(r["ok"], true) << r.dump();
    EXPECT_EQ(r["result"]["restored"], Json::array({"a.txt"}));
    EXPECT_EQ(read_bytes(s->project() / "a.txt"), "one\n");
    EXPECT_EQ(read_bytes(s->project() / "b.txt"), "TWO\n");
    Json left = s->request("agent.checkpoints")["result"]["turns"];
    ASSERT_EQ(left.size(), 1u);
    EXPECT_EQ(left[0]["files"], Json::parse(R"([{"path": "b.txt", "created": false}])"));
    Json again = undo(*s, turn, "a.txt");
    EXPECT_EQ(code_of(again), "not_found");
    EXPECT_NE(message_of(again).find("no change to a.txt"), std::string::npos) << again.dump();
    ASSERT_EQ(undo(*s, turn)["ok"], true) << "the rest of the turn";
    EXPECT_EQ(read_bytes(s->project() / "b.txt"), "two\n");
}

TEST(UndoE2E, AFileChangedSinceIsAConflictAndNothingIsUndone) {
    auto s = auto_session(Json::array(
        {step({edit("a.txt", "one", "ONE"), edit("b.txt", "two", "TWO")}), text_step("ok")}));
    write_bytes(s->project() / "a.txt", "one\n");
    write_bytes(s->project() / "b.txt", "two\n");
    long turn = run_turn(*s, "shout");
    write_bytes(s->project() / "b.txt", "TWO and mine\n");
    Json r = undo(*s, turn);
    EXPECT_EQ(code_of(r), "conflict");
    EXPECT_NE(message_of(r).find("b.txt changed"), std::string::npos) << message_of(r);
    EXPECT_EQ(message_of(r).find("a.txt"), std::string::npos) << "only the changed file is named";
    EXPECT_EQ(read_bytes(s->project() / "a.txt"), "ONE\n") << "nothing was undone";
    EXPECT_EQ(read_bytes(s->project() / "b.txt"), "TWO and mine\n");
    EXPECT_EQ(s->request("agent.checkpoints")["result"]["turns"][0]["files"].size(), 2u);
    ASSERT_EQ(undo(*s, turn, "a.txt")["ok"], true) << "the unchanged file still can be";
    EXPECT_EQ(read_bytes(s->project() / "a.txt"), "one\n");
    fs::remove(s->project() / "b.txt");
    EXPECT_NE(message_of(undo(*s, turn)).find("b.txt was deleted"), std::string::npos);
}

TEST(UndoE2E, AnOpenBufferFollowsTheUndo) {
    auto s = auto_session(Json::array({step({edit("a.txt", "one", "ONE")}), text_step("ok")}));
    write_bytes(s->project() / "a.txt", "one\ntwo\n");
    ASSERT_EQ(s->request("buffer.open", {{"path", "a.txt"}})["ok"], true);
    long turn = run_turn(*s, "shout");
    EXPECT_EQ(s->request("buffer.text", {{"path", "a.txt"}})["result"]["text"], "ONE\ntwo\n");
    s->client().drain(std::chrono::milliseconds(0));
    ASSERT_EQ(undo(*s, turn)["ok"], true);
    Json edited = s->wait("buffer.changed");
    EXPECT_EQ(edited["reason"], "edited");
    EXPECT_EQ(edited["start"], 0);
    EXPECT_EQ(edited["end"], 3);
    EXPECT_EQ(edited["text"], "one");
    Json saved = s->wait("buffer.changed");
    EXPECT_EQ(saved["reason"], "saved");
    EXPECT_EQ(saved["dirty"], false);
    Json buffer = s->request("buffer.text", {{"path", "a.txt"}})["result"];
    EXPECT_EQ(buffer["text"], "one\ntwo\n");
    EXPECT_EQ(buffer["dirty"], false);
}

TEST(UndoE2E, UnsavedEditsTheAgentsWriteSavedComeBackUnsaved) {
    auto s = auto_session(Json::array({step({edit("a.txt", "one", "ONE")}), text_step("ok")}));
    write_bytes(s->project() / "a.txt", "one\n");
    ASSERT_EQ(s->request("buffer.open", {{"path", "a.txt"}})["ok"], true);
    s->request("buffer.replace", {{"path", "a.txt"}, {"start", 4}, {"end", 4}, {"text", "mine\n"}});
    long turn = run_turn(*s, "shout");
    EXPECT_EQ(read_bytes(s->project() / "a.txt"), "ONE\nmine\n") << "the edit saved them";
    ASSERT_EQ(undo(*s, turn)["ok"], true);
    EXPECT_EQ(read_bytes(s->project() / "a.txt"), "one\n");
    Json buffer = s->request("buffer.text", {{"path", "a.txt"}})["result"];
    EXPECT_EQ(buffer["text"], "one\nmine\n");
    EXPECT_EQ(buffer["dirty"], true);
}

TEST(UndoE2E, UnsavedEditsSinceTheAgentsWriteAreAConflict) {
    auto s = auto_session(Json::array({step({edit("a.txt", "one", "ONE")}), text_step("ok")}));
    write_bytes(s->project() / "a.txt", "one\n");
    ASSERT_EQ(s->request("buffer.open", {{"path", "a.txt"}})["ok"], true);
    long turn = run_turn(*s, "shout");
    s->request("buffer.replace", {{"path", "a.txt"}, {"start", 0}, {"end", 0}, {"text", "# "}});
    Json r = undo(*s, turn);
    EXPECT_EQ(code_of(r), "conflict");
    EXPECT_NE(message_of(r).find("a.txt has unsaved edits"), std::string::npos) << message_of(r);
    EXPECT_EQ(s->request("buffer.text", {{"path", "a.txt"}})["result"]["text"], "# ONE\n");
}

TEST(UndoE2E, TurnsWithNothingToUndoSaySo) {
    auto s = auto_session(Json::array({text_step("just talk")}));
    long turn = run_turn(*s, "hello");
    Json none = undo(*s, turn);
    EXPECT_EQ(code_of(none), "not_found");
    EXPECT_EQ(message_of(none), "turn " + std::to_string(turn) + " changed no files");
    Json unknown = undo(*s, 99);
    EXPECT_EQ(code_of(unknown), "not_found");
    EXPECT_EQ(message_of(unknown), "there is no turn 99 in this conversation (its last is turn " +
                                       std::to_string(turn) + ")");
    Json missing = s->request("agent.undo", Json::object());
    EXPECT_EQ(code_of(missing), "bad_request");
    EXPECT_EQ(message_of(missing), "agent.undo: params.turn is required");
    Json outside = undo(*s, turn, "../elsewhere.txt");
    EXPECT_EQ(code_of(outside), "refused");
}

TEST(UndoE2E, ANewConversationEndsWhatCanBeUndone) {
    auto s = auto_session(Json::array({step({edit("a.txt", "one", "ONE")}), text_step("ok")}));
    write_bytes(s->project() / "a.txt", "one\n");
    long turn = run_turn(*s, "shout");
    s->client().drain(std::chrono::milliseconds(0));
    ASSERT_EQ(s->request("agent.session.new")["ok"], true);
    EXPECT_EQ(s->wait("agent.checkpoints")["turns"], Json::array());
    EXPECT_EQ(code_of(undo(*s, turn)), "not_found");
    EXPECT_EQ(read_bytes(s->project() / "a.txt"), "ONE\n");
}

TEST(UndoE2E, ATurnThatWritesAFileTwiceUndoesToBeforeBoth) {
    auto s = auto_session(Json::array({step({edit("a.txt", "one", "two")}),
                                       step({edit("a.txt", "two", "three")}), text_step("ok")}));
    write_bytes(s->project() / "a.txt", "one\n");
    long turn = run_turn(*s, "count up");
    EXPECT_EQ(read_bytes(s->project() / "a.txt"), "three\n");
    ASSERT_EQ(undo(*s, turn)["ok"], true);
    EXPECT_EQ(read_bytes(s->project() / "a.txt"), "one\n");
}

TEST(UndoE2E, AnEarlierTurnWaitsUntilTheLaterOneOnTheSameFileIsUndone) {
    auto s = auto_session(Json::array({step({edit("a.txt", "one", "two")}), text_step("ok"),
                                       step({edit("a.txt", "two", "three")}), text_step("ok")}));
    write_bytes(s->project() / "a.txt", "one\n");
    long first = run_turn(*s, "up");
    long second = run_turn(*s, "up again");
    EXPECT_EQ(code_of(undo(*s, first)), "conflict") << "turn 2 wrote it since";
    ASSERT_EQ(undo(*s, second)["ok"], true);
    ASSERT_EQ(undo(*s, first)["ok"], true);
    EXPECT_EQ(read_bytes(s->project() / "a.txt"), "one\n");
}

// An edit card shows the change without asking again (its diff, numbered as in the file) and
// Compare asks for the whole texts around it.
TEST(UndoE2E, EditAppliedCarriesItsDiffAndAgentChangeTheWholeTexts) {
    std::string original;
    for (int i = 1; i <= 12; ++i)
        original += "line " + std::to_string(i) + "\n";
    auto s = auto_session(Json::array(
        {step({edit("t.txt", "line 7\n", "LINE 7\nline 7b\n"), create("new.txt", "x\ny\n")}),
         text_step("ok")}));
    write_bytes(s->project() / "t.txt", original);
    long turn = s->send("shout line 7");
    Json edited = s->wait("agent.edit_applied");
    EXPECT_EQ(edited["added"], 2);
    EXPECT_EQ(edited["removed"], 1);
    EXPECT_EQ(edited["diff"], "--- a/t.txt\n+++ b/t.txt\n@@ -4,7 +4,8 @@\n line 4\n line 5\n"
                              " line 6\n-line 7\n+LINE 7\n+line 7b\n line 8\n line 9\n line 10\n")
        << "three lines of context, numbered as in the file";
    Json created = s->wait("agent.edit_applied");
    EXPECT_EQ(created["diff"], "--- a/new.txt\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+x\n+y\n");
    s->wait("agent.done");

    Json change = s->request("agent.change", {{"turn", turn}, {"id", edited["id"]}});
    ASSERT_EQ(change["ok"], true) << change.dump();
    std::string after = original;
    after.replace(after.find("line 7\n"), 7, "LINE 7\nline 7b\n");
    EXPECT_EQ(change["result"], (Json{{"turn", turn},
                                      {"id", edited["id"]},
                                      {"path", "t.txt"},
                                      {"created", false},
                                      {"before", original},
                                      {"after", after}}));
    Json made = s->request("agent.change", {{"turn", turn}, {"id", created["id"]}});
    EXPECT_EQ(made["result"]["created"], true);
    EXPECT_EQ(made["result"]["before"], "");
    EXPECT_EQ(made["result"]["after"], "x\ny\n");

    Json unknown = s->request("agent.change", {{"turn", turn}, {"id", "call_9_9"}});
    EXPECT_EQ(code_of(unknown), "not_found");
    EXPECT_NE(message_of(unknown).find("call_9_9"), std::string::npos) << message_of(unknown);
    // Undone or not, the change stays comparable; a new conversation forgets it.
    ASSERT_EQ(undo(*s, turn)["ok"], true);
    EXPECT_EQ(s->request("agent.change", {{"turn", turn}, {"id", edited["id"]}})["ok"], true);
    ASSERT_EQ(s->request("agent.reset")["ok"], true);
    EXPECT_EQ(code_of(s->request("agent.change", {{"turn", turn}, {"id", edited["id"]}})),
              "not_found");
}

} // namespace
} // namespace rio::test
