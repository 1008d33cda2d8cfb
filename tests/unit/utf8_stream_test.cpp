// host/terminal/utf8_stream: a terminal's output made UTF-8 for the wire, piece by piece.
#include "host/terminal/utf8_stream.hpp"

#include <gtest/gtest.h>

namespace rio {
namespace {

TEST(Utf8Stream, ACharacterSplitBetweenReadsArrivesWholeInTheLaterOne) {
    Utf8Stream stream;
    EXPECT_EQ(stream.take("caf\xC3"), "caf");
    EXPECT_EQ(stream.take("\xA9!"), "\xC3\xA9!");
    EXPECT_EQ(stream.take("\xF0\x9F"), "");
    EXPECT_EQ(stream.take("\x98"), "");
    EXPECT_EQ(stream.take("\x80"), "\xF0\x9F\x98\x80");
}

TEST(Utf8Stream, BytesThatAreNotUtf8BecomeReplacementCharacters) {
    Utf8Stream stream;
    EXPECT_EQ(stream.take("\xFF\xFE"
                          "ok"),
              "\xEF\xBF\xBD\xEF\xBF\xBDok");
    // A stray continuation byte at the end is no character's start: replaced, not held.
    EXPECT_EQ(stream.take("a\x80"), "a\xEF\xBF\xBD");
    // A start whose next piece does not continue it is replaced then.
    EXPECT_EQ(stream.take("\xE2"), "");
    EXPECT_EQ(stream.take("x"), "\xEF\xBF\xBDx");
}

} // namespace
} // namespace rio
