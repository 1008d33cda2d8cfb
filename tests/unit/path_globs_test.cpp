// The globs of a search and a file list, read as `rg -g` reads them (decision 0074). The
// expectations are what ripgrep 13 answers; tests/e2e/search_vs_rg_e2e_test.cpp asks rg
// itself on a generated tree.
#include "host/search/path_globs.hpp"

#include <gtest/gtest.h>

namespace rio {
namespace {

using Verdict = PathGlobs::Verdict;

PathGlobs globs(std::vector<std::string> list) {
    auto g = PathGlobs::make(list);
    EXPECT_TRUE(g.ok()) << (g.ok() ? "" : g.error().message);
    return g.ok() ? std::move(*g) : PathGlobs{};
}

// The verdict for a file.
Verdict file(const PathGlobs& g, std::string_view rel) {
    return g.decide(rel, false);
}
Verdict dir(const PathGlobs& g, std::string_view rel) {
    return g.decide(rel, true);
}

constexpr Verdict in = Verdict::include, out = Verdict::exclude, none = Verdict::none;

TEST(PathGlobs, BracesAreAlternatives) {
    auto g = globs({"*.{c,h}"});
    EXPECT_EQ(file(g, "a.c"), in);
    EXPECT_EQ(file(g, "src/deep/b.h"), in);
    EXPECT_EQ(file(g, "a.cpp"), out) << "some glob includes, so a file none matches is out";
    EXPECT_EQ(dir(g, "src"), none) << "a folder none matches is left to .gitignore";
    EXPECT_EQ(file(globs({"src/{a,b}*/x.{js,ts}"}), "src/b2/x.ts"), in);
    EXPECT_EQ(file(globs({"src/{a,b}*/x.{js,ts}"}), "src/c/x.ts"), out);
}

TEST(PathGlobs, ALeadingBangExcludesAndLeavesTheRestToGitignore) {
    auto g = globs({"!*.c"});
    EXPECT_EQ(file(g, "a.c"), out);
    EXPECT_EQ(file(g, "src/a.c"), out);
    EXPECT_EQ(file(g, "a.h"), none);
    EXPECT_EQ(dir(g, "x.c"), out) << "a folder named like a file is left out too, as in rg";
    auto folders = globs({"!vendor/"});
    EXPECT_EQ(dir(folders, "third/vendor"), out);
    EXPECT_EQ(file(folders, "vendor"), none) << "a trailing / is for folders only";
}

TEST(PathGlobs, TheLaterGlobDecidesWhereTwoMatch) {
    auto not_tests = globs({"*.c", "!test/**"});
    EXPECT_EQ(file(not_tests, "test/a.c"), out);
    EXPECT_EQ(file(not_tests, "src/a.c"), in);
    auto tests_again = globs({"!test/**", "*.c"});
    EXPECT_EQ(file(tests_again, "test/a.c"), in);
    EXPECT_EQ(dir(tests_again, "test/sub"), out) << "so rg never enters test/sub";
    EXPECT_EQ(file(tests_again, "test/a.h"), out);
}

TEST(PathGlobs, DoubleStarsSpanFoldersOnlyBetweenSlashes) {
    auto below = globs({"src/**"});
    EXPECT_EQ(file(below, "src/a/b.c"), in);
    EXPECT_EQ(dir(below, "src/a"), in);
    EXPECT_EQ(dir(below, "src"), none) << "what is below src, not src itself";
    EXPECT_EQ(file(below, "lib/src/a.c"), out) << "a glob with a / is anchored at the root";
    auto middle = globs({"src/**/*.h"});
    EXPECT_EQ(file(middle, "src/a.h"), in);
    EXPECT_EQ(file(middle, "src/x/y/a.h"), in);
    EXPECT_EQ(file(middle, "srcx/a.h"), out);
    auto any_depth = globs({"**/deep/*"});
    EXPECT_EQ(file(any_depth, "deep/a"), in);
    EXPECT_EQ(file(any_depth, "x/deep/a"), in);
    EXPECT_EQ(file(any_depth, "x/deep/a/b"), out);
    auto glued = globs({"a**b"});
    EXPECT_EQ(file(glued, "axyb"), in) << "** inside a name is two *";
    EXPECT_EQ(file(glued, "a/b"), out);
    EXPECT_EQ(file(globs({"**"}), "any/where/at/all"), in);
}

TEST(PathGlobs, SingleStarsAndQuestionMarksStayInOneName) {
    auto g = globs({"src/*.h"});
    EXPECT_EQ(file(g, "src/a.h"), in);
    EXPECT_EQ(file(g, "src/x/a.h"), out);
    auto q = globs({"file?.txt"});
    EXPECT_EQ(file(q, "d/file1.txt"), in);
    EXPECT_EQ(file(q, "d/file12.txt"), out);
}

TEST(PathGlobs, ClassesRangesAndNegatedClasses) {
    auto g = globs({"*.[ch]"});
    EXPECT_EQ(file(g, "a.c"), in);
    EXPECT_EQ(file(g, "a.o"), out);
    auto range = globs({"file[0-4]*"});
    EXPECT_EQ(file(range, "file3x"), in);
    EXPECT_EQ(file(range, "file5"), out);
    auto negated = globs({"[!a-c]*.txt"});
    EXPECT_EQ(file(negated, "d.txt"), in);
    EXPECT_EQ(file(negated, "b.txt"), out);
    EXPECT_EQ(file(globs({"[]x]"}), "]"), in) << "a ] first is a member";
    EXPECT_EQ(file(globs({"[x-]"}), "-"), in) << "and a - last";
    EXPECT_EQ(file(globs({"[[:digit:]]*"}), "7.txt"), in) << "POSIX names, as .gitignore has";
}

TEST(PathGlobs, AnchorsEscapesSpacesAndOtherScripts) {
    auto top = globs({"/top.c"});
    EXPECT_EQ(file(top, "top.c"), in);
    EXPECT_EQ(file(top, "sub/top.c"), out);
    EXPECT_EQ(file(globs({"./*.c"}), "sub/a.c"), out) << "./ anchors too";
    EXPECT_EQ(file(globs({"./src/*.h"}), "src/a.h"), in);
    EXPECT_EQ(file(globs({"\\*.c"}), "*.c"), in);
    EXPECT_EQ(file(globs({"\\*.c"}), "a.c"), out);
    EXPECT_EQ(file(globs({"\\!x"}), "!x"), in) << "an escaped ! is the name's own";
    EXPECT_EQ(file(globs({"*.c  "}), "a.c"), in) << "trailing spaces are dropped, as rg does";
    EXPECT_EQ(file(globs({"été*"}), "d/été.md"), in);
    EXPECT_EQ(file(globs({"a,b"}), "a,b"), in) << "a comma outside braces is itself";
    EXPECT_TRUE(globs({"", "  "}).empty());
}

TEST(PathGlobs, OnlyFoldersThatCanHoldAnIncludedFileAreEntered) {
    auto g = globs({"src/**/*.h", "lib/x/*.c"});
    EXPECT_TRUE(g.may_enter("src"));
    EXPECT_TRUE(g.may_enter("src/a/b"));
    EXPECT_TRUE(g.may_enter("lib"));
    EXPECT_TRUE(g.may_enter("lib/x"));
    EXPECT_FALSE(g.may_enter("lib/y"));
    EXPECT_FALSE(g.may_enter("docs"));
    EXPECT_TRUE(globs({"src/**", "*.md"}).may_enter("docs")) << "*.md may be anywhere";
    EXPECT_TRUE(globs({"!src/**"}).may_enter("docs"));
    EXPECT_TRUE(globs({"{src,lib}/*.c"}).may_enter("lib"));
}

TEST(PathGlobs, AGlobRioCannotReadIsABadRequestThatSaysWhatWorks) {
    for (std::string bad : {"*.{c,h", "*.{c,{h,cpp}}", "*.c}", "*.{c,}", "*.{,c}", "[z-a].c", "x\\",
                            "[abc", "#notes", "!", "/", "[[:letters:]]"}) {
        auto g = PathGlobs::make({"*.md", bad});
        ASSERT_FALSE(g.ok()) << bad;
        EXPECT_EQ(g.error().code, ErrorCode::bad_request);
        const std::string& message = g.error().message;
        EXPECT_NE(message.find("\"" + bad + "\""), std::string::npos) << message;
        EXPECT_NE(message.find("{a,b}"), std::string::npos) << message;
        EXPECT_NE(message.find("!*.c"), std::string::npos) << message;
    }
    EXPECT_TRUE(PathGlobs::make({"*.{c,h"})
                    .error()
                    .message.starts_with("cannot read the glob \"*.{c,h\": a { is not closed; "
                                         "globs work as in ripgrep's -g"));
}

} // namespace
} // namespace rio
