// The user's and the project's definitions (issue 48, DESIGN §23): commands' text with the
// arguments put in, the shape a frontend reads as a command, the definition files as read
// (skipped ones said, a project's replacing the user's, nothing read outside the project),
// and a subagent's steps as the trace says them.
#include "client/trace_words.hpp"
#include "client/user_commands.hpp"
#include "core/command_text.hpp"
#include "host/store/definition_files.hpp"
#include "ops/subagents.hpp"
#include "tests/support/temp_dir.hpp"
#include "text/argv_text.hpp"

#include <gtest/gtest.h>

namespace rio {
namespace {

TEST(CommandText, ArgumentsAndWordsArePutInAndNoneAreLost) {
    EXPECT_EQ(expand_command("Shout $1; all: $ARGUMENTS.", "greet.py \"very loud\""),
              "Shout greet.py; all: greet.py \"very loud\".");
    EXPECT_EQ(expand_command("$2 then $1, $3 is gone", "a 'b c'"), "b c then a,  is gone");
    EXPECT_EQ(expand_command("Review the diff.", "focus on tests"),
              "Review the diff.\n\nfocus on tests");
    EXPECT_EQ(expand_command("Review the diff.", ""), "Review the diff.");
    EXPECT_EQ(expand_command("costs $5 and $0", ""), "costs  and $0") << "$1–$9 only";
    EXPECT_EQ(argv_words("  one\ttwo  \"three four\" ''"),
              (std::vector<std::string>{"one", "two", "three four", ""}));
}

TEST(CommandCall, OnlyASlashAndANameAreACommand) {
    auto call = client::command_call("/shout-it greet.py  loud");
    ASSERT_TRUE(call);
    EXPECT_EQ(call->name, "shout-it");
    EXPECT_EQ(call->args, "greet.py  loud");
    EXPECT_EQ(client::command_call("/review:deep")->name, "review:deep");
    EXPECT_EQ(client::command_call("/x")->args, "");
    EXPECT_FALSE(client::command_call("/tmp/x is empty"));
    EXPECT_FALSE(client::command_call("/"));
    EXPECT_FALSE(client::command_call("/ x"));
    EXPECT_FALSE(client::command_call("please /shout"));
    EXPECT_FALSE(client::command_call("/héllo"));
}

TEST(DefinitionFiles, AProjectsReplaceTheUsersAndSkippedFilesAreSaid) {
    test::TempDir home, project;
    UserDirs dirs;
    dirs.config = home.path() / "config/rio";
    test::write_bytes(dirs.config / "commands/one.md", "---\ndescription: mine\n---\nUser's.\n");
    test::write_bytes(dirs.config / "commands/two.md", "Only the user's.\n");
    test::write_bytes(project.path() / ".claude/commands/one.md", "Claude's.\n");
    test::write_bytes(project.path() / ".rio/commands/one.md",
                      "---\nDescription: \"the project's\"\ntools: [a, 'b', c]\n---\n\nRio's.\n");
    test::write_bytes(project.path() / ".rio/commands/blank.md", "---\nmode: plan\n---\n \n");
    test::write_bytes(project.path() / ".rio/commands/bad name.md", "x\n");
    test::write_bytes(home.path() / "key", "sk-secret\n");
    std::filesystem::create_symlink(home.path() / "key", project.path() / ".rio/commands/leak.md");
    DefinitionFiles read = read_definition_files(dirs, project.path(), "commands");
    ASSERT_EQ(read.files.size(), 2u);
    EXPECT_EQ(read.files[0].name, "one");
    EXPECT_EQ(read.files[0].scope, DefinitionScope::project);
    EXPECT_EQ(read.files[0].body, "Rio's.");
    EXPECT_EQ(read.files[0].fields.at("description"), "the project's");
    EXPECT_EQ(definition_list(read.files[0].fields.at("tools")),
              (std::vector<std::string>{"a", "b", "c"}));
    EXPECT_EQ(read.files[1].name, "two");
    EXPECT_EQ(read.files[1].scope, DefinitionScope::user);
    std::string notes;
    for (const std::string& n : read.notes)
        notes += n + "\n";
    EXPECT_NE(notes.find("blank.md: skipped, it has no text below its front matter"),
              std::string::npos)
        << notes;
    EXPECT_NE(notes.find("bad name.md: skipped, its name is not"), std::string::npos) << notes;
    EXPECT_NE(notes.find("leak.md: skipped, it leads outside the project"), std::string::npos)
        << notes;
    EXPECT_EQ(notes.find("sk-secret"), std::string::npos);
}

TEST(SubagentWords, EachStepIsOneLineAndASucceededToolSaysNothingMore) {
    SubagentEvent e{
        1,    "t1", "", "find it", SubagentState::tool, "c1", "search", Json{{"pattern", "Hello"}},
        true, ""};
    EXPECT_EQ(client::subagent_text(e), "search \"Hello\"");
    e.state = SubagentState::result;
    EXPECT_EQ(client::subagent_text(e), "");
    e.ok = false;
    e.text = "edit_file is not available to a subagent\nmore";
    EXPECT_EQ(client::subagent_text(e), "✗ edit_file is not available to a subagent");
    e.state = SubagentState::done;
    e.text = "It is in greet.py.";
    EXPECT_EQ(client::subagent_text(e), "answered: It is in greet.py.");
    e.state = Wire<SubagentState>::named("pondering");
    EXPECT_EQ(client::subagent_text(e), "") << "a newer core's state";
    EXPECT_EQ(client::command_line(
                  CommandInfo{"shout-it", "make it loud", DefinitionScope::project, "FILE", true}),
              "/shout-it FILE  make it loud (project) [plan mode]");
}

TEST(SubagentSettings, OnlyTheUsersFileNamesHowManyAndWhoAndABadValueIsSaid) {
    test::TempDir home;
    UserDirs dirs;
    dirs.config = home.path() / "config/rio";
    EXPECT_EQ(configured_subagents(dirs).at_once, 3u) << "no file: the default";
    test::write_bytes(dirs.settings_file(),
                      R"({"subagents": {"at_once": 2, "provider": "openai", "model": "small"}})");
    SubagentSetting set = configured_subagents(dirs);
    EXPECT_EQ(set.at_once, 2u);
    ASSERT_TRUE(set.model);
    EXPECT_EQ(set.model->provider, "openai");
    EXPECT_EQ(set.model->model, "small");
    EXPECT_EQ(set.warning, "");
    test::write_bytes(dirs.settings_file(), R"({"subagents": {"at_once": 40, "provider": "x"}})");
    set = configured_subagents(dirs);
    EXPECT_EQ(set.at_once, 3u);
    EXPECT_FALSE(set.model);
    EXPECT_NE(set.warning.find("subagents.at_once must be a whole number from 1 to 16, not 40"),
              std::string::npos)
        << set.warning;
    EXPECT_NE(set.warning.find("subagents.provider and subagents.model name who answers"),
              std::string::npos)
        << set.warning;
}

} // namespace
} // namespace rio
