#include "cli/styled_line.hpp"

#include <gtest/gtest.h>

namespace rio::md {
namespace {

TEST(StyledLine, AppendingInOneStyleExtendsTheLastRun) {
    Line line;
    append(line, "a", bold);
    append(line, "b", bold);
    append(line, "", plain);
    ASSERT_EQ(line.size(), 1u) << "empty text adds no run";
    EXPECT_EQ(line[0].text, "ab");
    append(line, "c", bold | italic);
    ASSERT_EQ(line.size(), 2u);
    EXPECT_EQ(line[1].style, bold | italic);
    append(line, Line{{"d", bold | italic}, {"e", plain}});
    ASSERT_EQ(line.size(), 3u);
    EXPECT_EQ(line[1].text, "cd");
    EXPECT_EQ(line[2].text, "e");
}

TEST(StyledLine, WidthIsDisplayColumns) {
    EXPECT_EQ(width_of({}), 0);
    EXPECT_EQ(width_of({{"漢字", bold}, {"e\u0301", plain}}), 5);
    EXPECT_EQ(widest({{{"ab", plain}}, {{"漢字", plain}}, {}}), 4);
    EXPECT_EQ(widest({}), 0);
}

TEST(StyledLine, TrimRightDropsTrailingSpacesAndTheRunsTheyEmpty) {
    Line line{{"│", dim}, {" a  ", plain}, {"  ", bold}};
    trim_right(line);
    ASSERT_EQ(line.size(), 2u);
    EXPECT_EQ(line[1].text, " a");
    Line spaces{{" ", plain}, {"  ", dim}};
    trim_right(spaces);
    EXPECT_TRUE(spaces.empty());
}

TEST(StyledLine, WithoutColourRenderingIsTheText) {
    EXPECT_EQ(render({{{"a", bold}, {" b", dim}}, {}}, false), "a b\n\n");
    EXPECT_EQ(render({}, false), "");
}

TEST(StyledLine, ColourChangesAreSgrAndEveryStyledLineEndsReset) {
    EXPECT_EQ(render({{{"a", plain}, {"b", bold}}}, true), "a\x1b[1mb\x1b[0m\n");
    EXPECT_EQ(render({{{"a", bold}, {"b", bold | italic}, {"c", plain}}}, true),
              "\x1b[1ma\x1b[0;1;3mb\x1b[0mc\n")
        << "a change between styles resets first";
    EXPECT_EQ(render({{{"x", code}}, {{"y", plain}}}, true), "\x1b[36mx\x1b[0m\ny\n")
        << "each line starts plain";
    EXPECT_EQ(render({{{"s", strike | underline | dim}}, {{"v", checked}}}, true),
              "\x1b[2;4;9ms\x1b[0m\n\x1b[32mv\x1b[0m\n");
}

} // namespace
} // namespace rio::md
