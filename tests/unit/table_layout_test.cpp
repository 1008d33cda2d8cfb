#include "cli/table_layout.hpp"

#include <gtest/gtest.h>
#include <numeric>
#include <vector>

namespace rio::md {
namespace {

using Widths = std::vector<int>;

int sum(const Widths& widths) {
    return std::accumulate(widths.begin(), widths.end(), 0);
}

TEST(TableLayout, ShrinkKeepsNarrowColumnsAndSharesTheRestByWidth) {
    Widths widths = shrink({4, 50, 30}, 40);
    EXPECT_EQ(widths[0], 4) << "narrower than an equal share";
    EXPECT_EQ(sum(widths), 40);
    EXPECT_GT(widths[1], widths[2]);
    EXPECT_EQ(widths, (Widths{4, 23, 13})) << "the rounding column goes to the widest";
}

TEST(TableLayout, ShrinkSettlesColumnsAsTheShareGrows) {
    // 30 / 3 = 10 settles the 9; then 21 / 2 = 10 settles the 10; the 40 takes what is left.
    EXPECT_EQ(shrink({9, 10, 40}, 30), (Widths{9, 10, 11}));
}

TEST(TableLayout, ShrinkNeverGoesBelowOneColumn) {
    EXPECT_EQ(shrink({10, 10, 10}, 2), (Widths{1, 1, 1}));
    EXPECT_EQ(shrink({10, 10}, -5), (Widths{1, 1})) << "no room at all";
    EXPECT_EQ(shrink({0, 10}, 5), (Widths{0, 5})) << "an empty column stays empty";
}

TEST(TableLayout, ColumnsThatFitKeepTheirNaturalWidth) {
    EXPECT_EQ(fit_columns({5, 10, 3}, {5, 4, 3}, 18), (Widths{5, 10, 3}));
    EXPECT_EQ(fit_columns({5, 10, 3}, {5, 4, 3}, 100), (Widths{5, 10, 3}));
}

TEST(TableLayout, LongestWordsFirstThenTheRestInProportion) {
    Widths natural{20, 40, 4};
    Widths longest_word{8, 6, 4};
    Widths widths = fit_columns(natural, longest_word, 40);
    EXPECT_EQ(sum(widths), 40);
    for (std::size_t c = 0; c < widths.size(); ++c) {
        EXPECT_GE(widths[c], longest_word[c]) << "no word is cut when they all fit";
        EXPECT_LE(widths[c], natural[c]);
    }
    EXPECT_EQ(widths[2], 4);
    EXPECT_EQ(widths, (Widths{14, 22, 4}))
        << "22 to give for 12 and 34 wanted: 5 and 16, the last to the first column";
}

TEST(TableLayout, WhenEvenTheWordsDoNotFitTheyShrink) {
    Widths widths = fit_columns({30, 30, 2}, {25, 20, 2}, 20);
    EXPECT_EQ(sum(widths), 20);
    EXPECT_EQ(widths[2], 2);
    EXPECT_EQ(widths, shrink({25, 20, 2}, 20));
}

TEST(TableLayout, CellsAreAlignedWithPlainPadding) {
    Line cell{{"ab", bold}};
    Line left = aligned(cell, 5, Align::left);
    ASSERT_EQ(left.size(), 2u);
    EXPECT_EQ(left[0].text, "ab");
    EXPECT_EQ(left[1].text, "   ");
    EXPECT_EQ(left[1].style, plain);
    EXPECT_EQ(aligned(cell, 5, Align::none)[1].text, "   ");
    EXPECT_EQ(aligned(cell, 5, Align::right)[0].text, "   ");
    Line center = aligned(cell, 5, Align::center);
    ASSERT_EQ(center.size(), 3u);
    EXPECT_EQ(center[0].text, " ");
    EXPECT_EQ(center[2].text, "  ") << "the odd space goes right";
    EXPECT_EQ(width_of(aligned({{"漢字", plain}}, 6, Align::center)), 6);
    EXPECT_EQ(aligned({{"toolong", plain}}, 3, Align::right)[0].text, "toolong");
}

} // namespace
} // namespace rio::md
