#include "cli/ansi_painter.hpp"
#include "core/text_format.hpp"

#include <gtest/gtest.h>

namespace rio::md {
namespace {

std::string plain(std::string_view markdown, int width = 80) {
    return paint_ansi(parse(markdown), {false, width});
}

std::string colored(std::string_view markdown, int width = 80) {
    return paint_ansi(parse(markdown), {true, width});
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t nl = text.find('\n', at);
        lines.push_back(text.substr(at, nl - at));
        if (nl == std::string::npos) break;
        at = nl + 1;
    }
    return lines;
}

std::string without_sgr(std::string text) {
    for (std::size_t at = text.find('\x1b'); at != std::string::npos; at = text.find('\x1b', at))
        text.erase(at, text.find('m', at) + 1 - at);
    return text;
}

// What a plan from the model looks like: every construct, some of it too wide for a
// terminal.
constexpr std::string_view rich_plan = R"(# Add a `--verbose` flag

This plan adds a **verbose** mode to *rio-cli*, with ~~no~~ minimal changes. See
[the docs](https://example.com/docs/cli/flags#verbose) or https://example.com directly.

## Steps

1. Parse the flag in `apps/cli/main.cpp` using CLI11's `add_flag`, already a dependency.
2. Thread it through:
   - the `Options` struct
   - the logger
     - nested deeper, with a *long* item that has to wrap at narrow widths
3. Test it.

### Tasks

- [x] Write the plan
- [ ] Implement it

> **Note:** this touches the public CLI.
> Keep it backwards compatible.

| File | Change | Risk |
|:-----|:------:|-----:|
| `apps/cli/main.cpp` | add the flag and its help text | low |
| `core/log.cpp` | verbosity levels, and a much longer description that needs wrapping | medium |
| 漢字のファイル | 日本語の説明 | — |

```cpp
int main(int argc, char* argv[]) {
	app.add_flag("--verbose", verbose, "Print more"); // a very long comment past the edge
}
```

---

Done &amp; dusted &copy; 2026: 漢字のテキストも折り返します。漢字のテキストも折り返します。
)";

TEST(AnsiPainter, HeadingsAreBoldAndTheTopTwoUnderlined) {
    EXPECT_EQ(plain("# Title\n\n## Sub\n\n### Third\n\ntext"),
              "Title\n━━━━━\n\nSub\n───\n\nThird\n\ntext\n");
    EXPECT_EQ(colored("### Third"), "\x1b[1mThird\x1b[0m\n");
}

TEST(AnsiPainter, ParagraphsWrapAtTheWidth) {
    EXPECT_EQ(plain("The quick brown fox jumps over the lazy dog.\nAgain.", 20),
              "The quick brown fox\njumps over the lazy\ndog. Again.\n");
    EXPECT_EQ(plain("one  \ntwo\\\nthree", 20), "one\ntwo\nthree\n");
    EXPECT_EQ(plain("first\n\nsecond"), "first\n\nsecond\n");
}

TEST(AnsiPainter, LongWordsAreCutAtTheWidth) {
    EXPECT_EQ(plain("ab " + std::string(45, 'x'), 20),
              "ab\n" + std::string(20, 'x') + "\n" + std::string(20, 'x') + "\nxxxxx\n");
}

TEST(AnsiPainter, WrapsByDisplayWidthWithoutSplittingCharacters) {
    std::string out =
        plain("naïve café ünïcödé-wörd-that-keeps-going-on and 漢字漢字漢字漢字漢字漢字", 20);
    EXPECT_EQ(find_invalid_utf8(out), std::nullopt);
    for (const std::string& line : lines_of(out))
        EXPECT_LE(display_width(line), 20) << line;
    EXPECT_EQ(out, "naïve café\nünïcödé-wörd-that-ke\neps-going-on and 漢\n字漢字漢字漢字漢字漢\n"
                   "字\n");
    // A combining mark stays with its letter even where the line is cut.
    std::string accents;
    for (int i = 0; i < 30; ++i)
        accents += "e\u0301";
    for (const std::string& line : lines_of(plain(accents, 20)))
        EXPECT_EQ(line.substr(0, 1), "e");
}

TEST(AnsiPainter, CjkBreaksBetweenCharactersButNotBeforeClosingPunctuation) {
    EXPECT_EQ(plain("漢字のテキスト。次の文。", 14), "漢字のテキス\nト。次の文。\n");
    EXPECT_EQ(plain("「引用」です", 6), "「引\n用」で\nす\n");
    for (const std::string& line : lines_of(plain("「引用」です。「引用」です。", 8)))
        EXPECT_NE(line.substr(0, 3), "\u3002") << "never a line starting with 。";
}

TEST(AnsiPainter, InlineStylesLeaveNoSyntaxBehind) {
    EXPECT_EQ(plain("*a* **b** ~~c~~ `d` ***e*** _f_ __g__"), "a b c d e f g\n");
}

TEST(AnsiPainter, LinksShowTheirDestination) {
    EXPECT_EQ(plain("see [the docs](https://x.org/d) now"), "see the docs (https://x.org/d) now\n");
    EXPECT_EQ(plain("<https://x.org> www.y.org me@z.org [](https://e.org)"),
              "https://x.org www.y.org me@z.org https://e.org\n");
    EXPECT_EQ(plain("![the diagram](arch.png)"), "image: the diagram (arch.png)\n");
}

TEST(AnsiPainter, CodeBlocksAreIndentedAndLongLinesWrapMarked) {
    EXPECT_EQ(plain("```\nshort\n\tthis line is longer than twenty\n```\n", 20),
              "    short\n        this line is\n    ↪  longer than t\n    ↪ wenty\n");
    EXPECT_EQ(plain("```\na\n\n\nb\n```\n\nafter"), "    a\n\n\n    b\n\nafter\n");
}

TEST(AnsiPainter, ListsUseBulletsByDepthAndNumbers) {
    EXPECT_EQ(plain("- a\n  - b\n    - c\n      - d\n- e\n"),
              "• a\n  ◦ b\n    ▪ c\n      • d\n• e\n");
    EXPECT_EQ(plain("9. nine\n10. ten\n"), " 9. nine\n10. ten\n");
    EXPECT_EQ(plain("- a\n\n- b\n"), "• a\n\n• b\n");
    EXPECT_EQ(plain("- a long item that wraps\n", 14), "• a long item\n  that wraps\n");
    EXPECT_EQ(plain("1. first\n\n   more\n2. second\n"), "1. first\n\n   more\n\n2. second\n");
}

TEST(AnsiPainter, TaskItemsShowBoxes) {
    EXPECT_EQ(plain("- [x] done\n- [ ] todo\n1. [ ] step\n"), "☑ done\n☐ todo\n\n1. ☐ step\n");
}

TEST(AnsiPainter, QuotesHaveABar) {
    EXPECT_EQ(plain("> a\n>\n> b\n> - c\n"), "│ a\n│\n│ b\n│\n│ • c\n");
    EXPECT_EQ(plain("> quoted words wrap inside the bar", 16),
              "│ quoted words\n│ wrap inside\n│ the bar\n");
}

TEST(AnsiPainter, RulesSpanTheWidth) {
    EXPECT_EQ(plain("a\n\n---\n\nb", 10), "a\n\n──────────\n\nb\n");
}

TEST(AnsiPainter, HtmlIsShownAsText) {
    EXPECT_EQ(plain("<div>\n<b>x</b>\n</div>\n\na <i>b</i>"),
              "    <div>\n    <b>x</b>\n    </div>\n\na <i>b</i>\n");
}

TEST(AnsiPainter, TablesAreBoxedAndAligned) {
    EXPECT_EQ(plain("| a | b | c |\n|:--|:-:|--:|\n| long | x | 1 |\n| y | wide | 22 |\n"),
              "┌──────┬──────┬────┐\n"
              "│ a    │  b   │  c │\n"
              "├──────┼──────┼────┤\n"
              "│ long │  x   │  1 │\n"
              "│ y    │ wide │ 22 │\n"
              "└──────┴──────┴────┘\n");
}

TEST(AnsiPainter, TablesWithCjkAlignTheirBorders) {
    std::string out = plain("| 名前 | note |\n|---|---|\n| 漢字 | ascii |\n| a | 日本語です |\n");
    std::vector<std::string> lines = lines_of(out);
    ASSERT_EQ(lines.size(), 6u);
    for (const std::string& line : lines)
        EXPECT_EQ(display_width(line), display_width(lines[0])) << line;
    EXPECT_EQ(lines[3], "│ 漢字 │ ascii      │");
}

TEST(AnsiPainter, WideTablesShrinkToTheWidthAndKeepTheirBox) {
    std::string markdown = "| id | description | notes |\n|---|---|---|\n"
                           "| 1 | a rather long description that cannot fit on one line | ok |\n"
                           "| 2 | short | another long cell that also needs wrapping here |\n";
    for (int width : {40, 50, 60}) {
        std::vector<std::string> lines = lines_of(plain(markdown, width));
        ASSERT_GE(lines.size(), 5u);
        int first = display_width(lines.front());
        EXPECT_LE(first, width);
        for (const std::string& line : lines) {
            EXPECT_EQ(display_width(line), first) << line;
            std::string edge = line.substr(0, 3);
            EXPECT_TRUE(edge == "│" || edge == "├" || edge == "┌" || edge == "└") << line;
        }
        EXPECT_EQ(lines.front().substr(0, 3), "┌");
        EXPECT_EQ(lines.back().substr(0, 3), "└");
        EXPECT_NE(lines[3].find("│ 1  │"), std::string::npos) << "narrow columns keep width";
    }
}

TEST(AnsiPainter, TablesTooWideForAnyBoxBecomeRecords) {
    std::string markdown = "| a | b | c | d | e | f |\n|---|---|---|---|---|---|\n"
                           "| 1 | 2 | 3 | 4 | 5 | 6 |\n";
    EXPECT_EQ(plain(markdown, 20), "a: 1\nb: 2\nc: 3\nd: 4\ne: 5\nf: 6\n");
}

TEST(AnsiPainter, ColourIsSgrAndAlwaysReset) {
    EXPECT_EQ(colored("**b** *i* `c` ~~s~~"),
              "\x1b[1mb\x1b[0m \x1b[3mi\x1b[0m \x1b[36mc\x1b[0m \x1b[9ms\x1b[0m\n");
    EXPECT_EQ(colored("**bold *both***"), "\x1b[1mbold \x1b[0;1;3mboth\x1b[0m\n");
    EXPECT_EQ(colored("[a b](u)"), "\x1b[4ma b\x1b[0;2m (u)\x1b[0m\n");
    EXPECT_EQ(colored("- [x] done"), "\x1b[32m☑\x1b[0m done\n");
    for (const std::string& line : lines_of(colored(rich_plan))) {
        std::size_t last = line.rfind('\x1b');
        if (last == std::string::npos) continue;
        EXPECT_EQ(line.substr(last, 4), "\x1b[0m") << "the last escape resets: " << line;
    }
}

TEST(AnsiPainter, ColourDoesNotChangeTheLayout) {
    for (int width : {20, 40, 80}) {
        std::string bare = paint_ansi(parse(rich_plan), {false, width});
        EXPECT_EQ(bare.find('\x1b'), std::string::npos);
        EXPECT_EQ(without_sgr(paint_ansi(parse(rich_plan), {true, width})), bare);
    }
}

TEST(AnsiPainter, ControlCharactersAreShownNotSent) {
    std::string out = plain("red \x1b[31mtext\x07\n\n```\n\x1b]0;title\x07\n```\n");
    EXPECT_EQ(out.find('\x1b'), std::string::npos);
    EXPECT_EQ(out.find('\x07'), std::string::npos);
    EXPECT_EQ(out, "red \\e[31mtext^G\n\n    \\e]0;title^G\n");
    EXPECT_EQ(colored("\x1b[2J").find("\x1b[2J"), std::string::npos);
}

TEST(AnsiPainter, RichPlanLeavesNoMarkdownSyntax) {
    for (int width : {20, 40, 80, 120}) {
        std::string out = plain(rich_plan, width);
        for (std::string_view syntax :
             {"**", "~~", "`", "|---|", "|:--", "[x]", "[ ]", "](", "&amp;"})
            EXPECT_EQ(out.find(syntax), std::string::npos) << syntax << " at width " << width;
        for (const std::string& line : lines_of(out)) {
            EXPECT_NE(line.substr(0, 1), "#") << line;
            EXPECT_NE(line.substr(0, 1), "|") << line;
        }
    }
}

TEST(AnsiPainter, EveryLineFitsTheWidth) {
    for (int width : {20, 30, 40, 60, 80, 120}) {
        std::string out = plain(rich_plan, width);
        ASSERT_FALSE(out.empty());
        EXPECT_EQ(out.back(), '\n');
        EXPECT_NE(out.substr(out.size() - 2), "\n\n") << "one newline at the end";
        EXPECT_EQ(out.find("\n\n\n"), std::string::npos) << "one blank line between blocks";
        EXPECT_EQ(find_invalid_utf8(out), std::nullopt);
        for (const std::string& line : lines_of(out)) {
            EXPECT_LE(display_width(line), width) << line;
            EXPECT_TRUE(line.empty() || line.back() != ' ') << "trailing space: " << line;
        }
    }
}

TEST(AnsiPainter, EmptyDocumentPaintsNothing) {
    EXPECT_EQ(plain(""), "");
    EXPECT_EQ(colored("\n\n"), "");
}

TEST(AnsiPainter, PathologicalDocumentsStillPaint) {
    std::string out = plain(std::string(1 << 20, 'x'), 80);
    EXPECT_EQ(out.size(), (1u << 20) + lines_of(out).size());
    EXPECT_FALSE(plain(std::string(1000, '>') + " deep").empty());
    EXPECT_FALSE(plain("- a\n  - b\n    - c\n      - d\n        - e\n", 1).empty());
}

TEST(AnsiDisplayWidth, CountsTerminalColumns) {
    EXPECT_EQ(display_width(""), 0);
    EXPECT_EQ(display_width("hello"), 5);
    EXPECT_EQ(display_width("漢字"), 4);
    EXPECT_EQ(display_width("ｈｉ"), 4) << "fullwidth forms";
    EXPECT_EQ(display_width("한국어"), 6);
    EXPECT_EQ(display_width("😀🚀"), 4);
    EXPECT_EQ(display_width("e\u0301"), 1) << "combining acute";
    EXPECT_EQ(display_width("a\u200Bb"), 2) << "zero-width space";
    EXPECT_EQ(display_width("\u2764\uFE0F"), 1) << "variation selectors take no column";
    EXPECT_EQ(display_width("café ☐ │ ─ •"), 12) << "ambiguous width counts as narrow";
}

TEST(AnsiDisplayWidth, SkipsEscapeSequences) {
    EXPECT_EQ(display_width("\x1b[1;36mab\x1b[0m"), 2);
    EXPECT_EQ(display_width("\x1b]8;;https://x.org\x1b\\link\x1b]8;;\x1b\\"), 4);
    EXPECT_EQ(display_width("\x1b]0;title\x07x"), 1);
    EXPECT_EQ(display_width("\x1b"), 0);
}

TEST(AnsiDisplayWidth, CountsBrokenBytesAsOneColumnEach) {
    EXPECT_EQ(display_width("a\xFF\xFE"), 3);
    EXPECT_EQ(display_width("\xE6\xBC"), 2) << "a truncated character";
}

} // namespace
} // namespace rio::md
