// rio's Markdown document model (DESIGN §2): one md4c parse into plain structs that two
// painters read — Qt (plan view, manual) and ANSI (terminal). No painter parses Markdown.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rio::md {

enum class SpanKind {
    text,       // `text` (entities decoded; raw HTML kept as text, never interpreted)
    code,       // inline code: `text`
    emphasis,   // children
    strong,     // children
    strike,     // children
    link,       // children, `href`
    image,      // children are the alt text, `href` the source
    soft_break, // a line break inside a paragraph that a painter may reflow
    hard_break,
};

struct Span {
    SpanKind kind = SpanKind::text;
    std::string text;
    std::string href;
    std::string title; // link, image: the optional "title" (a tooltip), usually empty
    std::vector<Span> children;
};

enum class BlockKind {
    document,   // children
    heading,    // level 1–6, spans, anchor
    paragraph,  // spans
    code,       // info (language), text (verbatim, ends in '\n')
    quote,      // children
    list,       // ordered, start, tight, children (items)
    item,       // task (nullopt, or checked/unchecked), children (text in paragraphs, tight too)
    table,      // aligns, children (rows; the first is the header)
    table_row,  // children (cells)
    table_cell, // spans
    rule,       // a thematic break
    html,       // text (raw HTML, shown as text by painters)
};

enum class Align { none, left, center, right };

struct Block {
    BlockKind kind = BlockKind::document;
    int level = 0;               // heading
    bool ordered = false;        // list
    unsigned start = 1;          // ordered list
    bool tight = true;           // list
    std::optional<bool> task;    // item: [ ] or [x]
    std::string info;            // code: the fence's language (its info string's first word)
    std::string text;            // code, html
    std::string anchor;          // heading: its #fragment, GitHub style, unique in the document
    std::vector<Align> aligns;   // table: one per column
    std::vector<Span> spans;     // heading, paragraph, table_cell
    std::vector<Block> children; // document, quote, list, item, table, table_row
};

// CommonMark plus GitHub's tables, task lists, strikethrough and bare-URL autolinks. Never
// fails: any text is some document (invalid UTF-8 and NULs become U+FFFD; nesting deeper
// than 32 blocks or spans is flattened, its text kept).
Block parse(std::string_view markdown);

// The plain text of spans (for anchors, search, tests).
std::string plain_text(const std::vector<Span>& spans);

// "Plan mode & you!" -> "plan-mode--you" (GitHub's rule: lowercase, drop punctuation other
// than '-' and '_', spaces to '-').
std::string anchor_for(std::string_view heading_text);

} // namespace rio::md
