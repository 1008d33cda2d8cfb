#include "core/text_format.hpp"
#include "host/files/files.hpp"
#include "host/search/file_list.hpp"
#include "host/search/search.hpp"
#include "tests/support/temp_dir.hpp"

#include <chrono>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

namespace rio {
namespace {

namespace fs = std::filesystem;
using LiveText = std::map<std::string, std::string, std::less<>>;

SearchQuery literal(std::string pattern) {
    SearchQuery q;
    q.pattern = std::move(pattern);
    return q;
}

SearchQuery regex(std::string pattern) {
    SearchQuery q = literal(std::move(pattern));
    q.regex = true;
    return q;
}

// "path:line" of every match, in result order.
std::vector<std::string> where(const SearchResult& r) {
    std::vector<std::string> out;
    for (const auto& m : r.matches)
        out.push_back(m.path + ":" + std::to_string(m.line));
    return out;
}

using Where = std::vector<std::string>;

class Search : public ::testing::Test {
protected:
    void write(std::string_view rel, std::string_view bytes) {
        test::write_bytes(project / rel, bytes);
    }

    SearchResult run(const SearchQuery& q, const LiveText& live = {}) {
        auto r = search_project(root(), q, live);
        EXPECT_TRUE(r.ok()) << r.error().message;
        return r.ok() ? *r : SearchResult{};
    }

    Error fail(const SearchQuery& q) {
        auto r = search_project(root(), q);
        EXPECT_FALSE(r.ok());
        return r.ok() ? Error{ErrorCode::internal, "succeeded"} : r.error();
    }

    const fs::path& root() const { return project.path(); }

