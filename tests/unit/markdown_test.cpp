#include "text/markdown.hpp"
#include "core/text_format.hpp"

#include <chrono>
#include <gtest/gtest.h>

namespace rio::md {
namespace {

// The tree as an s-expression: "(p "a " (em "b"))". Blocks print their kind and the fields
// that kind uses; spans likewise.
std::string dump(const std::vector<Span>& spans);

std::string dump(const Span& span) {
    switch (span.kind) {
    case SpanKind::text:
        return "\"" + span.text + "\"";
    case SpanKind::code:
        return "(code \"" + span.text + "\")";
    case SpanKind::emphasis:
        return "(em" + dump(span.children) + ")";
    case SpanKind::strong:
        return "(strong" + dump(span.children) + ")";
    case SpanKind::strike:
        return "(del" + dump(span.children) + ")";
    case SpanKind::link:
        return "(a " + span.href + (span.title.empty() ? "" : " title=" + span.title) +
               dump(span.children) + ")";
    case SpanKind::image:
        return "(img " + span.href + dump(span.children) + ")";
    case SpanKind::soft_break:
        return "/";
    case SpanKind::hard_break:
        return "//";
    }
    return "?";
}

std::string dump(const std::vector<Span>& spans) {
    std::string out;
    for (const Span& span : spans)
        out += " " + dump(span);
    return out;
}

std::string dump(const Block& block) {
    std::string out;
    switch (block.kind) {
    case BlockKind::document:
        out = "(doc";
        break;
    case BlockKind::heading:
        out = "(h" + std::to_string(block.level) + " #" + block.anchor;
        break;
    case BlockKind::paragraph:
        out = "(p";
        break;
    case BlockKind::code:
        out = "(code " + block.info + " \"" + block.text + "\"";
        break;
    case BlockKind::quote:
        out = "(quote";
        break;
    case BlockKind::list:
        out = block.ordered ? "(ol " + std::to_string(block.start) : "(ul";
        out += block.tight ? " tight" : " loose";
        break;
    case BlockKind::item:
        out = "(li";
        if (block.task) out += *block.task ? " [x]" : " [ ]";
        break;
    case BlockKind::table:
        out = "(table";
        for (Align align : block.aligns)
            out += align == Align::left     ? " L"
                   : align == Align::center ? " C"
                   : align == Align::right  ? " R"
                                            : " -";
        break;
    case BlockKind::table_row:
        out = "(tr";
        break;
    case BlockKind::table_cell:
        out = "(td";
        break;
    case BlockKind::rule:
        out = "(hr";
        break;
    case BlockKind::html:
        out = "(html \"" + block.text + "\"";
        break;
    }
    out += dump(block.spans);
    for (const Block& child : block.children)
        out += " " + dump(child);
    return out + ")";
}

std::string tree(std::string_view markdown) {
    return dump(parse(markdown));
}

int block_depth(const Block& block) {
    int deepest = 0;
    for (const Block& child : block.children)
        deepest = std::max(deepest, block_depth(child));
    return deepest + 1;
}

int span_depth(const std::vector<Span>& spans) {
    int deepest = 0;
    for (const Span& span : spans)
        deepest = std::max(deepest, span_depth(span.children) + 1);
    return deepest;
}

int deepest_spans(const Block& block) {
    int deepest = span_depth(block.spans);
    for (const Block& child : block.children)
        deepest = std::max(deepest, deepest_spans(child));
    return deepest;
}

TEST(Markdown, HeadingsCarryLevelsAndUniqueAnchors) {
    EXPECT_EQ(tree("# Usage\n\n## Usage\n\n###### Usage\n\n# Usage 1\n"),
              "(doc (h1 #usage \"Usage\") (h2 #usage-1 \"Usage\") (h6 #usage-2 \"Usage\") "
              "(h1 #usage-1-1 \"Usage 1\"))");
    EXPECT_EQ(tree("Setext\n======\n\nTwo\n---\n"),
              "(doc (h1 #setext \"Setext\") (h2 #two \"Two\"))");
    EXPECT_EQ(tree("## The `--verbose` *flag*"),
              "(doc (h2 #the---verbose-flag \"The \" (code \"--verbose\") \" \" (em \"flag\")))");
}

TEST(Markdown, AnchorsFollowGitHub) {
    EXPECT_EQ(anchor_for("Plan mode & you!"), "plan-mode--you");
    EXPECT_EQ(anchor_for("C++ API (v2.0)"), "c-api-v20");
    EXPECT_EQ(anchor_for("snake_case and-dash"), "snake_case-and-dash");
    EXPECT_EQ(anchor_for("Über Größe"), "über-größe");
    EXPECT_EQ(anchor_for("Ελληνικά Кириллица"), "ελληνικά-кириллица");
    EXPECT_EQ(anchor_for("Plan \u2014 \u201Cquoted\u201D \U0001F680"), "plan--quoted-");
    EXPECT_EQ(anchor_for("漢字の見出し"), "漢字の見出し");
    EXPECT_EQ(anchor_for(""), "");
    EXPECT_EQ(anchor_for("bad \xFF byte"), "bad--byte");
}

TEST(Markdown, EmphasisNests) {
    EXPECT_EQ(tree("*a **b** c* ~~d *e*~~ ***f***"),
              "(doc (p (em \"a \" (strong \"b\") \" c\") \" \" (del \"d \" (em \"e\")) \" \" "
              "(em (strong \"f\"))))");
    EXPECT_EQ(tree("2*3*4 and a*b"), "(doc (p \"2\" (em \"3\") \"4 and a*b\"))");
}

TEST(Markdown, InlineCodeKeepsItsText) {
    EXPECT_EQ(tree("`a  *b* &amp;` and `` c`d ``"),
              "(doc (p (code \"a  *b* &amp;\") \" and \" (code \"c`d\")))");
    EXPECT_EQ(tree("`one\ntwo`"), "(doc (p (code \"one two\")))");
}

TEST(Markdown, LinksKeepDestinationAndTitle) {
    EXPECT_EQ(tree("[the *docs*](https://x.org/a?b=1&amp;c=2 \"Docs &amp; more\")"),
              "(doc (p (a https://x.org/a?b=1&c=2 title=Docs & more \"the \" (em \"docs\"))))");
    EXPECT_EQ(tree("[ref][1]\n\n[1]: ./plan.md#steps\n"), "(doc (p (a ./plan.md#steps \"ref\")))");
    EXPECT_EQ(tree("![a *diagram*](arch.png)"), "(doc (p (img arch.png \"a \" (em \"diagram\"))))");
}

TEST(Markdown, AutolinksBecomeLinks) {
    EXPECT_EQ(tree("<https://x.org> https://y.org/p?q=1. www.z.org me@x.org"),
              "(doc (p (a https://x.org \"https://x.org\") \" \" "
              "(a https://y.org/p?q=1 \"https://y.org/p?q=1\") \". \" "
              "(a http://www.z.org \"www.z.org\") \" \" (a mailto:me@x.org \"me@x.org\")))");
}

TEST(Markdown, CodeBlocksKeepInfoAndVerbatimText) {
    EXPECT_EQ(tree("```cpp title=\"x\"\n  int a;\n\n*b* &amp; <i>\n```\n"),
              "(doc (code cpp \"  int a;\n\n*b* &amp; <i>\n\"))");
    EXPECT_EQ(tree("~~~\nno info\n~~~"), "(doc (code  \"no info\n\"))");
    EXPECT_EQ(tree("    indented\n      more\n"), "(doc (code  \"indented\n  more\n\"))");
    EXPECT_EQ(tree("```\nnever closed"), "(doc (code  \"never closed\n\"))");
    EXPECT_EQ(tree("```\n```"), "(doc (code  \"\"))");
}

TEST(Markdown, CodeTextArrivingInPiecesIsJoined) {
    std::string body;
    for (int i = 0; i < 200; ++i)
        body += "line " + std::to_string(i) + " &amp; `x`\n";
    Block doc = parse("```\n" + body + "```\n");
    ASSERT_EQ(doc.children.size(), 1u);
    EXPECT_EQ(doc.children[0].text, body);
}

TEST(Markdown, ListsNestOrderAndKnowTightFromLoose) {
    EXPECT_EQ(tree("- a\n- b\n  - c\n"),
              "(doc (ul tight (li (p \"a\")) (li (p \"b\") (ul tight (li (p \"c\"))))))");
    EXPECT_EQ(tree("3. x\n4. y\n"), "(doc (ol 3 tight (li (p \"x\")) (li (p \"y\"))))");
    EXPECT_EQ(tree("1) p\n\n2) q\n"), "(doc (ol 1 loose (li (p \"p\")) (li (p \"q\"))))");
    EXPECT_EQ(tree("- a\n\n  more\n- b\n"),
              "(doc (ul loose (li (p \"a\") (p \"more\")) (li (p \"b\"))))");
    EXPECT_EQ(tree("- *a* b\n"), "(doc (ul tight (li (p (em \"a\") \" b\"))))");
    EXPECT_EQ(tree("-\n- b"), "(doc (ul tight (li) (li (p \"b\"))))");
}

TEST(Markdown, TaskItemsAreChecked) {
    EXPECT_EQ(tree("- [ ] todo\n- [x] done\n- [X] DONE\n- plain\n1. [ ] numbered\n"),
              "(doc (ul tight (li [ ] (p \"todo\")) (li [x] (p \"done\")) (li [x] (p \"DONE\")) "
              "(li (p \"plain\"))) (ol 1 tight (li [ ] (p \"numbered\"))))");
    EXPECT_EQ(tree("[ ] not in a list"), "(doc (p \"[ ] not in a list\"))");
}

TEST(Markdown, TablesKeepAlignmentAndRows) {
    EXPECT_EQ(tree("| a | b | c | d |\n|:--|:-:|--:|---|\n| 1 | *2* | `3` | 4 |\n"),
              "(doc (table L C R - (tr (td \"a\") (td \"b\") (td \"c\") (td \"d\")) "
              "(tr (td \"1\") (td (em \"2\")) (td (code \"3\")) (td \"4\"))))");
    // GitHub: a short row gets empty cells, a long one loses its extra cells.
    EXPECT_EQ(tree("| x | y |\n|---|---|\n| 1 |\n| 2 | 3 | 4 |\n"),
              "(doc (table - - (tr (td \"x\") (td \"y\")) (tr (td \"1\") (td)) "
              "(tr (td \"2\") (td \"3\"))))");
    EXPECT_EQ(tree("| a \\| b |\n|---|\n"), "(doc (table - (tr (td \"a | b\"))))");
}

TEST(Markdown, QuotesAndRules) {
    EXPECT_EQ(tree("> a\n> > b\n\n---\n\n***\n"),
              "(doc (quote (p \"a\") (quote (p \"b\"))) (hr) (hr))");
}

TEST(Markdown, HtmlIsKeptAsText) {
    EXPECT_EQ(tree("<div>\n*x*\n</div>\n"), "(doc (html \"<div>\n*x*\n</div>\n\"))");
    EXPECT_EQ(tree("<script>alert(1)</script>\n"), "(doc (html \"<script>alert(1)</script>\n\"))");
    EXPECT_EQ(tree("a <b>bold</b> <!-- c -->"), "(doc (p \"a <b>bold</b> <!-- c -->\"))");
}

TEST(Markdown, EntitiesDecodeToUtf8) {
    EXPECT_EQ(tree("&amp; &lt;&gt; &quot; &copy; &mdash; &#35; &#x1F600; &nbsp;|"),
              "(doc (p \"& <> \" © — # 😀 \u00A0|\"))");
    EXPECT_EQ(tree("&#0; &#xD800; &#x110000;"), "(doc (p \"\uFFFD \uFFFD \uFFFD\"))");
    EXPECT_EQ(tree("&bogus; &amp"), "(doc (p \"&bogus; &amp\"))");
}

TEST(Markdown, NulAndInvalidUtf8BecomeReplacementCharacters) {
    using namespace std::string_literals;
    EXPECT_EQ(tree("a\0b `c\0`\n\n```\nx\0y\n```\n"s),
              "(doc (p \"a\uFFFDb \" (code \"c\uFFFD\")) (code  \"x\uFFFDy\n\"))");
    Block doc = parse("caf\xC3 \xFF\xFE ok");
    EXPECT_EQ(find_invalid_utf8(plain_text(doc.children.at(0).spans)), std::nullopt);
}

TEST(Markdown, BreaksAreSpans) {
    EXPECT_EQ(tree("one\ntwo  \nthree\\\nfour"),
              "(doc (p \"one\" / \"two\" // \"three\" // \"four\"))");
}

TEST(Markdown, EmptyInputIsAnEmptyDocument) {
    EXPECT_EQ(tree(""), "(doc)");
    EXPECT_EQ(tree("  \n\n\t\n"), "(doc)");
}

TEST(Markdown, PlainTextJoinsSpans) {
    Block doc = parse("a *b* `c` [d](u) ![e](f)\ng");
    EXPECT_EQ(plain_text(doc.children.at(0).spans), "a b c d e g");
}

TEST(Markdown, PathologicalInputsReturnQuicklyAndStayShallow) {
    std::vector<std::string> inputs = {
        std::string(1 << 20, 'a'),  std::string(1 << 20, '>'),
        std::string(1 << 20, '['),  std::string(1 << 20, '`'),
        std::string(1 << 20, '<'),  std::string(1 << 19, '*') + "a" + std::string(1 << 19, '*'),
        std::string(1 << 20, '\0'),
    };
    std::string stars, links, nested_list, quotes;
    for (int i = 0; i < 100000; ++i) {
        stars += "*a";
        links += "[a](";
    }
    for (int i = 0; i < 1000; ++i) {
        nested_list += std::string(2 * static_cast<std::size_t>(i), ' ') + "- x\n";
        quotes += std::string(static_cast<std::size_t>(i), '>') + " q\n";
    }
    inputs.insert(inputs.end(), {stars, links, nested_list, quotes});
    for (const std::string& input : inputs) {
        auto start = std::chrono::steady_clock::now();
        Block doc = parse(input);
        auto took = std::chrono::steady_clock::now() - start;
        EXPECT_LT(took, std::chrono::seconds(3)) << input.substr(0, 20);
        EXPECT_LE(block_depth(doc), 33) << input.substr(0, 20);
        EXPECT_LE(deepest_spans(doc), 33) << "32 spans and their text: " << input.substr(0, 20);
    }
}

TEST(Markdown, DeepNestingKeepsItsText) {
    Block doc = parse(std::string(100, '>') + " deep");
    EXPECT_EQ(block_depth(doc), 33);
    const Block* block = &doc;
    while (!block->children.empty())
        block = &block->children.back();
    EXPECT_EQ(plain_text(block->spans), "deep");
}

} // namespace
} // namespace rio::md
