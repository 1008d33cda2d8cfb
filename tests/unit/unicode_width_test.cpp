#include "cli/unicode_width.hpp"
#include "text/utf8.hpp"

#include <gtest/gtest.h>
#include <string>

namespace rio::md {
namespace {

TEST(UnicodeWidth, DecodesOneCodePointAndItsLength) {
    DecodedChar ascii = decode_utf8("a", 0);
    EXPECT_EQ(ascii.cp, U'a');
    EXPECT_EQ(ascii.length, 1u);
    EXPECT_TRUE(ascii.valid);
    std::string text = "é漢😀";
    EXPECT_EQ(decode_utf8(text, 0).cp, U'é');
    EXPECT_EQ(decode_utf8(text, 0).length, 2u);
    EXPECT_EQ(decode_utf8(text, 2).cp, U'漢');
    EXPECT_EQ(decode_utf8(text, 2).length, 3u);
    EXPECT_EQ(decode_utf8(text, 5).cp, U'😀');
    EXPECT_EQ(decode_utf8(text, 5).length, 4u);
}

TEST(UnicodeWidth, BytesThatAreNotUtf8DecodeAsOneReplacementByte) {
    for (std::string bad : {"\xFF", "\x80x", "\xE6\xBC", "\xC0\x80", "\xED\xA0\x80"}) {
        DecodedChar d = decode_utf8(bad, 0);
        EXPECT_FALSE(d.valid) << bad;
        EXPECT_EQ(d.length, 1u) << "the caller steps past one byte";
        EXPECT_EQ(d.cp, U'\uFFFD');
    }
}

TEST(UnicodeWidth, ControlsTakeNoColumn) {
    for (char32_t cp : {U'\0', U'\t', U'\x1b', U'\x7f', U'\x85', U'\x9f'})
        EXPECT_EQ(code_point_width(cp), 0) << static_cast<unsigned>(cp);
    EXPECT_EQ(code_point_width(U' '), 1);
    EXPECT_EQ(code_point_width(U'\u00A0'), 1);
}

TEST(UnicodeWidth, CombiningAndFormatCharactersTakeNoColumn) {
    EXPECT_EQ(code_point_width(U'\u0301'), 0) << "combining acute";
    EXPECT_EQ(code_point_width(U'\u20DD'), 0) << "enclosing circle (Me)";
    EXPECT_EQ(code_point_width(U'\u200D'), 0) << "zero-width joiner (Cf)";
    EXPECT_EQ(code_point_width(U'\uFEFF'), 0) << "BOM";
    EXPECT_EQ(code_point_width(U'\U000E0001'), 0) << "language tag";
    EXPECT_EQ(code_point_width(U'\U000E01EF'), 0) << "last variation selector";
    EXPECT_EQ(code_point_width(U'\U000E01F0'), 1);
    EXPECT_EQ(code_point_width(U'\u00AD'), 1) << "soft hyphen: terminals show it";
}

TEST(UnicodeWidth, ZeroWidthWinsOverWide) {
    EXPECT_EQ(code_point_width(U'\u3099'), 0) << "combining kana voiced mark (Mn, W)";
    EXPECT_EQ(code_point_width(U'\U00016FE4'), 0) << "Khitan filler (Mn, W)";
}

TEST(UnicodeWidth, HangulSyllablesAndLeadingJamoAreWide_TheOtherJamoJoinThem) {
    EXPECT_EQ(code_point_width(U'\uAC00'), 2) << "가";
    EXPECT_EQ(code_point_width(U'\u1100'), 2) << "choseong kiyeok";
    EXPECT_EQ(code_point_width(U'\u1160'), 0) << "jungseong filler";
    EXPECT_EQ(code_point_width(U'\u11FF'), 0);
    EXPECT_EQ(code_point_width(U'\uD7B0'), 0);
    EXPECT_EQ(code_point_width(U'\uD7FF'), 0) << "the block's unassigned tail counts as jamo";
    EXPECT_EQ(display_width("\u1100\u1161\u11A8"), 2) << "a syllable from jamo";
}

TEST(UnicodeWidth, EastAsianWideAndFullwidthTakeTwoColumns) {
    EXPECT_EQ(code_point_width(U'漢'), 2);
    EXPECT_EQ(code_point_width(U'ｈ'), 2) << "fullwidth";
    EXPECT_EQ(code_point_width(U'\u3000'), 2) << "ideographic space";
    EXPECT_EQ(code_point_width(U'😀'), 2);
    EXPECT_EQ(code_point_width(U'\u2764'), 1) << "heavy heart: text presentation, narrow";
    EXPECT_EQ(code_point_width(U'ｱ'), 1) << "halfwidth katakana";
}

TEST(UnicodeWidth, UnassignedIdeographsWillBeWide_OtherUnassignedAreNarrow) {
    EXPECT_EQ(code_point_width(U'\uFADA'), 2) << "unassigned in CJK Compatibility Ideographs";
    EXPECT_EQ(code_point_width(U'\U0002A6E0'), 2) << "unassigned in plane 2";
    EXPECT_EQ(code_point_width(U'\U0003FFFD'), 2);
    EXPECT_EQ(code_point_width(U'\U0003FFFE'), 1) << "a noncharacter";
    EXPECT_EQ(code_point_width(U'\u0378'), 1) << "unassigned Greek";
    EXPECT_EQ(code_point_width(U'\U000F0000'), 1) << "private use";
}

TEST(UnicodeWidth, EscapeSequencesAreSkippedWhole) {
    std::string csi = "\x1b[1;36mx";
    EXPECT_EQ(skip_escape(csi, 0), csi.size() - 1);
    EXPECT_EQ(skip_escape("\x1b[1;3", 0), 5u) << "unterminated: to the end";
    std::string osc_bel = "\x1b]0;title\x07x";
    EXPECT_EQ(skip_escape(osc_bel, 0), osc_bel.size() - 1);
    std::string osc_st = "\x1b]8;;u\x1b\\x";
    EXPECT_EQ(skip_escape(osc_st, 0), osc_st.size() - 1);
    EXPECT_EQ(skip_escape("\x1b"
                          "7x",
                          0),
              2u)
        << "ESC and one byte";
    EXPECT_EQ(skip_escape("a\x1b", 1), 2u) << "a lone ESC at the end";
}

TEST(UnicodeWidth, DisplayWidthAddsColumnsBetweenEscapes) {
    EXPECT_EQ(display_width("\x1b[1m漢\x1b[0;3me\u0301\x1b[0m"), 3);
    EXPECT_EQ(display_width("\xFF漢"), 3);
}

} // namespace
} // namespace rio::md
