// The user's and the project's commands (issue 48 item 3, DESIGN §23) through the real
// rio-core: commands.list with what was skipped, commands.run expanding the text and forcing
// plan mode when the file says so (never build mode), and an unknown name refused.
#include "tests/support/agent_session.hpp"
#include "tests/support/script_steps.hpp"

#include <gtest/gtest.h>

namespace rio::test {
namespace {

TEST(CommandsE2E, ListedRunExpandedAndOnlyPlanModeCanBeForced) {
    auto s = AgentSession::prepared([](const AgentSession& s) {
        write_bytes(s.project() / ".rio/commands/shout-it.md",
                    "---\ndescription: make it loud\nargument-hint: FILE\nmode: plan\n---\n"
                    "Shout $1 ($ARGUMENTS).\n");
        write_bytes(s.project() / ".rio/commands/ship.md",
                    "---\nmode: build\nmodel: opus\n---\nShip it.\n");
        write_bytes(s.config() / "commands/help.md", "Mine.\n");
        write_bytes(s.config() / "commands/empty.md", "\n");
        return Json::array({text_step("loud"), text_step("shipped")});
    });
    s->request("agent.mode.set", {{"mode", "build"}});
    Json listed = s->request("commands.list")["result"];
    ASSERT_EQ(listed["commands"].size(), 2u) << listed.dump();
    EXPECT_EQ(
        listed["commands"][0],
        (Json{
            {"name", "ship"}, {"description", "Ship it."}, {"scope", "project"}, {"plan", false}}));
    EXPECT_EQ(listed["commands"][1]["name"], "shout-it");
    EXPECT_EQ(listed["commands"][1]["hint"], "FILE");
    EXPECT_EQ(listed["commands"][1]["plan"], true);
    std::string notes = listed["notes"].dump();
    for (const char* said :
         {"help.md: skipped, /help is rio's own command", "empty.md: skipped, it has no text",
          "mode \\\"build\\\" not taken", "model not taken"})
        EXPECT_NE(notes.find(said), std::string::npos) << said << " in " << notes;

    Json ran = s->request("commands.run", {{"name", "shout-it"}, {"args", "greet.py now"}});
    ASSERT_EQ(ran["ok"], true) << ran.dump();
    EXPECT_EQ(s->wait("agent.mode")["mode"], "plan");
    s->wait("agent.done");
    EXPECT_EQ(s->provider_calls()[0]["conversation"][0]["text"], "Shout greet.py (greet.py now).");

    Json shipped = s->request("commands.run", {{"name", "ship"}});
    ASSERT_EQ(shipped["ok"], true) << shipped.dump();
    s->wait("agent.done");
    EXPECT_EQ(s->request("agent.status")["result"]["mode"], "plan") << "never switched to build";

    Json unknown = s->request("commands.run", {{"name", "nosuch"}});
    EXPECT_EQ(unknown["error"]["code"], "not_found");
    EXPECT_EQ(unknown["error"]["message"],
              "there is no command /nosuch; there are: /ship, /shout-it");
    EXPECT_EQ(s->provider_calls().size(), 2u);
}

} // namespace
} // namespace rio::test
