#include "core/document.hpp"
#include "core/text_format.hpp"
#include "text/utf8.hpp"

#include <gtest/gtest.h>
#include <tuple>
#include <vector>

namespace rio {
namespace {

TEST(TextFormat, PlainUtf8DecodesUnchanged) {
    auto d = decode_text("héllo\n", "a.txt");
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d->text, "héllo\n");
    EXPECT_EQ(d->encoding, Encoding::utf8);
    EXPECT_EQ(encode_text(d->text, d->encoding), "héllo\n");
}

TEST(TextFormat, BomIsRemembered_AndRestoredOnEncode) {
    std::string bytes = "\xEF\xBB\xBFx = 1\r\n";
    auto d = decode_text(bytes, "a.txt");
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d->encoding, Encoding::utf8_bom);
    EXPECT_EQ(d->text, "x = 1\r\n");
    EXPECT_EQ(encode_text(d->text, d->encoding), bytes);
}

TEST(TextFormat, LineEndingsAreDetectedAndKeptVerbatim) {
    EXPECT_EQ(detect_eol(""), Eol::none);
    EXPECT_EQ(detect_eol("no newline"), Eol::none);
    EXPECT_EQ(detect_eol("a\nb\n"), Eol::lf);
    EXPECT_EQ(detect_eol("a\r\nb\r\n"), Eol::crlf);
    EXPECT_EQ(detect_eol("a\r\nb\nc\r\n"), Eol::mixed);
    auto d = decode_text("a\r\nb\nc\r\n", "m.txt");
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d->text, "a\r\nb\nc\r\n");
}

TEST(TextFormat, InvalidUtf8IsRefusedWithTheOffendingByte) {
    auto d = decode_text(std::string("ok\n\xC3\x28", 5), "latin1.txt");
    ASSERT_FALSE(d.ok());
    EXPECT_EQ(d.error().code, ErrorCode::refused);
    EXPECT_EQ(d.error().message, "latin1.txt is not valid UTF-8 (byte 0xC3 at offset 3); rio "
                                 "edits only UTF-8 text and will not rewrite it");
}

TEST(TextFormat, OffsetsInMessagesCountTheBom) {
    auto d = decode_text("\xEF\xBB\xBF"
                         "ab\xFF",
                         "b.txt");
    ASSERT_FALSE(d.ok());
    EXPECT_NE(d.error().message.find("at offset 5"), std::string::npos) << d.error().message;
}

TEST(TextFormat, NulBytesMarkABinaryFile) {
    auto d = decode_text(std::string("PK\0\3", 4), "x.zip");
    ASSERT_FALSE(d.ok());
    EXPECT_EQ(d.error().code, ErrorCode::refused);
    EXPECT_NE(d.error().message.find("looks binary"), std::string::npos);
}

TEST(TextFormat, Utf8ValidatorRejectsEveryIllFormedClass) {
    EXPECT_FALSE(find_invalid_utf8("plain ascii that is longer than eight bytes"));
    EXPECT_FALSE(find_invalid_utf8("\xF0\x9F\x98\x80 emoji, \xE2\x82\xAC euro"));
    EXPECT_EQ(find_invalid_utf8("\xC0\xAF"), 0u);         // overlong '/'
    EXPECT_EQ(find_invalid_utf8("ab\xED\xA0\x80"), 2u);   // surrogate U+D800
    EXPECT_EQ(find_invalid_utf8("\xF4\x90\x80\x80"), 0u); // above U+10FFFF
    EXPECT_EQ(find_invalid_utf8("12345678\x80"), 8u);     // stray continuation after fast path
    EXPECT_EQ(find_invalid_utf8("\xE2\x82"), 0u);         // truncated
}