    test::TempDir project, outside;
};

TEST_F(Search, LiteralFindsOneMatchPerLineWithOneBasedLineNumbers) {
    write("a.txt", "zero\none foo foo\ntwo\nfoo three\r\n");
    auto r = run(literal("foo"));
    EXPECT_EQ(where(r), (Where{"a.txt:2", "a.txt:4"}));
    ASSERT_EQ(r.matches.size(), 2u);
    EXPECT_EQ(r.matches[0].text, "one foo foo");
    EXPECT_EQ(r.matches[1].text, "foo three") << "the \\r of a CRLF line is not shown";
    EXPECT_EQ(r.files_searched, 1u);
    EXPECT_FALSE(r.truncated);
}

TEST_F(Search, LiteralDoesNotInterpretRegexSyntax) {
    write("a.txt", "abc\na.c\nx(y\n");
    EXPECT_EQ(where(run(literal("a.c"))), (Where{"a.txt:2"}));
    EXPECT_EQ(where(run(literal("x(y"))), (Where{"a.txt:3"}));
}

TEST_F(Search, RegexUsesRe2SyntaxWithLineAnchors) {
    write("a.cpp", "int foo(12);\n  foo(x);\nbar foo\nfoooo(7)\n");
    EXPECT_EQ(where(run(regex(R"(\bfo+\(\d+\))"))), (Where{"a.cpp:1", "a.cpp:4"}));
    EXPECT_EQ(where(run(regex("^foo"))), (Where{"a.cpp:4"}));
    EXPECT_EQ(where(run(regex("foo$"))), (Where{"a.cpp:3"}));
    EXPECT_EQ(where(run(regex("(?i)BAR"))), (Where{"a.cpp:3"}));
    write("b.txt", "foo\nfoo\n xfoo\nfoo");
    EXPECT_EQ(where(run(regex("^foo$"))), (Where{"b.txt:1", "b.txt:2", "b.txt:4"}))
        << "anchors hold after an earlier match, and at the end of an unterminated line";
}

TEST_F(Search, RegexNeverMatchesAcrossLines) {
    write("a.txt", "a\nb\n");
    EXPECT_TRUE(run(regex(R"(a\sb)")).matches.empty());
    EXPECT_TRUE(run(regex(R"(a[^x]b)")).matches.empty());
    EXPECT_TRUE(run(regex(R"(a\nb)")).matches.empty());
}

TEST_F(Search, IgnoreCaseAppliesToLiteralsAndRegexes) {
    write("a.txt", "Hello World\nhello\nÉTÉ\n");
    SearchQuery q = literal("HELLO");
    EXPECT_TRUE(run(q).matches.empty());
    q.ignore_case = true;
    EXPECT_EQ(where(run(q)), (Where{"a.txt:1", "a.txt:2"}));
    q = regex("h.llo w");
    q.ignore_case = true;
    EXPECT_EQ(where(run(q)), (Where{"a.txt:1"}));
    q = literal("été");
    q.ignore_case = true;
    EXPECT_EQ(where(run(q)), (Where{"a.txt:3"})) << "case folding is Unicode-aware";
}

// std::regex recurses per character and overflows the stack on lines like this; RE2 runs in
// linear time even on a pattern that makes backtrackers explode.
TEST_F(Search, Re2HandlesAMegabyteSingleLine) {
    std::string line;
    while (line.size() < 1'000'000)
        line += "ab";
    write("min.js", line + "needle" + line);
    auto start = std::chrono::steady_clock::now();
    auto r = run(regex("b?needle"));
    auto r2 = run(regex("(a|b|ab)*c")); // exponential for a backtracking engine
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
    ASSERT_EQ(r.matches.size(), 1u);
    EXPECT_EQ(r.matches[0].line, 1u);
    EXPECT_NE(r.matches[0].text.find("needle"), std::string::npos);
    EXPECT_LE(r.matches[0].text.size(), 240u + 6u);
    EXPECT_TRUE(r2.matches.empty());
}

// The rule fs.read follows (docs/protocol.md): a NUL byte anywhere makes a file binary.
TEST_F(Search, BinaryFilesAreSkipped) {
    write("bin.dat", std::string("foo\0bar", 7));
    write("late-nul.txt", "foo\n" + std::string(9000, 'x') + std::string(1, '\0'));
    write("text.txt", "foo\n");
    auto r = run(literal("foo"));
    EXPECT_EQ(where(r), (Where{"text.txt:1"})) << "a NUL past the first 8 KiB counts too";
    EXPECT_EQ(r.files_searched, 1u);
    EXPECT_EQ(r.files_skipped, 2u);
}

TEST_F(Search, FilesOverTheSizeLimitAreSkipped) {
    write("small.txt", "foo\n");
    write("huge.txt", "foo\n");
    fs::resize_file(project / "huge.txt", max_file_bytes + 1); // sparse: no disk used
    auto r = run(literal("foo"));
    EXPECT_EQ(where(r), (Where{"small.txt:1"}));
    EXPECT_EQ(r.files_skipped, 1u);
}

TEST_F(Search, GlobWithoutSlashMatchesFileNamesAtAnyDepth) {
    write("b.cpp", "foo\n");
    write("src/a.cpp", "foo\n");
    write("src/a.h", "foo\n");
    SearchQuery q = literal("foo");
    q.globs = {"*.cpp"};
    EXPECT_EQ(where(run(q)), (Where{"b.cpp:1", "src/a.cpp:1"}));
}

TEST_F(Search, GlobWithSlashMatchesTheProjectRelativePath) {
    write("x.h", "foo\n");
    write("src/x.h", "foo\n");
    write("src/deep/er/y.h", "foo\n");
    write("src/deep/y.cpp", "foo\n");
    write("other/src/z.h", "foo\n");
    SearchQuery q = literal("foo");
    q.globs = {"src/**/*.h"};
    EXPECT_EQ(where(run(q)), (Where{"src/deep/er/y.h:1", "src/x.h:1"}));
    q.globs = {"./src/*.h"};
    EXPECT_EQ(where(run(q)), (Where{"src/x.h:1"}));
}

TEST_F(Search, PathScopesTheSearchToAFolderOrAFile) {
    write("top.txt", "foo\n");
    write("src/a.txt", "foo\n");
    write("src/b.txt", "foo\n");
    write("srcx/c.txt", "foo\n");
    SearchQuery q = literal("foo");
    q.path = "src";
    EXPECT_EQ(where(run(q)), (Where{"src/a.txt:1", "src/b.txt:1"}));
    q.path = "src/b.txt";
    EXPECT_EQ(where(run(q)), (Where{"src/b.txt:1"}));
    q.path = (root() / "src").string();
    EXPECT_EQ(where(run(q)), (Where{"src/a.txt:1", "src/b.txt:1"}));
}

TEST_F(Search, APathOutsideTheProjectIsRefused) {
    test::write_bytes(outside / "secret.txt", "foo\n");
    SearchQuery q = literal("foo");
    q.path = "..";
    EXPECT_EQ(fail(q).code, ErrorCode::refused);
    q.path = outside.path().string();
    EXPECT_EQ(fail(q).code, ErrorCode::refused);
    q.path = "/etc";
    EXPECT_EQ(fail(q).message, "path is outside the project: /etc");
}

TEST_F(Search, AMissingPathIsNotFound) {
    SearchQuery q = literal("foo");
    q.path = "nope";
    Error e = fail(q);
    EXPECT_EQ(e.code, ErrorCode::not_found);
    EXPECT_EQ(e.message, "no such file or folder: nope");
}

TEST_F(Search, AnInvalidRegexIsABadRequestWithRe2sMessage) {
    Error e = fail(regex("a(b"));
    EXPECT_EQ(e.code, ErrorCode::bad_request);
    EXPECT_EQ(e.message, "invalid regular expression: missing ): a(b");
    EXPECT_EQ(fail(regex("x{2,1001}")).message,
              "invalid regular expression: invalid repetition size: {2,1001}");
}

TEST_F(Search, AnEmptyPatternOrALineBreakIsABadRequest) {
    EXPECT_EQ(fail(literal("")).code, ErrorCode::bad_request);
    EXPECT_EQ(fail(literal("a\nb")).code, ErrorCode::bad_request);
}

TEST_F(Search, MaxMatchesTruncatesAndSaysSo) {
    std::string ten;
    for (int i = 0; i < 10; ++i)
        ten += "foo\n";
    write("a.txt", ten);
    write("b.txt", ten);
    write("c.txt", ten);
    SearchQuery q = literal("foo");
    q.max_matches = 15;
    auto r = run(q);
    ASSERT_EQ(r.matches.size(), 15u);
    EXPECT_TRUE(r.truncated);
    EXPECT_EQ(where(r).back(), "b.txt:5");
    q.max_matches = 30;
    r = run(q);
    EXPECT_EQ(r.matches.size(), 30u);
    EXPECT_FALSE(r.truncated) << "exactly max_matches is not more";
    q.max_matches = 0;
    r = run(q);
    EXPECT_TRUE(r.matches.empty());
    EXPECT_TRUE(r.truncated);
}

// A large file first in order holds the answer back while the other threads run ahead.
TEST_F(Search, EarlyStopIsDeterministic) {
    write("a-large.txt", std::string(8'000'000, 'x'));
    for (int f = 0; f < 200; ++f) {
        std::string text;
        for (int i = 0; i < 50; ++i)
            text += "foo " + std::to_string(i) + "\n";
        write("d" + std::to_string(f % 7) + "/f" + std::to_string(f) + ".txt", text);
    }
    SearchQuery q = literal("foo");
    q.max_matches = 120;
    auto first = run(q);
    EXPECT_TRUE(first.truncated);
    EXPECT_EQ(first.matches.size(), 120u);
    EXPECT_EQ(where(first).back(), "d0/f112.txt:20");
    EXPECT_EQ(first.files_searched, 4u) << "the files whose matches decide the answer";
    for (int i = 0; i < 10; ++i) {
        auto again = run(q);
        EXPECT_EQ(where(again), where(first));
        EXPECT_EQ(again.files_searched, first.files_searched);
    }
}

// Line numbers are counted eight bytes at a time between matches: lines of every length, so
// that line breaks fall at every offset of a word, with bytes that look like '\n' to a
// careless mask (0x0a with the high bit, 0x8a; 0x0b; 0x09), must give what counting does.
TEST_F(Search, LineNumbersAreRightWhereverTheLineBreaksFall) {
    std::mt19937 rng(11);
    const char filler[] = {'a', '\x8a', '\x0b', '\x09', '\x7f', ' ', '\xc3', '\xa9'};
    std::string text;
    std::vector<std::string> expected;
    for (std::size_t line = 1; line <= 3000; ++line) {
        const std::size_t length = rng() % 40;
        for (std::size_t i = 0; i < length; ++i)
            text += filler[rng() % std::size(filler)];
        if (rng() % 7 == 0) {
            text += "needle";
            expected.push_back("lines.txt:" + std::to_string(line));
        }
        text += '\n';
    }
    write("lines.txt", text);
    SearchQuery q = literal("needle");
    q.max_matches = 100000;
    EXPECT_EQ(where(run(q)), expected);
}

TEST_F(Search, ResultsAreSortedByPathThenLineWhateverTheThreadsDo) {
    for (int f = 0; f < 300; ++f)
        write("d" + std::to_string(f % 11) + "/s" + std::to_string(f % 5) + "/f" +
                  std::to_string(f) + ".txt",
              "foo\nbar\nfoo bar\n");
    SearchQuery q = literal("foo");
    q.max_matches = 1000;
    auto first = run(q);
    ASSERT_EQ(first.matches.size(), 600u);
    EXPECT_TRUE(std::is_sorted(first.matches.begin(), first.matches.end(),
                               [](const SearchMatch& a, const SearchMatch& b) {
                                   return a.path != b.path ? a.path < b.path : a.line < b.line;
                               }));
    for (int i = 0; i < 5; ++i)
        EXPECT_EQ(where(run(q)), where(first));
}

TEST_F(Search, LongLinesAreClippedAroundTheMatchOnCharacterBoundaries) {
    std::string before, after;
    for (int i = 0; i < 1000; ++i) {
        before += "é"; // 2 bytes
        after += "漢"; // 3 bytes
    }
    write("long.txt", "short foo\n" + before + "MATCH" + after + "\n");
    auto r = run(literal("MATCH"));
    ASSERT_EQ(r.matches.size(), 1u);
    const std::string& text = r.matches[0].text;
    EXPECT_EQ(r.matches[0].line, 2u);
    EXPECT_NE(text.find("MATCH"), std::string::npos);
    EXPECT_TRUE(text.starts_with("…"));
    EXPECT_TRUE(text.ends_with("…"));
    EXPECT_FALSE(find_invalid_utf8(text).has_value()) << text;
    EXPECT_LE(text.size(), 240u + 2 * std::string("…").size());
    EXPECT_GE(text.size(), 200u);

    SearchQuery q = literal("MATCH");
    q.max_line_bytes = 0;
    EXPECT_EQ(run(q).matches[0].text, before + "MATCH" + after);

    write("edge.txt", "MATCH" + after + "\n");
    auto at_start = run(literal("MATCH"));
    ASSERT_EQ(at_start.matches.size(), 2u);
    EXPECT_TRUE(at_start.matches[0].text.starts_with("MATCH")) << "no mark before the start";
}

TEST_F(Search, InvalidUtf8IsSearchedBytewiseAndShownAsReplacementCharacters) {
    write("latin1.txt", "caf\xE9 foo\n");
    auto r = run(literal("foo"));
    ASSERT_EQ(r.matches.size(), 1u);
    EXPECT_EQ(r.matches[0].text, "caf\xEF\xBF\xBD foo");
}

TEST_F(Search, LiveTextOverridesTheFileOnDisk) {
    write("a.txt", "old foo\n");
    write("b.txt", "disk foo\n");
    write(".gitignore", "ignored.txt\n");
    LiveText live{{"a.txt", "line one\nnew foo\n"},
                  {"sub/unsaved.txt", "foo in an unsaved buffer\n"},
                  {"ignored.txt", "foo\n"}};
    fs::create_directory(project / "sub");
    auto r = run(literal("foo"), live);
    EXPECT_EQ(where(r), (Where{"a.txt:2", "b.txt:1", "sub/unsaved.txt:1"}));
    EXPECT_EQ(r.matches[0].text, "new foo");
    EXPECT_TRUE(run(literal("old"), live).matches.empty());

    SearchQuery one = literal("foo");
    one.path = "sub/unsaved.txt";
    EXPECT_EQ(where(run(one, live)), (Where{"sub/unsaved.txt:1"}));
}

TEST_F(Search, DotGitIsSkipped) {
    write(".git/config", "foo\n");
    write(".git/info/exclude", "");
    write("vendor/lib/.git/HEAD", "foo\n");
    write("a.txt", "foo\n");
    EXPECT_EQ(where(run(literal("foo"))), (Where{"a.txt:1"}));
}

TEST_F(Search, RiosOwnFolderIsLeftOutOfSearchAndQuickOpenAlike) {
    write(".rio/plans/20260101-add-a-flag.md", "---\nstatus: approved\n---\nfoo\n");
    write(".rio/allow", "foo\n");
    write("src/.rio/notes.txt", "foo\n"); // only the project's own .rio is rio's
    write("a.txt", "foo\n");
    EXPECT_EQ(where(run(literal("foo"))), (Where{"a.txt:1", "src/.rio/notes.txt:1"}));
    EXPECT_EQ(list_project_files(root(), {}, 100).files,
              (std::vector<std::string>{"a.txt", "src/.rio/notes.txt"}))
        << "one rule for both";
    SearchQuery named = literal("foo");
    named.path = ".rio/plans";
    EXPECT_EQ(where(run(named)), (Where{".rio/plans/20260101-add-a-flag.md:4"}))
        << "searched when named";
}

TEST_F(Search, GitignoreAndInfoExcludeAreRespected) {
    write(".gitignore", "build/\n*.log\n/generated/*\n!/generated/keep.txt\n");
    write(".git/info/exclude", "private.txt\n");
    write("sub/.gitignore", "!keep.log\n");
    for (const char* f :
         {"a.txt", "build/out.txt", "x/build/out.txt", "debug.log", "sub/keep.log", "sub/other.log",
          "generated/gen.txt", "generated/keep.txt", "private.txt", "sub/private.txt"})
        write(f, "foo\n");
    EXPECT_EQ(where(run(literal("foo"))),
              (Where{"a.txt:1", "generated/keep.txt:1", "sub/keep.log:1"}));
}

TEST_F(Search, AScopedSearchHonoursTheGitignoresAboveIt) {
    write(".gitignore", "*.gen\n");
    write("src/.gitignore", "tmp/\n");
    write("src/lib/a.txt", "foo\n");
    write("src/lib/b.gen", "foo\n");
    write("src/lib/tmp/c.txt", "foo\n");
    SearchQuery q = literal("foo");
    q.path = "src/lib";
    EXPECT_EQ(where(run(q)), (Where{"src/lib/a.txt:1"}));
}

TEST_F(Search, AnIgnoredFolderNamedExplicitlyIsSearched) {
    write(".gitignore", "build/\n*.o\n");
    write("build/notes.txt", "foo\n");
    write("build/x.o", "foo\n");
    SearchQuery q = literal("foo");
    q.path = "build";
    EXPECT_EQ(where(run(q)), (Where{"build/notes.txt:1"}));
}

TEST_F(Search, SymlinkedDirectoriesAreNotFollowed) {
    write("src/a.txt", "foo\n");
    test::write_bytes(outside / "secret.txt", "foo\n");
    fs::create_directory_symlink(project / "src", project / "alias");
    fs::create_directory_symlink(outside.path(), project / "escape");
    fs::create_directory_symlink(project.path(), project / "src/loop");
    EXPECT_EQ(where(run(literal("foo"))), (Where{"src/a.txt:1"}));
}

TEST_F(Search, ASymlinkedFileIsSearchedOnlyWhenItStaysInside) {
    write("real.txt", "foo\n");
    test::write_bytes(outside / "secret.txt", "foo\n");
    fs::create_symlink(project / "real.txt", project / "link.txt");
    fs::create_symlink(outside / "secret.txt", project / "leak.txt");
    fs::create_symlink(project / "missing.txt", project / "dangling.txt");
    EXPECT_EQ(where(run(literal("foo"))), (Where{"link.txt:1", "real.txt:1"}));
}

TEST_F(Search, FormatListsMatchesThenASummary) {
    write("a.txt", "foo 1\nfoo 2\n");
    write("b.txt", "foo 3\n");
    write("c.bin", std::string("foo\0", 4));
    SearchQuery q = literal("foo");
    EXPECT_EQ(format_search_result(q, run(q)),
              "a.txt:1: foo 1\n"
              "a.txt:2: foo 2\n"
              "b.txt:1: foo 3\n"
              "(3 matches in 2 files; 2 files searched; 1 binary or oversized file skipped)");
}

TEST_F(Search, FormatSaysWhenMoreMatchesExist) {
    write("a.txt", "foo\nfoo\nfoo\n");
    SearchQuery q = literal("foo");
    q.max_matches = 2;
    EXPECT_EQ(format_search_result(q, run(q)),
              "a.txt:1: foo\n"
              "a.txt:2: foo\n"
              "(2 matches shown; more exist — narrow the pattern or the path)");
}

TEST_F(Search, FormatExplainsNoMatches) {
    write("a.txt", "nothing\n");
    SearchQuery q = literal("foo.*bar");
    q.path = ".";
    EXPECT_EQ(format_search_result(q, run(q)),
              "No matches for \"foo.*bar\" in 1 file. The pattern was searched literally; set "
              "regex for a regular expression.");
    q = regex("zzz");
    q.globs = {"*.md"};
    EXPECT_EQ(format_search_result(q, run(q)),
              "No matches for regex /zzz/ in 0 files matching *.md. The glob matched no files.");
}

} // namespace
} // namespace rio
