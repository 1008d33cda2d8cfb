#include "host/http/sse.hpp"

#include <gtest/gtest.h>

namespace rio {
namespace {

std::vector<std::string> shown(const std::vector<SseEvent>& events) {
    std::vector<std::string> out;
    for (const SseEvent& e : events)
        out.push_back(e.type + "|" + e.data);
    return out;
}

std::vector<std::string> parse(std::string_view bytes) {
    SseParser parser;
    return shown(parser.feed(bytes));
}

TEST(Sse, EndsLinesAtLfCrOrCrlf) {
    std::vector<std::string> want{"message|a", "message|b", "message|c"};
    EXPECT_EQ(parse("data: a\n\ndata: b\n\ndata: c\n\n"), want);
    EXPECT_EQ(parse("data: a\r\rdata: b\r\rdata: c\r\r"), want);
    EXPECT_EQ(parse("data: a\r\n\r\ndata: b\r\n\r\ndata: c\r\n\r\n"), want);
    EXPECT_EQ(parse("data: a\n\r\ndata: b\r\rdata: c\r\n\n"), want) << "mixed endings";
}

TEST(Sse, SplittingTheStreamAnywhereGivesTheSameEvents) {
    // CRLF endings, a lone CR, and multibyte UTF-8 (2, 3 and 4 bytes) in type and data.
    std::string stream = "\xEF\xBB\xBF: hi\r\n"
                         "event: caf\xC3\xA9\r\n"
                         "data: {\"t\":\"\xE2\x82\xAC \xF0\x9F\x98\x80\"}\r\n"
                         "data: second\r"
                         "\r\n"
                         "data:x\n\n";
    std::vector<std::string> want{"caf\xC3\xA9|{\"t\":\"\xE2\x82\xAC \xF0\x9F\x98\x80\"}\nsecond",
                                  "message|x"};
    ASSERT_EQ(parse(stream), want);

    for (std::size_t cut = 0; cut <= stream.size(); ++cut) {
        SseParser parser;
        std::vector<std::string> got = shown(parser.feed(std::string_view(stream).substr(0, cut)));
        for (std::string& e : shown(parser.feed(std::string_view(stream).substr(cut))))
            got.push_back(e);
        EXPECT_EQ(got, want) << "cut at byte " << cut;
    }

    SseParser parser;
    std::vector<std::string> got;
    for (char c : stream)
        for (std::string& e : shown(parser.feed(std::string_view(&c, 1))))
            got.push_back(e);
    EXPECT_EQ(got, want) << "one byte at a time";
}

TEST(Sse, JoinsDataLinesWithNewlines) {
    EXPECT_EQ(parse("data: one\ndata: two\ndata:\ndata: four\n\n"),
              std::vector<std::string>{"message|one\ntwo\n\nfour"});
}

TEST(Sse, RemovesOnlyOneSpaceAfterTheColon) {
    EXPECT_EQ(parse("data:  two spaces\n\ndata:none\n\n"),
              (std::vector<std::string>{"message| two spaces", "message|none"}));
}

TEST(Sse, IgnoresCommentsIdRetryAndUnknownFields) {
    EXPECT_EQ(parse(": keep-alive\nid: 7\nretry: 100\nfoo: bar\ndata: x\n:again\n\n"),
              std::vector<std::string>{"message|x"});
    EXPECT_TRUE(parse(": just a comment\n\n").empty());
}

TEST(Sse, AnEventWithoutDataIsNotDispatchedAndItsTypeIsForgotten) {
    EXPECT_EQ(parse("event: ping\n\ndata: after\n\n"), std::vector<std::string>{"message|after"});
}

TEST(Sse, AFieldNameAloneCountsAsAnEmptyValue) {
    EXPECT_EQ(parse("data\n\n"), std::vector<std::string>{"message|"});
    EXPECT_EQ(parse("event: e\ndata\ndata\n\n"), std::vector<std::string>{"e|\n"});
}

TEST(Sse, TheEventTypeDefaultsToMessageAndAppliesToOneEvent) {
    EXPECT_EQ(parse("event: a\ndata: 1\n\nevent:\ndata: 2\n\ndata: 3\n\n"),
              (std::vector<std::string>{"a|1", "message|2", "message|3"}));
}

TEST(Sse, AnUnfinishedEventWaitsForItsBlankLine) {
    SseParser parser;
    EXPECT_TRUE(parser.feed("event: x\ndata: 1\n").empty());
    EXPECT_EQ(shown(parser.feed("\n")), std::vector<std::string>{"x|1"});
}

TEST(Sse, OnlyALeadingBomIsDropped) {
    EXPECT_EQ(parse("\xEF\xBB\xBF"
                    "data: a\n\n"),
              std::vector<std::string>{"message|a"});
    EXPECT_EQ(parse("data: a\n\n\xEF\xBB\xBF"
                    "data: b\n\n"),
              std::vector<std::string>{"message|a"})
        << "later, the BOM is part of a field name we do not know";
}

TEST(Sse, ALineAtTheLimitIsAccepted) {
    SseParser parser(16);
    EXPECT_EQ(shown(parser.feed("data: 0123456789\n\n")),
              std::vector<std::string>{"message|0123456789"});
    EXPECT_FALSE(parser.overflowed());
}

TEST(Sse, AnOverlongLineOverflowsAndStopsTheParser) {
    SseParser parser(16);
    EXPECT_EQ(shown(parser.feed("data: a\n\ndata: 0123")), std::vector<std::string>{"message|a"});
    EXPECT_FALSE(parser.overflowed());
    EXPECT_TRUE(parser.feed("456789ABCDEF").empty());
    EXPECT_TRUE(parser.overflowed());
    EXPECT_TRUE(parser.feed("\n\ndata: b\n\n").empty()) << "nothing after an overflow";
}

TEST(Sse, AnEventWhoseDataOutgrowsTheLimitOverflows) {
    SseParser parser(16);
    EXPECT_TRUE(parser.feed("data: 01234567\ndata: 01234567\n").empty());
    EXPECT_TRUE(parser.overflowed());
}

TEST(SseWireExcerpt, KeepsTextOnOneLineAndValidUtf8) {
    EXPECT_EQ(wire_excerpt("  <html>\r\n  <b>Bad\tGateway</b>\n"), "<html> <b>Bad Gateway</b>");
    EXPECT_EQ(wire_excerpt("a\xFF"
                           "b\xC3"),
              "a\xEF\xBF\xBD"
              "b\xEF\xBF\xBD");
    EXPECT_EQ(wire_excerpt("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD")
        << "a surrogate is not UTF-8";
    // Clipping never splits a character: "é" is two bytes and does not fit after "abc".
    EXPECT_EQ(wire_excerpt("abc\xC3\xA9zzz", 4), "abc\xE2\x80\xA6");
    EXPECT_EQ(wire_excerpt("abcd", 4), "abcd");
}

} // namespace
} // namespace rio
