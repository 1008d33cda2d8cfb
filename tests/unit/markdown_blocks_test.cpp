#include "cli/markdown_blocks.hpp"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace rio {
namespace {

// The pieces handed out when `text` arrives one byte at a time, then the rest.
std::vector<std::string> pieces(const std::string& text) {
    MarkdownBlocks blocks;
    std::vector<std::string> out;
    for (char c : text)
        if (std::string done = blocks.feed(std::string(1, c)); !done.empty()) out.push_back(done);
    if (std::string rest = blocks.finish(); !rest.empty()) out.push_back(rest);
    return out;
}

using Pieces = std::vector<std::string>;

TEST(MarkdownBlocks, ABlockIsHandedOutOnceTheNextOneBegins) {
    MarkdownBlocks blocks;
    EXPECT_EQ(blocks.feed("# Title\n\nSome **bo"), "");
    EXPECT_EQ(blocks.feed("ld** text\n"), "# Title\n\n") << "the paragraph's line is complete";
    EXPECT_EQ(blocks.feed("\nNext"), "");
    EXPECT_EQ(blocks.feed(" one\n"), "Some **bold** text\n\n");
    EXPECT_EQ(blocks.finish(), "Next one\n");
}

TEST(MarkdownBlocks, FencedCodeStaysWholeBlankLinesAndAll) {
    EXPECT_EQ(pieces("```\na\n\nb\n```\n\nafter\n"), (Pieces{"```\na\n\nb\n```\n\n", "after\n"}));
    EXPECT_EQ(pieces("~~~~\n```\n\nx\n~~~~\n\ny\n"), (Pieces{"~~~~\n```\n\nx\n~~~~\n\n", "y\n"}))
        << "only a fence of its own kind and length closes it";
}

TEST(MarkdownBlocks, AnIndentedLineAfterABlankOneStaysWithItsList) {
    EXPECT_EQ(pieces("1. first\n\n   more\n2. second\n\nend\n"),
              (Pieces{"1. first\n\n   more\n2. second\n\n", "end\n"}));
}

TEST(MarkdownBlocks, NothingIsLostOrRepeated) {
    // The last block's line is not complete: where it starts is not known until finish().
    std::string text = "para one\nstill one\n\n- a\n- b\n\n| x | y |\n| - | - |\n| 1 | 2 |\n\nlast";
    std::string joined;
    for (const std::string& piece : pieces(text))
        joined += piece;
    EXPECT_EQ(joined, text);
    EXPECT_EQ(pieces(text).size(), 3u);
    EXPECT_EQ(pieces(text + "\n").size(), 4u);
}

} // namespace
} // namespace rio
