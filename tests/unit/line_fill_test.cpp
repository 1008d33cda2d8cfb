#include "cli/line_fill.hpp"
#include "cli/unicode_width.hpp"

#include <gtest/gtest.h>
#include <string>
#include <string_view>
#include <vector>

namespace rio::md {
namespace {

std::vector<Token> tokens_of(std::string_view markdown_paragraph) {
    return flow_of(parse(markdown_paragraph).children.at(0).spans, plain);
}

std::vector<std::string> filled(std::string_view markdown_paragraph, int width) {
    std::vector<std::string> texts;
    for (const Line& line : wrap(tokens_of(markdown_paragraph), width)) {
        std::string text;
        for (const Run& run : line)
            text += run.text;
        texts.push_back(text);
    }
    return texts;
}

using Texts = std::vector<std::string>;

TEST(LineFill, CjkMayBreakBetweenCharacters) {
    EXPECT_TRUE(breaks_between(U'漢', U'字'));
    EXPECT_TRUE(breaks_between(U'a', U'漢')) << "next to one wide character is enough";
    EXPECT_TRUE(breaks_between(U'漢', U'a'));
    EXPECT_FALSE(breaks_between(U'a', U'b')) << "narrow text breaks at spaces only";
}

TEST(LineFill, CjkNeverBreaksBeforeClosingOrAfterOpeningPunctuation) {
    for (char32_t closing : {U'。', U'、', U'」', U'）', U'ー', U'ッ', U'ゃ', U'!', U')'})
        EXPECT_FALSE(breaks_between(U'漢', closing)) << static_cast<unsigned>(closing);
    for (char32_t opening : {U'「', U'（', U'『', U'('})
        EXPECT_FALSE(breaks_between(opening, U'漢')) << static_cast<unsigned>(opening);
}

TEST(LineFill, CombiningMarksStayWithTheirBase) {
    EXPECT_FALSE(breaks_between(U'漢', U'\u3099'));
    EXPECT_FALSE(breaks_between(U'\u0301', U'漢'));
    Texts lines = filled("\u304B\u3099\u304B\u3099\u304B\u3099", 2); // か゛ three times
    EXPECT_EQ(lines, (Texts{"\u304B\u3099", "\u304B\u3099", "\u304B\u3099"}));
}

TEST(LineFill, ParagraphsBecomeWordsSpacesAndJoints) {
    std::vector<Token> tokens = tokens_of("**a**b c 漢字");
    std::vector<Token::Kind> kinds;
    kinds.reserve(tokens.size());
    for (const Token& token : tokens)
        kinds.push_back(token.kind);
    EXPECT_EQ(kinds, (std::vector<Token::Kind>{Token::word, Token::space, Token::word, Token::space,
                                               Token::word, Token::joint, Token::word}));
    ASSERT_EQ(tokens[0].runs.size(), 2u) << "one word in two styles";
    EXPECT_EQ(tokens[0].runs[0].style, bold);
    EXPECT_EQ(tokens[0].runs[1].style, plain);
}

TEST(LineFill, FillsGreedilyByDisplayWidth) {
    EXPECT_EQ(filled("aa bb cc dd", 5), (Texts{"aa bb", "cc dd"}));
    EXPECT_EQ(filled("漢字漢字漢字", 5), (Texts{"漢字", "漢字", "漢字"}));
    EXPECT_EQ(filled("ab 漢字です", 6), (Texts{"ab 漢", "字です"}));
    EXPECT_EQ(filled("「引用」です", 6), (Texts{"「引", "用」で", "す"}));
    EXPECT_EQ(filled("a  \nb", 80), (Texts{"a", "b"})) << "a hard break";
}

TEST(LineFill, AWordTooLongIsCutBetweenCharacters) {
    EXPECT_EQ(filled("abcdefg", 3), (Texts{"abc", "def", "g"}));
    EXPECT_EQ(filled("「「「", 3), (Texts{"「", "「", "「"})) << "a wide character is whole";
    std::string accents;
    for (int i = 0; i < 5; ++i)
        accents += "e\u0301";
    for (const std::string& line : filled(accents, 2)) {
        EXPECT_EQ(line.substr(0, 1), "e") << "never a line starting with the mark";
        EXPECT_LE(display_width(line), 2);
    }
}

TEST(LineFill, StylesSurviveTheFilling) {
    std::vector<Line> lines = wrap(tokens_of("x **bold words** y"), 6);
    ASSERT_EQ(lines.size(), 3u);
    ASSERT_EQ(lines[0].size(), 2u);
    EXPECT_EQ(lines[0][1].text, "bold");
    EXPECT_EQ(lines[0][1].style, bold);
    EXPECT_EQ(lines[1][0].style, bold);
}

TEST(LineFill, CodeLinesAreSplitIntoPiecesNotCut) {
    using Pieces = std::vector<std::string>;
    EXPECT_EQ(code_pieces("abcdef", 6), Pieces{"abcdef"});
    EXPECT_EQ(code_pieces("", 6), Pieces{""});
    EXPECT_EQ(code_pieces("abcdefghij", 4), (Pieces{"abcd", "ef", "gh", "ij"}))
        << "continuations leave room for the mark";
    EXPECT_EQ(code_pieces("漢字漢字", 5), (Pieces{"漢字", "漢", "字"}))
        << "a wide character is never halved";
    EXPECT_EQ(code_pieces("e\u0301e\u0301e\u0301", 2), (Pieces{"e\u0301e\u0301", "e\u0301"}))
        << "the mark stays with its base";
    EXPECT_EQ(code_pieces("abc", 1), (Pieces{"a", "b", "c"})) << "at least one column each";
    std::string joined;
    for (const std::string& piece : code_pieces(std::string(200, 'x') + "end", 37))
        joined += piece;
    EXPECT_EQ(joined, std::string(200, 'x') + "end") << "nothing is lost";
}

// Issue 46: a key hint at 120 columns broke inside "[r]"; it breaks between options only.
TEST(LineFill, AKeyHintBreaksBetweenOptionsOnly) {
    const std::string hint = "[y] run  [h] with those hosts  [a] with them always  [w] with the "
                             "network  [u] without the sandbox  [e] with my environment  [n] "
                             "reject";
    std::vector<std::string> lines = option_lines(hint, 60);
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines[0], "[y] run  [h] with those hosts  [a] with them always");
    EXPECT_EQ(lines[1], "[w] with the network  [u] without the sandbox");
    EXPECT_EQ(lines[2], "[e] with my environment  [n] reject");
    for (const std::string& line : lines)
        EXPECT_LE(display_width(line), 60) << line;
    EXPECT_EQ(option_lines(hint, 200), std::vector<std::string>{hint});
    EXPECT_EQ(option_lines("[y] a very long option  [n] no", 5),
              (std::vector<std::string>{"[y] a very long option", "[n] no"}))
        << "an option wider than the line stands alone, whole";
}

} // namespace
} // namespace rio::md
