// client/fuzzy_match: quick open's ranking, as people who use VS Code's or Zed's file picker
// expect it.
#include "client/fuzzy_match.hpp"

#include <gtest/gtest.h>

namespace rio::client {
namespace {

using Paths = std::vector<std::string>;

// The paths `query` picks, best first.
Paths ranked(const Paths& paths, std::string_view query, std::size_t limit = 50) {
    Paths out;
    for (const FuzzyHit& hit : fuzzy_find(paths, query, limit))
        out.push_back(paths[hit.index]);
    return out;
}

TEST(FuzzyMatch, CharactersInARowAtANameStartComeFirst) {
    const Paths paths{"src/domain.txt", "src/main_window.cpp", "docs/manual/main.md",
                      "gui/main.cpp", "readme.md"};
    EXPECT_EQ(ranked(paths, "main"), (Paths{"gui/main.cpp", "docs/manual/main.md",
                                            "src/main_window.cpp", "src/domain.txt"}));
    EXPECT_EQ(ranked({"m/a/i/n.c", "x/main.c"}, "main"), (Paths{"x/main.c", "m/a/i/n.c"}));
}

TEST(FuzzyMatch, TheFileNameWeighsMoreThanAFolder) {
    EXPECT_EQ(ranked({"main/notes.txt", "x/main.txt"}, "main"),
              (Paths{"x/main.txt", "main/notes.txt"}));
}

TEST(FuzzyMatch, WordStartsBeatLettersInsideWords) {
    // m and w start words in main_window; in formwork they sit inside one.
    EXPECT_EQ(ranked({"src/formwork.cpp", "src/main_window.cpp"}, "mw"),
              (Paths{"src/main_window.cpp", "src/formwork.cpp"}));
    // CamelCase counts as word starts too.
    EXPECT_EQ(ranked({"src/Framework.java", "src/FileWatcher.java"}, "fw"),
              (Paths{"src/FileWatcher.java", "src/Framework.java"}));
}

TEST(FuzzyMatch, EqualScoresGoToTheShorterPath) {
    EXPECT_EQ(ranked({"a/very/deep/folder/util.h", "lib/util.h", "util.h"}, "util"),
              (Paths{"util.h", "lib/util.h", "a/very/deep/folder/util.h"}));
}

TEST(FuzzyMatch, FolderAndFileTogetherNarrowIt) {
    const Paths paths{"gui/main_window.cpp", "cli/main.cpp", "gui/main_window.hpp", "gui/chat.cpp"};
    const Paths got = ranked(paths, "gui/mwcpp");
    EXPECT_EQ(got, (Paths{"gui/main_window.cpp"}));
}

TEST(FuzzyMatch, CaseAndSpacesAreIgnoredAndOrderMatters) {
    const Paths paths{"src/MainWindow.cpp", "niam.txt"};
    EXPECT_EQ(ranked(paths, "MAINWIN"), (Paths{"src/MainWindow.cpp"}));
    EXPECT_EQ(ranked(paths, "main win"), (Paths{"src/MainWindow.cpp"}));
    EXPECT_TRUE(ranked(paths, "xyz").empty());
    EXPECT_EQ(ranked(paths, "niam"), (Paths{"niam.txt"}));
}

TEST(FuzzyMatch, PositionsAreTheBestAlignment) {
    // The run at the file name's start, not the same letters inside "remain".
    auto hits = fuzzy_find({"src/remain/main.cpp"}, "main", 10);
    ASSERT_EQ(hits.size(), 1u);
    EXPECT_EQ(hits[0].positions, (std::vector<std::size_t>{11, 12, 13, 14}));
    hits = fuzzy_find({"gui/main.cpp"}, "mc", 10);
    ASSERT_EQ(hits.size(), 1u);
    EXPECT_EQ(hits[0].positions, (std::vector<std::size_t>{4, 9})); // m, then c after the dot
}

TEST(FuzzyMatch, EmptyQueryKeepsTheOrderAndTheLimitHolds) {
    const Paths paths{"b.txt", "a.txt", "c.txt"};
    EXPECT_EQ(ranked(paths, "", 2), (Paths{"b.txt", "a.txt"}));
    EXPECT_EQ(ranked(paths, "  ", 5), paths);
    EXPECT_EQ(ranked(paths, "txt", 1).size(), 1u);
}

TEST(FuzzyMatch, NonAsciiNamesMatchByteForByte) {
    EXPECT_EQ(ranked({"docs/résumé.md", "docs/resume.md"}, "résumé"), (Paths{"docs/résumé.md"}));
}

} // namespace
} // namespace rio::client
