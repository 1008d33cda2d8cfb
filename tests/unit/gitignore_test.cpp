#include "host/files/gitignore.hpp"
#include "tests/support/temp_dir.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <gtest/gtest.h>
#include <set>
#include <string>
#include <vector>

namespace rio {
namespace {

namespace fs = std::filesystem;

IgnoreRules rules_of(std::string_view text) {
    IgnoreRules rules;
    rules.add(text, "");
    return rules;
}

bool file_ignored(const IgnoreRules& rules, std::string_view rel) {
    return rules.ignored(rel, false);
}
bool dir_ignored(const IgnoreRules& rules, std::string_view rel) {
    return rules.ignored(rel, true);
}

TEST(Gitignore, BlankLinesAndCommentsMatchNothing) {
    auto rules = rules_of("\n# a comment\n   \n#*.txt\n");
    EXPECT_TRUE(rules.patterns.empty());
    EXPECT_FALSE(file_ignored(rules, "# a comment"));
    EXPECT_FALSE(file_ignored(rules, "a.txt"));
}

TEST(Gitignore, EscapedHashAndBangAreLiteral) {
    auto rules = rules_of("\\#notes\n\\!important\n");
    EXPECT_TRUE(file_ignored(rules, "#notes"));
    EXPECT_TRUE(file_ignored(rules, "!important"));
    EXPECT_FALSE(file_ignored(rules, "important"));
}

TEST(Gitignore, TrailingSpacesAreTrimmedUnlessEscaped) {
    auto rules = rules_of("a.txt   \nb\\ \n");
    EXPECT_TRUE(file_ignored(rules, "a.txt"));
    EXPECT_FALSE(file_ignored(rules, "a.txt "));
    EXPECT_TRUE(file_ignored(rules, "b "));
    EXPECT_FALSE(file_ignored(rules, "b"));
}

TEST(Gitignore, CrlfLineEndingsAndABomAreTolerated) {
    auto rules = rules_of("\xEF\xBB\xBF*.o\r\nbuild/\r\n");
    EXPECT_TRUE(file_ignored(rules, "x.o"));
    EXPECT_TRUE(dir_ignored(rules, "build"));
}

TEST(Gitignore, NegationReincludesAFile) {
    auto rules = rules_of("*.log\n!keep.log\n");
    EXPECT_TRUE(file_ignored(rules, "debug.log"));
    EXPECT_TRUE(file_ignored(rules, "sub/debug.log"));
    EXPECT_FALSE(file_ignored(rules, "keep.log"));
    EXPECT_FALSE(file_ignored(rules, "sub/keep.log"));
}

TEST(Gitignore, LaterLinesOverrideEarlierOnes) {
    EXPECT_TRUE(file_ignored(rules_of("!a.txt\na.txt\n"), "a.txt"));
    EXPECT_FALSE(file_ignored(rules_of("a.txt\n!a.txt\n"), "a.txt"));
}

TEST(Gitignore, LeadingSlashAnchorsToTheGitignoreFolder) {
    auto rules = rules_of("/top.txt\n");
    EXPECT_TRUE(file_ignored(rules, "top.txt"));
    EXPECT_FALSE(file_ignored(rules, "sub/top.txt"));
}

TEST(Gitignore, SlashInTheMiddleAnchorsToo) {
    auto rules = rules_of("doc/frotz\n");
    EXPECT_TRUE(dir_ignored(rules, "doc/frotz"));
    EXPECT_TRUE(file_ignored(rules, "doc/frotz/a.txt")); // via its excluded folder
    EXPECT_FALSE(dir_ignored(rules, "a/doc/frotz"));
}

TEST(Gitignore, PatternWithoutSlashMatchesAtAnyDepth) {
    auto rules = rules_of("frotz\n");
    EXPECT_TRUE(file_ignored(rules, "frotz"));
    EXPECT_TRUE(file_ignored(rules, "a/b/frotz"));
    EXPECT_TRUE(dir_ignored(rules, "a/frotz"));
    EXPECT_FALSE(file_ignored(rules, "a/frotz2"));
}

TEST(Gitignore, TrailingSlashMatchesOnlyDirectories) {
    auto rules = rules_of("build/\n");
    EXPECT_TRUE(dir_ignored(rules, "build"));
    EXPECT_TRUE(dir_ignored(rules, "x/build"));
    EXPECT_FALSE(file_ignored(rules, "build"));
    EXPECT_TRUE(file_ignored(rules, "build/out.bin"));
    auto anchored = rules_of("doc/frotz/\n");
    EXPECT_TRUE(dir_ignored(anchored, "doc/frotz"));
    EXPECT_FALSE(file_ignored(anchored, "doc/frotz"));
    EXPECT_FALSE(dir_ignored(anchored, "a/doc/frotz"));
}

TEST(Gitignore, StarAndQuestionMarkDoNotCrossSlashes) {
    auto rules = rules_of("src/*.c\na?c\n");
    EXPECT_TRUE(file_ignored(rules, "src/main.c"));
    EXPECT_FALSE(file_ignored(rules, "src/sub/main.c"));
    EXPECT_TRUE(file_ignored(rules, "abc"));
    EXPECT_TRUE(file_ignored(rules, "deep/abc"));
    EXPECT_FALSE(file_ignored(rules, "ac"));
    EXPECT_FALSE(file_ignored(rules, "a/c"));
    EXPECT_TRUE(file_ignored(rules_of("*.c\n"), "x/y/z.c"));
    EXPECT_TRUE(file_ignored(rules_of("*\n"), "anything"));
}

TEST(Gitignore, CharacterClassesRangesNegationAndNamedSets) {
    auto rules =
        rules_of("[abc]x\n[!0-9]y\n[^z]w\n[[:digit:]]d\n[]]b\n[a-]c\n\\[e\n[unterminated\n");
    EXPECT_TRUE(file_ignored(rules, "ax"));
    EXPECT_TRUE(file_ignored(rules, "cx"));
    EXPECT_FALSE(file_ignored(rules, "dx"));
    EXPECT_TRUE(file_ignored(rules, "ky"));
    EXPECT_FALSE(file_ignored(rules, "5y"));
    EXPECT_TRUE(file_ignored(rules, "aw"));
    EXPECT_FALSE(file_ignored(rules, "zw"));
    EXPECT_TRUE(file_ignored(rules, "7d"));
    EXPECT_FALSE(file_ignored(rules, "xd"));
    EXPECT_TRUE(file_ignored(rules, "]b"));
    EXPECT_TRUE(file_ignored(rules, "-c"));
    EXPECT_TRUE(file_ignored(rules, "ac"));
    EXPECT_TRUE(file_ignored(rules, "[e"));
    EXPECT_TRUE(file_ignored(rules, "[unterminated"));
    // A class never matches the separator, even negated.
    EXPECT_FALSE(file_ignored(rules_of("a[!x]b\n"), "a/b"));
}

TEST(Gitignore, LeadingDoubleStarMatchesInAllDirectories) {
    auto rules = rules_of("**/foo\n**/gen/bar\n");
    EXPECT_TRUE(file_ignored(rules, "foo"));
    EXPECT_TRUE(file_ignored(rules, "a/foo"));
    EXPECT_TRUE(file_ignored(rules, "a/b/foo"));
    EXPECT_TRUE(file_ignored(rules, "gen/bar"));
    EXPECT_TRUE(file_ignored(rules, "x/gen/bar"));
    EXPECT_FALSE(file_ignored(rules, "gen/x/bar"));
}

TEST(Gitignore, TrailingDoubleStarMatchesEverythingInside) {
    auto rules = rules_of("abc/**\n");
    EXPECT_TRUE(file_ignored(rules, "abc/x"));
    EXPECT_TRUE(file_ignored(rules, "abc/x/y/z"));
    EXPECT_FALSE(dir_ignored(rules, "abc"));
    EXPECT_FALSE(file_ignored(rules, "sub/abc/x"));
}

TEST(Gitignore, MiddleDoubleStarMatchesZeroOrMoreDirectories) {
    auto rules = rules_of("a/**/b\n");
    EXPECT_TRUE(file_ignored(rules, "a/b"));
    EXPECT_TRUE(file_ignored(rules, "a/x/b"));
    EXPECT_TRUE(file_ignored(rules, "a/x/y/b"));
    EXPECT_FALSE(file_ignored(rules, "a/xb"));
    EXPECT_FALSE(file_ignored(rules, "z/a/b"));
}

TEST(Gitignore, OtherDoubleStarsAreSingleStars) {
    auto rules = rules_of("foo**bar\n");
    EXPECT_TRUE(file_ignored(rules, "fooxbar"));
    EXPECT_TRUE(file_ignored(rules, "deep/fooxbar"));
    EXPECT_FALSE(file_ignored(rules, "foo/bar"));
    EXPECT_TRUE(file_ignored(rules_of("**.txt\n"), "a/b.txt"));
}

TEST(Gitignore, NestedGitignoreAppliesRelativeToItsFolder) {
    IgnoreRules rules;
    rules.add("/only-here\nsub-*.txt\nlib/gen\n", "sub");
    EXPECT_TRUE(file_ignored(rules, "sub/only-here"));
    EXPECT_FALSE(file_ignored(rules, "only-here"));
    EXPECT_FALSE(file_ignored(rules, "sub/x/only-here"));
    EXPECT_TRUE(file_ignored(rules, "sub/x/sub-1.txt"));
    EXPECT_FALSE(file_ignored(rules, "sub-1.txt"));
    EXPECT_FALSE(file_ignored(rules, "subway/sub-1.txt"));
    EXPECT_TRUE(dir_ignored(rules, "sub/lib/gen"));
    EXPECT_FALSE(dir_ignored(rules, "lib/gen"));
}

TEST(Gitignore, DeeperGitignoreOverridesShallower) {
    IgnoreRules rules;
    rules.add("*.txt\n", "");
    rules.add("!*.txt\n", "sub");
    EXPECT_TRUE(file_ignored(rules, "a.txt"));
    EXPECT_FALSE(file_ignored(rules, "sub/a.txt"));
    EXPECT_FALSE(file_ignored(rules, "sub/x/a.txt"));
    EXPECT_TRUE(file_ignored(rules, "other/a.txt"));
}

TEST(Gitignore, ParentExcludedCannotBeReincluded) {
    auto rules = rules_of("build/\n!build/keep.txt\n");
    EXPECT_TRUE(file_ignored(rules, "build/keep.txt"));
    // The entry on its own is not excluded: it is the folder that hides it.
    EXPECT_FALSE(rules.ignored_entry("build/keep.txt", false));

    IgnoreRules nested = rules_of("build/\n");
    nested.add("!keep.txt\n", "build");
    EXPECT_TRUE(file_ignored(nested, "build/keep.txt"));
}

TEST(Gitignore, ExcludingAFoldersContentsAllowsReinclusion) {
    auto rules = rules_of("/build/*\n!/build/keep.txt\n");
    EXPECT_FALSE(dir_ignored(rules, "build"));
    EXPECT_TRUE(file_ignored(rules, "build/out.o"));
    EXPECT_FALSE(file_ignored(rules, "build/keep.txt"));
}

TEST(Gitignore, DotGitIsAlwaysIgnored) {
    IgnoreRules rules;
    EXPECT_TRUE(dir_ignored(rules, ".git"));
    EXPECT_TRUE(dir_ignored(rules, "vendor/lib/.git"));
    EXPECT_TRUE(file_ignored(rules, ".git/config"));
    EXPECT_FALSE(file_ignored(rules, ".gitignore"));
    EXPECT_FALSE(dir_ignored(rules, ".github"));
}

TEST(Gitignore, AddFileReadsFromDiskAndToleratesAMissingFile) {
    test::TempDir dir;
    test::write_bytes(dir / ".gitignore", "*.tmp\n");
    IgnoreRules rules;
    rules.add_file(dir / ".gitignore", "");
    rules.add_file(dir / "missing/.gitignore", "missing");
    EXPECT_EQ(rules.patterns.size(), 1u);
    EXPECT_TRUE(file_ignored(rules, "a.tmp"));
}

TEST(Glob, MatchingIsLinearOnPathologicalPatterns) {
    Glob glob = compile_glob("*a*a*a*a*a*a*a*a*a*a*a*a*b");
    std::string subject(50'000, 'a');
    auto start = std::chrono::steady_clock::now();
    EXPECT_FALSE(glob_match(glob, subject));
    EXPECT_TRUE(glob_match(glob, subject + "b"));
    Glob dirs = compile_glob("**/a/**/a/**/a/**/a/**/b");
    std::string deep;
    for (int i = 0; i < 5'000; ++i)
        deep += "a/";
    EXPECT_FALSE(glob_match(dirs, deep + "c"));
    EXPECT_TRUE(glob_match(dirs, deep + "b"));
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(Glob, LongPatternsBeyondTheInlineStateBufferStillMatch) {
    std::string pattern, subject;
    for (int i = 0; i < 300; ++i) {
        pattern += "?*";
        subject += "xy";
    }
    EXPECT_TRUE(glob_match(compile_glob(pattern), subject));
    EXPECT_FALSE(glob_match(compile_glob(pattern + "z"), subject));
}

// git itself as the oracle: the files `git ls-files --others --exclude-standard` lists are
// exactly those IgnoreRules keeps.
std::vector<std::string> run_lines(const std::string& command) {
    std::vector<std::string> out;
    FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe) return out;
    std::string current;
    for (int c; (c = std::fgetc(pipe)) != EOF;) {
        if (c == '\0') {
            out.push_back(current);
            current.clear();
        } else {
            current.push_back(static_cast<char>(c));
        }
    }
    ::pclose(pipe);
    return out;
}

TEST(Gitignore, AgreesWithGitOnARichTree) {
    if (std::system("git --version >/dev/null 2>&1") != 0) GTEST_SKIP() << "git not installed";
    test::TempDir dir;
    ASSERT_EQ(std::system(("git -C '" + dir.path().string() + "' init -q").c_str()), 0);
    test::write_bytes(dir / ".git/info/exclude", "from-info\ninfo-reinclude\n!also-ignored\n");
    test::write_bytes(dir / ".gitignore", "# comment\n"
                                          "*.o\n"
                                          "!keep.o\n"
                                          "/build/\n"
                                          "logs/*\n"
                                          "!logs/important.log\n"
                                          "doc/frotz/\n"
                                          "temp?\n"
                                          "[abc]x.txt\n"
                                          "[!q]y.txt\n"
                                          "**/gen/*.h\n"
                                          "a/**/z.txt\n"
                                          "secret/**\n"
                                          "trailing\\ \n"
                                          "\\#hash\n"
                                          "\\!bang\n"
                                          "nest/\n"
                                          "!nest/keep.txt\n"
                                          "vendor/*\n"
                                          "!vendor/lib/\n"
                                          "spaced name   \n"
                                          "!info-reinclude\n"
                                          "also-ignored\n");
    test::write_bytes(dir / "sub/.gitignore", "*.txt\n!important.txt\n/local-only\n");
    test::write_bytes(dir / "sub/deeper/.gitignore", "!*.txt\n");

    const std::vector<std::string> files = {"a.o",
                                            "keep.o",
                                            "x/keep.o",
                                            "x/y.o",
                                            "build/out",
                                            "x/build/out",
                                            "logs/a.log",
                                            "logs/important.log",
                                            "x/logs/a.log",
                                            "doc/frotz/f",
                                            "x/doc/frotz/f",
                                            "temp1",
                                            "temp12",
                                            "ax.txt",
                                            "dx.txt",
                                            "qy.txt",
                                            "zy.txt",
                                            "gen/a.h",
                                            "p/q/gen/b.h",
                                            "gen/x/c.h",
                                            "a/z.txt",
                                            "a/b/c/z.txt",
                                            "b/a/z.txt",
                                            "secret/s",
                                            "secret/deep/s",
                                            "secret2/s",
                                            "trailing ",
                                            "trailing",
                                            "#hash",
                                            "!bang",
                                            "bang",
                                            "nest/keep.txt",
                                            "nest/other",
                                            "vendor/x.c",
                                            "vendor/lib/y.c",
                                            "vendor/lib/z/w.c",
                                            "spaced name",
                                            "spaced",
                                            "from-info",
                                            "x/from-info",
                                            "info-reinclude",
                                            "also-ignored",
                                            "sub/a.txt",
                                            "sub/important.txt",
                                            "sub/local-only",
                                            "sub/x/local-only",
                                            "local-only",
                                            "sub/deeper/b.txt",
                                            "sub/deeper/c.md",
                                            "sub/x/c.txt",
                                            "plain.c",
                                            "x/plain.md"};
    for (const auto& f : files)
        test::write_bytes(dir / f, "x\n");

    std::set<std::string> expected;
    for (auto& line : run_lines("cd '" + dir.path().string() +
                                "' && git -c core.excludesFile=/dev/null ls-files -z --others "
                                "--exclude-standard"))
        if (!line.ends_with(".gitignore")) expected.insert(line);
    ASSERT_FALSE(expected.empty());

    IgnoreRules rules;
    rules.add_file(dir / ".git/info/exclude", "");
    rules.add_file(dir / ".gitignore", "");
    rules.add_file(dir / "sub/.gitignore", "sub");
    rules.add_file(dir / "sub/deeper/.gitignore", "sub/deeper");
    std::set<std::string> kept;
    for (const auto& f : files)
        if (!rules.ignored(f, false)) kept.insert(f);
    EXPECT_EQ(kept, expected);
}

} // namespace
} // namespace rio
