// The small pure rules around the loop: allow-list, edit location, unified diff, prompt
// composition.
#include "core/agent/allow_list.hpp"
#include "core/agent/edit_match.hpp"
#include "core/agent/prompt.hpp"
#include "core/unified_diff.hpp"

#include <gtest/gtest.h>

namespace rio {
namespace {

TEST(AllowList, RulesAreArgvPrefixes) {
    auto rules = parse_allow_rules("# comment\ngit status\n\nmake test   # trailing\n'a b' c\n");
    ASSERT_EQ(rules.size(), 3u);
    EXPECT_EQ(rules[2], (AllowRule{{"a b", "c"}, "."}));
    EXPECT_TRUE(command_allowed(rules, {"git", "status", "--short"}, "."));
    EXPECT_TRUE(command_allowed(rules, {"make", "test"}, ""));
    EXPECT_FALSE(command_allowed(rules, {"make"}, "."));
    EXPECT_FALSE(command_allowed(rules, {"git", "push"}, "."));
    EXPECT_FALSE(command_allowed(rules, {"gitx", "status"}, "."));
    EXPECT_FALSE(command_allowed({}, {"ls"}, "."));
}

// Break A of issue 26: `git status` allowed in the root ran in docs/vendor, where the project
// had planted a repository of its own.
TEST(AllowList, ARuleAppliesInTheRootUnlessItNamesAFolder) {
    auto rules = parse_allow_rules("git status\ncwd=./docs/ make html\ncwd=* make test\n");
    ASSERT_EQ(rules.size(), 3u);
    EXPECT_EQ(rules[1], (AllowRule{{"make", "html"}, "docs"}));
    EXPECT_TRUE(command_allowed(rules, {"git", "status"}, "."));
    EXPECT_FALSE(command_allowed(rules, {"git", "status"}, "docs/vendor"));
    EXPECT_TRUE(command_allowed(rules, {"make", "html"}, "docs"));
    EXPECT_TRUE(command_allowed(rules, {"make", "html"}, "./docs/"));
    EXPECT_FALSE(command_allowed(rules, {"make", "html"}, "."));
    EXPECT_FALSE(command_allowed(rules, {"make", "html"}, "docs/sub"));
    EXPECT_TRUE(command_allowed(rules, {"make", "test"}, "any/where"));
    EXPECT_EQ(rule_text(rules[0]), "`git status`");
    EXPECT_EQ(rule_text(rules[1]), "`make html` in docs");
    EXPECT_EQ(rule_text(rules[2]), "`make test` in any folder");
    EXPECT_EQ(rule_text(parse_allow_rules("'a b' c")[0]), "`'a b' c`");
}

TEST(EditMatch, ExactlyOneOccurrenceIsReplaced) {
    auto edit = locate_edit("int a = 1;\nint b = 2;\n", "b = 2", "b = 3", "x.c");
    ASSERT_TRUE(edit.ok());
    EXPECT_EQ(edit->start, 15u);
    EXPECT_EQ(edit->end, 20u);
    EXPECT_EQ(edit->text, "b = 3");
}

TEST(EditMatch, MissingOrRepeatedTextIsRefusedWithAReason) {
    auto missing = locate_edit("abc", "xyz", "q", "x.c");
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().message,
              "old_string was not found in x.c; read the file again and copy the text exactly");
    auto twice = locate_edit("a a", "a", "b", "x.c");
    ASSERT_FALSE(twice.ok());
    EXPECT_NE(twice.error().message.find("occurs 2 times in x.c"), std::string::npos);
    EXPECT_FALSE(locate_edit("abc", "", "x", "x.c").ok());
}

TEST(EditMatch, CrlfFilesMatchTheModelsLfText) {
    auto edit = locate_edit("one\r\ntwo\r\nthree\r\n", "one\ntwo", "uno\ndos", "w.txt");
    ASSERT_TRUE(edit.ok());
    EXPECT_EQ(edit->start, 0u);
    EXPECT_EQ(edit->end, 8u);
    EXPECT_EQ(edit->text, "uno\r\ndos") << "the file keeps its line endings";
}

// It counted every overlapping match: 17.7 s for `a`×800k in `a`×1.6M. Linear now, so ten
// times that finishes in a blink (and before the fix would have taken half an hour).
TEST(EditMatch, RepetitiveTextIsMatchedInLinearTime) {
    std::string text(16'000'000, 'a');
    auto twice = locate_edit(text, std::string(8'000'000, 'a'), "b", "big.txt");
    ASSERT_FALSE(twice.ok());
    EXPECT_EQ(twice.error().code, ErrorCode::conflict);
    std::string almost(7'999'999, 'a');
    auto missing = locate_edit(text, almost + "b", "c", "big.txt");
    EXPECT_EQ(missing.error().code, ErrorCode::not_found);
    auto once = locate_edit(text + "b", almost + "b", "c", "big.txt");
    ASSERT_TRUE(once.ok());
    EXPECT_EQ(once->start, 8'000'001u);
}

TEST(EditMatch, ACrlfFileGetsCrlfEvenWhenOldStringWasWrittenWithCrlf) {
    auto edit = locate_edit("one\r\ntwo\r\n", "one\r\n", "uno\nand more\n", "w.txt");
    ASSERT_TRUE(edit.ok());
    EXPECT_EQ(edit->text, "uno\r\nand more\r\n");
    auto lf = locate_edit("one\ntwo\n", "one\n", "uno\nx\n", "u.txt");
    EXPECT_EQ(lf->text, "uno\nx\n") << "an LF file stays LF";
}

TEST(UnifiedDiff, ShowsContextAndRanges) {
    std::string before = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
    std::string after = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n";
    EXPECT_EQ(unified_diff(before, after, "n.txt"),
              "--- a/n.txt\n+++ b/n.txt\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n");
    EXPECT_EQ(unified_diff("same\n", "same\n", "n.txt"), "");
    EXPECT_EQ(unified_diff("", "new\n", "n.txt"),
              "--- a/n.txt\n+++ b/n.txt\n@@ -0,0 +1 @@\n+new\n");
}

TEST(Prompt, LayersJoinInOrderSkippingEmptyAndInactive) {
    std::vector<PromptLayer> layers{{"base", "", "shipped", "Base.\n", true, ""},
                                    {"user", "", "", "", true, ""},
                                    {"project", "", "project", "Project rules.", true, ""},
                                    {"plan", "", "shipped", "Plan!", false, ""}};
    EXPECT_EQ(compose_prompt(layers), "Base.\n\nProject rules.");
    layers[3].active = true;
    EXPECT_EQ(compose_prompt(layers), "Base.\n\nProject rules.\n\nPlan!");
}

} // namespace
} // namespace rio
