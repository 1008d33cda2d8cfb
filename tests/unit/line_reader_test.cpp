#include "protocol/line_reader.hpp"

#include <gtest/gtest.h>

namespace rio {
namespace {

std::vector<std::string> lines(const std::vector<Frame>& frames) {
    std::vector<std::string> out;
    for (const Frame& f : frames)
        out.push_back(f.oversize ? "<oversize>" : f.line);
    return out;
}

TEST(LineReader, SplitsOnNewlineAndKeepsThePartialTail) {
    LineReader reader;
    EXPECT_EQ(lines(reader.feed("{\"a\":1}\n{\"b\"")), std::vector<std::string>{"{\"a\":1}"});
    EXPECT_EQ(reader.pending(), 4u);
    EXPECT_EQ(lines(reader.feed(":2}\n")), std::vector<std::string>{"{\"b\":2}"});
    EXPECT_EQ(reader.pending(), 0u);
}

TEST(LineReader, ReassemblesALineFedOneByteAtATime) {
    LineReader reader;
    std::string input = "{\"id\":1,\"op\":\"session.hello\"}\n";
    std::vector<std::string> got;
    for (char c : input)
        for (auto& l : lines(reader.feed(std::string_view(&c, 1))))
            got.push_back(l);
    EXPECT_EQ(got, std::vector<std::string>{input.substr(0, input.size() - 1)});
}

TEST(LineReader, StripsCarriageReturnAndSkipsBlankLines) {
    LineReader reader;
    EXPECT_EQ(lines(reader.feed("one\r\n\n  \r\ntwo\n")), (std::vector<std::string>{"one", "two"}));
}

TEST(LineReader, RefusesAnOversizeLineAndKeepsTheNextOne) {
    LineReader reader(10);
    auto frames = reader.feed("0123456789AB");
    EXPECT_TRUE(frames.empty());
    EXPECT_LE(reader.pending(), 10u) << "an oversize line must not be buffered";
    frames = reader.feed("CDEF\nok\n");
    ASSERT_EQ(frames.size(), 2u);
    EXPECT_EQ(frames[0].oversize, 16u);
    EXPECT_EQ(frames[1].line, "ok");
    EXPECT_EQ(frames[1].oversize, 0u);
}

TEST(LineReader, ALineExactlyAtTheLimitIsAccepted) {
    LineReader reader(10);
    auto frames = reader.feed("0123456789\r\n0123456789X\n");
    ASSERT_EQ(frames.size(), 2u);
    EXPECT_EQ(frames[0].line, "0123456789");
    EXPECT_EQ(frames[1].oversize, 11u);
}

// Issue 26, break H: a stranger on the TCP port could send 15 MiB before its first line
// ended, and the core held it all.
TEST(LineReader, TheFirstLineMayHaveASmallerLimitOfItsOwn) {
    LineReader reader(100);
    reader.limit_first_line(8);
    EXPECT_TRUE(reader.feed("\n\n").empty()) << "blank lines are no first line";
    EXPECT_TRUE(reader.feed("0123456789").empty());
    EXPECT_LE(reader.pending(), 8u) << "what is past the first line's limit is not held";
    auto frames = reader.feed("\n0123456789AB\n");
    ASSERT_EQ(frames.size(), 2u);
    EXPECT_EQ(frames[0].oversize, 10u);
    EXPECT_EQ(frames[1].line, "0123456789AB") << "the lines after it have the usual limit";

    LineReader admitted(100);
    admitted.limit_first_line(8);
    frames = admitted.feed("hello\n0123456789AB\n");
    ASSERT_EQ(frames.size(), 2u)
        << "a first line within its limit, then a longer one in the same read";
    EXPECT_EQ(frames[0].line, "hello");
    EXPECT_EQ(frames[1].line, "0123456789AB");
}

TEST(LineReader, FinishReturnsAnUnterminatedLastLine) {
    LineReader reader;
    EXPECT_TRUE(reader.feed("tail").empty());
    EXPECT_EQ(lines(reader.finish()), std::vector<std::string>{"tail"});
    EXPECT_TRUE(reader.finish().empty());
}

} // namespace
} // namespace rio