TEST(TextFormat, TheOneDecoderRefusesOverlongsSurrogatesAndTruncation) {
    auto decoded = [](std::string_view s) {
        DecodedChar d = decode_utf8(s, 0);
        return std::tuple(static_cast<std::uint32_t>(d.cp), d.length, d.valid);
    };
    EXPECT_EQ(decoded("A"), std::tuple(0x41u, std::size_t{1}, true));
    EXPECT_EQ(decoded("\xC3\xA9"), std::tuple(0xE9u, std::size_t{2}, true));
    EXPECT_EQ(decoded("\xF0\x9F\x98\x80"), std::tuple(0x1F600u, std::size_t{4}, true));
    EXPECT_EQ(decoded("\xC1\x81"), std::tuple(0xFFFDu, std::size_t{1}, false)) << "overlong 'A'";
    EXPECT_EQ(decoded("\xE0\x81\x81"), std::tuple(0xFFFDu, std::size_t{1}, false));
    EXPECT_EQ(decoded("\xED\xA0\x80"), std::tuple(0xFFFDu, std::size_t{1}, false)) << "U+D800";
    EXPECT_EQ(decoded("\xE2\x82"), std::tuple(0xFFFDu, std::size_t{1}, false)) << "truncated";
    std::string out;
    for (char32_t cp : {U'a', U'\u00e9', U'\u20ac', U'\U0001F600'})
        append_utf8(out, cp);
    EXPECT_EQ(out, "a\u00e9\u20ac\U0001F600");
    std::size_t at = 0;
    std::vector<std::uint32_t> cps;
    while (at < out.size())
        cps.push_back(next_code_point(out, at));
    EXPECT_EQ(cps, (std::vector<std::uint32_t>{0x61, 0xE9, 0x20AC, 0x1F600}));
}

TEST(TextFormat, ToValidUtf8ReplacesEachIllFormedRunWithOneReplacementCharacter) {
    EXPECT_EQ(to_valid_utf8("plain é"), "plain é");
    EXPECT_EQ(to_valid_utf8("a\xFF"
                            "b"),
              "a\uFFFD"
              "b");
    EXPECT_EQ(to_valid_utf8("\xE2\x82"
                            "x"),
              "\uFFFD"
              "x")
        << "a truncated sequence is one run";
    EXPECT_EQ(to_valid_utf8("\xC0\xAF"), "\uFFFD\uFFFD") << "overlong bytes are two runs";
}

Document doc_with(std::string text) {
    Document d;
    d.path = "a.txt";
    d.text = std::move(text);
    return d;
}

TEST(Document, EditReplacesARangeAndBumpsTheVersion) {
    Document d = doc_with("hello world");
    ASSERT_TRUE(apply_edit(d, {6, 11, "rio"}).ok());
    EXPECT_EQ(d.text, "hello rio");
    EXPECT_EQ(d.version, 2u);
    EXPECT_TRUE(d.dirty());
}

// Undo in an editor arrives as the edit that puts the text back: the buffer is clean again.
TEST(Document, EditsBackToTheSavedTextLeaveItClean) {
    Document d = doc_with("hello");
    mark_saved(d);
    ASSERT_TRUE(apply_edit(d, {5, 5, "!"}).ok());
    EXPECT_TRUE(d.dirty());
    ASSERT_TRUE(apply_edit(d, {5, 6, ""}).ok());
    EXPECT_EQ(d.version, 3u);
    EXPECT_FALSE(d.dirty());
    ASSERT_TRUE(apply_edit(d, {0, 1, "j"}).ok()); // same size, other text
    EXPECT_TRUE(d.dirty());
    mark_saved(d);
    EXPECT_FALSE(d.dirty());
    ASSERT_TRUE(apply_edit(d, {0, 1, "h"}).ok()); // the text saved before is not the saved one now
    EXPECT_TRUE(d.dirty());
}

TEST(Document, EditOutsideTheTextIsRefusedAndChangesNothing) {
    Document d = doc_with("abc");
    auto s = apply_edit(d, {2, 9, "x"});
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, ErrorCode::bad_request);
    EXPECT_EQ(s.error().message, "range 2..9 is outside a.txt (3 bytes)");
    EXPECT_FALSE(apply_edit(d, {2, 1, ""}).ok());
    EXPECT_EQ(d.text, "abc");
    EXPECT_EQ(d.version, 1u);
}

TEST(Document, EditInsideAUtf8CharacterIsRefused) {
    Document d = doc_with("é");
    auto s = apply_edit(d, {1, 2, "x"});
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().message, "offset 1 is inside a UTF-8 character of a.txt");
    EXPECT_EQ(d.text, "é");
}

TEST(Document, InvalidReplacementTextIsRefused) {
    Document d = doc_with("abc");
    EXPECT_FALSE(apply_edit(d, {0, 0, "\xff"}).ok());
    EXPECT_EQ(d.text, "abc");
}

} // namespace
} // namespace rio
