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

TEST(LineReader, FinishReturnsAnUnterminatedLastLine) {
    LineReader reader;
    EXPECT_TRUE(reader.feed("tail").empty());
    EXPECT_EQ(lines(reader.finish()), std::vector<std::string>{"tail"});
    EXPECT_TRUE(reader.finish().empty());
}

} // namespace
} // namespace rio
