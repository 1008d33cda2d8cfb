#include "cli/word_stream.hpp"

#include <gtest/gtest.h>
#include <string>
#include <string_view>
#include <vector>

namespace rio {
namespace {

// `text` fed in pieces of `chunk` bytes, and the held word at the end.
std::string streamed(std::string_view text, std::size_t chunk, int width) {
    WordStream stream(width);
    std::string out;
    for (std::size_t at = 0; at < text.size(); at += chunk)
        out += stream.feed(text.substr(at, chunk));
    return out + stream.finish();
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    for (std::size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1)
        lines.push_back(text.substr(start, nl - start));
    lines.push_back(text.substr(start));
    return lines;
}

TEST(WordStream, APartialWordIsHeldUntilItEnds) {
    WordStream stream(80);
    EXPECT_EQ(stream.feed("Hel"), "");
    EXPECT_EQ(stream.feed("lo wo"), "Hello");
    EXPECT_EQ(stream.feed("rld "), " world");
    EXPECT_EQ(stream.finish(), "");
}

TEST(WordStream, NoWordIsSplitAtTheEdgeWhateverTheChunks) {
    std::string prose = "The quick brown fox jumps over the lazy dog and keeps running "
                        "through the fields until evening falls over the quiet village.";
    for (std::size_t chunk : {1u, 2u, 3u, 7u, 1000u}) {
        std::string out = streamed(prose, chunk, 20);
        for (const std::string& line : lines_of(out)) {
            EXPECT_LE(line.size(), 20u) << line;
            EXPECT_FALSE(line.empty());
            EXPECT_NE(line.front(), ' ') << "a new line starts with a word";
        }
        std::string joined;
        for (const std::string& line : lines_of(out))
            joined += (joined.empty() ? "" : " ") + line;
        EXPECT_EQ(joined, prose) << "chunk " << chunk << ": the words, whole and in order";
    }
}

TEST(WordStream, LineBreaksInTheTextStartAgainAtTheLeft) {
    EXPECT_EQ(streamed("aaaa bbbb\ncc dd", 2, 9), "aaaa bbbb\ncc dd");
    EXPECT_EQ(streamed("aaaa bbbb cc", 3, 9), "aaaa bbbb\ncc");
}

TEST(WordStream, AWordWiderThanTheLineGoesOnAtCharacters) {
    EXPECT_EQ(streamed("ab abcdefghij", 4, 5), "ab\nabcde\nfghij");
    EXPECT_EQ(streamed("漢字漢字", 1, 5), "漢字\n漢字") << "never half a wide character";
}

TEST(WordStream, ControlCharactersAreShownNotSent) {
    EXPECT_EQ(streamed("a\x1b[2Jb", 2, 80), "a\\e[2Jb");
}

} // namespace
} // namespace rio
