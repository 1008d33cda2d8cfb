#include "text/markdown.hpp"

#include "text/utf8.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <iterator>
#include <map>
#include <md4c.h>
#include <utility>

namespace rio::md {
namespace {

// Painters and the destructor recurse over the tree, so a hostile `>>>>…` or `*****…` line
// must not become a tree deep enough to overflow the stack. Structure beyond these depths is
// flattened into the innermost kept block: its text survives, its nesting does not.
constexpr std::size_t max_block_depth = 32;
constexpr std::size_t max_span_depth = 32;

constexpr char32_t replacement = 0xFFFD;

struct Entity {
    std::string_view name;
    char32_t cp;
};

// The named references people actually type, sorted by name (byte order) for binary search.
// HTML5 knows some 2,100 more; those stay as written, as CommonMark does for unknown names.
constexpr Entity entities[] = {
    {"Aacute", 0x00C1},  {"Agrave", 0x00C0}, {"Aring", 0x00C5},  {"Auml", 0x00C4},
    {"Ccedil", 0x00C7},  {"Dagger", 0x2021}, {"Delta", 0x0394},  {"Eacute", 0x00C9},
    {"Egrave", 0x00C8},  {"Ntilde", 0x00D1}, {"Oacute", 0x00D3}, {"Omega", 0x03A9},
    {"Oslash", 0x00D8},  {"Ouml", 0x00D6},   {"Prime", 0x2033},  {"Sigma", 0x03A3},
    {"Uacute", 0x00DA},  {"Uuml", 0x00DC},   {"aacute", 0x00E1}, {"acirc", 0x00E2},
    {"agrave", 0x00E0},  {"alpha", 0x03B1},  {"amp", 0x0026},    {"and", 0x2227},
    {"apos", 0x0027},    {"aring", 0x00E5},  {"asymp", 0x2248},  {"atilde", 0x00E3},
    {"auml", 0x00E4},    {"bdquo", 0x201E},  {"beta", 0x03B2},   {"bull", 0x2022},
    {"cap", 0x2229},     {"ccedil", 0x00E7}, {"cent", 0x00A2},   {"check", 0x2713},
    {"clubs", 0x2663},   {"cong", 0x2245},   {"copy", 0x00A9},   {"crarr", 0x21B5},
    {"cross", 0x2717},   {"cup", 0x222A},    {"curren", 0x00A4}, {"dArr", 0x21D3},
    {"dagger", 0x2020},  {"darr", 0x2193},   {"deg", 0x00B0},    {"delta", 0x03B4},
    {"diams", 0x2666},   {"divide", 0x00F7}, {"eacute", 0x00E9}, {"ecirc", 0x00EA},
    {"egrave", 0x00E8},  {"empty", 0x2205},  {"emsp", 0x2003},   {"ensp", 0x2002},
    {"epsilon", 0x03B5}, {"equiv", 0x2261},  {"euml", 0x00EB},   {"euro", 0x20AC},
    {"exist", 0x2203},   {"forall", 0x2200}, {"frac12", 0x00BD}, {"frac14", 0x00BC},
    {"frac34", 0x00BE},  {"gamma", 0x03B3},  {"ge", 0x2265},     {"gt", 0x003E},
    {"hArr", 0x21D4},    {"harr", 0x2194},   {"hearts", 0x2665}, {"hellip", 0x2026},
    {"iacute", 0x00ED},  {"iexcl", 0x00A1},  {"infin", 0x221E},  {"int", 0x222B},
    {"iquest", 0x00BF},  {"isin", 0x2208},   {"iuml", 0x00EF},   {"lArr", 0x21D0},
    {"lambda", 0x03BB},  {"laquo", 0x00AB},  {"larr", 0x2190},   {"lceil", 0x2308},
    {"ldquo", 0x201C},   {"le", 0x2264},     {"lfloor", 0x230A}, {"loz", 0x25CA},
    {"lrm", 0x200E},     {"lsaquo", 0x2039}, {"lsquo", 0x2018},  {"lt", 0x003C},
    {"mdash", 0x2014},   {"micro", 0x00B5},  {"middot", 0x00B7}, {"minus", 0x2212},
    {"mu", 0x03BC},      {"nabla", 0x2207},  {"nbsp", 0x00A0},   {"ndash", 0x2013},
    {"ne", 0x2260},      {"not", 0x00AC},    {"notin", 0x2209},  {"ntilde", 0x00F1},
    {"oacute", 0x00F3},  {"ocirc", 0x00F4},  {"omega", 0x03C9},  {"oplus", 0x2295},
    {"or", 0x2228},      {"ordf", 0x00AA},   {"ordm", 0x00BA},   {"oslash", 0x00F8},
    {"otimes", 0x2297},  {"ouml", 0x00F6},   {"para", 0x00B6},   {"part", 0x2202},
    {"permil", 0x2030},  {"perp", 0x22A5},   {"phi", 0x03C6},    {"pi", 0x03C0},
    {"plusmn", 0x00B1},  {"pound", 0x00A3},  {"prime", 0x2032},  {"prod", 0x220F},
    {"prop", 0x221D},    {"quot", 0x0022},   {"rArr", 0x21D2},   {"radic", 0x221A},
    {"raquo", 0x00BB},   {"rarr", 0x2192},   {"rceil", 0x2309},  {"rdquo", 0x201D},
    {"reg", 0x00AE},     {"rfloor", 0x230B}, {"rlm", 0x200F},    {"rsaquo", 0x203A},
    {"rsquo", 0x2019},   {"sbquo", 0x201A},  {"sdot", 0x22C5},   {"sect", 0x00A7},
    {"shy", 0x00AD},     {"sigma", 0x03C3},  {"sim", 0x223C},    {"spades", 0x2660},
    {"star", 0x2606},    {"starf", 0x2605},  {"sub", 0x2282},    {"sube", 0x2286},
    {"sum", 0x2211},     {"sup", 0x2283},    {"sup1", 0x00B9},   {"sup2", 0x00B2},
    {"sup3", 0x00B3},    {"supe", 0x2287},   {"szlig", 0x00DF},  {"tau", 0x03C4},
    {"there4", 0x2234},  {"thinsp", 0x2009}, {"times", 0x00D7},  {"trade", 0x2122},
    {"uArr", 0x21D1},    {"uacute", 0x00FA}, {"uarr", 0x2191},   {"ugrave", 0x00F9},
    {"uuml", 0x00FC},    {"yacute", 0x00FD}, {"yen", 0x00A5},    {"zwj", 0x200D},
    {"zwnj", 0x200C},
};

int digit_value(char c, bool hex) {
    if (c >= '0' && c <= '9') return c - '0';
    if (hex && c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (hex && c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// "&amp;", "&#35;", "&#x1F600;" as UTF-8. Numeric references to NUL, surrogates or beyond
// U+10FFFF become U+FFFD (CommonMark); an unknown name stays as written.
void append_entity(std::string& out, std::string_view entity) {
    if (entity.size() < 3 || entity.front() != '&' || entity.back() != ';') {
        out += entity;
        return;
    }
    std::string_view name = entity.substr(1, entity.size() - 2);
    if (name.front() == '#') {
        bool hex = name.size() > 1 && (name[1] == 'x' || name[1] == 'X');
        std::string_view digits = name.substr(hex ? 2 : 1);
        if (digits.empty() || digits.size() > 7) {
            out += entity;
            return;
        }
        std::uint32_t cp = 0;
        for (char c : digits) {
            int d = digit_value(c, hex);
            if (d < 0) {
                out += entity;
                return;
            }
            cp = cp * (hex ? 16 : 10) + static_cast<std::uint32_t>(d);
        }
        bool valid = cp != 0 && cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF);
        append_utf8(out, valid ? cp : replacement);
        return;
    }
    auto found = std::lower_bound(std::begin(entities), std::end(entities), name,
                                  [](const Entity& e, std::string_view n) { return e.name < n; });
    if (found != std::end(entities) && found->name == name)
        append_utf8(out, found->cp);
    else
        out += entity;
}

// md4c hands attributes (hrefs, titles, a fence's language) over in typed pieces.
std::string attribute(const MD_ATTRIBUTE& attr) {
    std::string out;
    if (attr.size == 0 || attr.text == nullptr) return out;
    for (std::size_t i = 0; attr.substr_offsets[i] < attr.size; ++i) {
        std::string_view piece(attr.text + attr.substr_offsets[i],
                               attr.substr_offsets[i + 1] - attr.substr_offsets[i]);
        if (attr.substr_types[i] == MD_TEXT_ENTITY)
            append_entity(out, piece);
        else if (attr.substr_types[i] == MD_TEXT_NULLCHAR)
            append_utf8(out, replacement);
        else
            out += piece;
    }
    return out;
}

Align align_of(MD_ALIGN align) {
    switch (align) {
    case MD_ALIGN_LEFT:
        return Align::left;
    case MD_ALIGN_CENTER:
        return Align::center;
    case MD_ALIGN_RIGHT:
        return Align::right;
    default:
        return Align::none;
    }
}

bool carries_spans(BlockKind kind) {
    return kind == BlockKind::heading || kind == BlockKind::paragraph ||
           kind == BlockKind::table_cell;
}

bool verbatim(BlockKind kind) {
    return kind == BlockKind::code || kind == BlockKind::html;
}

Span break_span(SpanKind kind) {
    Span span;
    span.kind = kind;
    return span;
}

void append_text(std::vector<Span>& spans, std::string_view text) {
    if (spans.empty() || spans.back().kind != SpanKind::text) spans.push_back({});
    spans.back().text += text;
}

struct OpenBlock {
    Block block;
    bool implicit = false; // a paragraph rio opened for the bare text of a tight list item
};

// Turns md4c's enter/leave/text calls into the tree: blocks and spans in progress live on
// stacks and move into their parent when they close.
struct Builder {
    std::vector<OpenBlock> blocks{OpenBlock{Block{}, false}}; // [0] is the document
    std::vector<Span> spans;
    std::size_t skipped_blocks = 0; // enters ignored beyond max_block_depth, still to leave
    std::size_t skipped_spans = 0;
    std::map<std::string, int> anchors; // GitHub's counter per anchor already handed out

    // Tight list items hold their text without a paragraph; the model always has one.
    Block& text_block() {
        Block& top = blocks.back().block;
        if (carries_spans(top.kind) || verbatim(top.kind)) return top;
        Block paragraph;
        paragraph.kind = BlockKind::paragraph;
        blocks.push_back({std::move(paragraph), true});
        return blocks.back().block;
    }

    std::vector<Span>& span_target() {
        return spans.empty() ? text_block().spans : spans.back().children;
    }

    void close_span() {
        Span span = std::move(spans.back());
        spans.pop_back();
        span_target().push_back(std::move(span));
    }

    // github-slugger: the second "Usage" is "usage-1", and a heading literally called
    // "Usage 1" after that becomes "usage-1-1".
    std::string unique_anchor(const std::string& base) {
        std::string anchor = base;
        while (anchors.count(anchor))
            anchor = base + "-" + std::to_string(++anchors[base]);
        anchors[anchor] = 0;
        return anchor;
    }

    void close_block() {
        while (!spans.empty())
            close_span();
        if (blocks.size() < 2) return;
        Block block = std::move(blocks.back().block);
        blocks.pop_back();
        if (block.kind == BlockKind::heading)
            block.anchor = unique_anchor(anchor_for(plain_text(block.spans)));
        if (verbatim(block.kind) && !block.text.empty() && block.text.back() != '\n')
            block.text.push_back('\n');
        blocks.back().block.children.push_back(std::move(block));
    }

    void close_implicit() {
        if (blocks.back().implicit) close_block();
    }

    void enter_block(MD_BLOCKTYPE type, void* detail) {
        if (type == MD_BLOCK_DOC || type == MD_BLOCK_THEAD || type == MD_BLOCK_TBODY) return;
        close_implicit();
        if (skipped_blocks > 0 || blocks.size() >= max_block_depth) {
            ++skipped_blocks;
            return;
        }
        Block block;
        switch (type) {
        case MD_BLOCK_QUOTE:
            block.kind = BlockKind::quote;
            break;
        case MD_BLOCK_UL:
            block.kind = BlockKind::list;
            block.tight = static_cast<MD_BLOCK_UL_DETAIL*>(detail)->is_tight != 0;
            break;
        case MD_BLOCK_OL: {
            auto* ol = static_cast<MD_BLOCK_OL_DETAIL*>(detail);
            block.kind = BlockKind::list;
            block.ordered = true;
            block.start = ol->start;
            block.tight = ol->is_tight != 0;
            break;
        }
        case MD_BLOCK_LI: {
            auto* li = static_cast<MD_BLOCK_LI_DETAIL*>(detail);
            block.kind = BlockKind::item;
            if (li->is_task) block.task = li->task_mark != ' ';
            break;
        }
        case MD_BLOCK_HR:
            block.kind = BlockKind::rule;
            break;
        case MD_BLOCK_H:
            block.kind = BlockKind::heading;
            block.level = static_cast<int>(static_cast<MD_BLOCK_H_DETAIL*>(detail)->level);
            break;
        case MD_BLOCK_CODE:
            block.kind = BlockKind::code;
            block.info = attribute(static_cast<MD_BLOCK_CODE_DETAIL*>(detail)->lang);
            break;
        case MD_BLOCK_HTML:
            block.kind = BlockKind::html;
            break;
        case MD_BLOCK_TABLE:
            block.kind = BlockKind::table;
            block.aligns.assign(static_cast<MD_BLOCK_TABLE_DETAIL*>(detail)->col_count,
                                Align::none);
            break;
        case MD_BLOCK_TR:
            block.kind = BlockKind::table_row;
            break;
        case MD_BLOCK_TH:
        case MD_BLOCK_TD: {
            block.kind = BlockKind::table_cell;
            // The header row is the first row: its cells say how each column aligns.
            std::size_t depth = blocks.size();
            if (type == MD_BLOCK_TH && depth >= 2 &&
                blocks[depth - 2].block.kind == BlockKind::table) {
                std::vector<Align>& aligns = blocks[depth - 2].block.aligns;
                std::size_t column = blocks.back().block.children.size();
                if (column < aligns.size())
                    aligns[column] = align_of(static_cast<MD_BLOCK_TD_DETAIL*>(detail)->align);
            }
            break;
        }
        default:
            block.kind = BlockKind::paragraph;
            break;
        }
        blocks.push_back({std::move(block), false});
    }

    void leave_block(MD_BLOCKTYPE type) {
        if (type == MD_BLOCK_DOC || type == MD_BLOCK_THEAD || type == MD_BLOCK_TBODY) return;
        close_implicit();
        if (skipped_blocks > 0) {
            --skipped_blocks;
            return;
        }
        close_block();
    }

    void enter_span(MD_SPANTYPE type, void* detail) {
        text_block();
        if (skipped_spans > 0 || spans.size() >= max_span_depth) {
            ++skipped_spans;
            return;
        }
        Span span;
        switch (type) {
        case MD_SPAN_EM:
            span.kind = SpanKind::emphasis;
            break;
        case MD_SPAN_STRONG:
            span.kind = SpanKind::strong;
            break;
        case MD_SPAN_DEL:
            span.kind = SpanKind::strike;
            break;
        case MD_SPAN_CODE:
            span.kind = SpanKind::code;
            break;
        case MD_SPAN_A: {
            auto* a = static_cast<MD_SPAN_A_DETAIL*>(detail);
            span.kind = SpanKind::link;
            span.href = attribute(a->href);
            span.title = attribute(a->title);
            break;
        }
        case MD_SPAN_IMG: {
            auto* img = static_cast<MD_SPAN_IMG_DETAIL*>(detail);
            span.kind = SpanKind::image;
            span.href = attribute(img->src);
            span.title = attribute(img->title);
            break;
        }
        default: // extensions rio does not enable
            ++skipped_spans;
            return;
        }
        spans.push_back(std::move(span));
    }

    void leave_span() {
        if (skipped_spans > 0)
            --skipped_spans;
        else if (!spans.empty())
            close_span();
    }

    void text(MD_TEXTTYPE type, std::string_view text) {
        Block& block = text_block();
        if (verbatim(block.kind)) {
            if (type == MD_TEXT_NULLCHAR)
                append_utf8(block.text, replacement);
            else
                block.text += text;
            return;
        }
        if (!spans.empty() && spans.back().kind == SpanKind::code) {
            std::string& code = spans.back().text;
            if (type == MD_TEXT_NULLCHAR)
                append_utf8(code, replacement);
            else if (type == MD_TEXT_BR || type == MD_TEXT_SOFTBR)
                code.push_back(' ');
            else
                code += text;
            return;
        }
        std::vector<Span>& target = span_target();
        std::string decoded;
        switch (type) {
        case MD_TEXT_BR:
            target.push_back(break_span(SpanKind::hard_break));
            return;
        case MD_TEXT_SOFTBR:
            target.push_back(break_span(SpanKind::soft_break));
            return;
        case MD_TEXT_NULLCHAR:
            append_utf8(decoded, replacement);
            break;
        case MD_TEXT_ENTITY:
            append_entity(decoded, text);
            break;
        default: // normal text, and raw HTML, which stays text
            decoded = text;
            break;
        }
        append_text(target, decoded);
    }

    Block finish() {
        while (blocks.size() > 1)
            close_block();
        while (!spans.empty()) // only after an aborted parse: spans outside any block
            close_span();
        return std::move(blocks.front().block);
    }
};

// md4c is C: an exception must not unwind through it. A failure aborts the parse, and
// parse() returns what was built until then.
template <class F> int guarded(F&& f) noexcept {
    try {
        f();
        return 0;
    } catch (...) {
        return -1;
    }
}

int on_enter_block(MD_BLOCKTYPE type, void* detail, void* builder) {
    return guarded([&] { static_cast<Builder*>(builder)->enter_block(type, detail); });
}

int on_leave_block(MD_BLOCKTYPE type, void*, void* builder) {
    return guarded([&] { static_cast<Builder*>(builder)->leave_block(type); });
}

int on_enter_span(MD_SPANTYPE type, void* detail, void* builder) {
    return guarded([&] { static_cast<Builder*>(builder)->enter_span(type, detail); });
}

int on_leave_span(MD_SPANTYPE, void*, void* builder) {
    return guarded([&] { static_cast<Builder*>(builder)->leave_span(); });
}

int on_text(MD_TEXTTYPE type, const MD_CHAR* text, MD_SIZE size, void* builder) {
    return guarded(
        [&] { static_cast<Builder*>(builder)->text(type, std::string_view(text, size)); });
}

// Punctuation and symbols GitHub drops from anchors outside ASCII (an approximation of its
// "not a letter, mark, number or connector" rule over the blocks headings actually use).
constexpr std::pair<char32_t, char32_t> dropped[] = {
    {0x00A1, 0x00A9}, {0x00AB, 0x00B1}, {0x00B4, 0x00B4}, {0x00B6, 0x00B8},   {0x00BB, 0x00BB},
    {0x00BF, 0x00BF}, {0x00D7, 0x00D7}, {0x00F7, 0x00F7}, {0x2000, 0x203E},   {0x2041, 0x2053},
    {0x2055, 0x206F}, {0x20A0, 0x20CF}, {0x2190, 0x245F}, {0x2500, 0x2775},   {0x2794, 0x2BFF},
    {0x3000, 0x3004}, {0x3008, 0x3020}, {0xFE0E, 0xFE0F}, {0xFF01, 0xFF0F},   {0xFF1A, 0xFF20},
    {0xFF3B, 0xFF3E}, {0xFF40, 0xFF40}, {0xFF5B, 0xFF65}, {0x1F000, 0x1FAFF}, {0xE0000, 0xE007F},
};

bool is_dropped(char32_t cp) {
    for (auto [first, last] : dropped)
        if (cp >= first && cp <= last) return true;
    return false;
}

// Lowercase for the scripts with simple case pairs: Latin-1, Latin Extended-A, Greek,
// Cyrillic. Others pass unchanged.
char32_t to_lower(char32_t cp) {
    if ((cp >= 0xC0 && cp <= 0xDE && cp != 0xD7) || (cp >= 0x391 && cp <= 0x3A9 && cp != 0x3A2) ||
        (cp >= 0x410 && cp <= 0x42F))
        return cp + 0x20;
    if (cp >= 0x400 && cp <= 0x40F) return cp + 0x50;
    if (cp == 0x178) return 0xFF;
    bool even_upper = (cp >= 0x100 && cp <= 0x12F) || (cp >= 0x132 && cp <= 0x137) ||
                      (cp >= 0x14A && cp <= 0x177);
    bool odd_upper = (cp >= 0x139 && cp <= 0x148) || (cp >= 0x179 && cp <= 0x17E);
    if ((even_upper && cp % 2 == 0) || (odd_upper && cp % 2 == 1)) return cp + 1;
    return cp;
}

} // namespace

Block parse(std::string_view markdown) {
    // The model is valid UTF-8 whatever came in. NULs become U+FFFD before md4c sees them
    // (CommonMark's rule): md4c 0.4.8 reports a NUL in code both as MD_TEXT_NULLCHAR and
    // inside the code text, or only inside it.
    std::string repaired;
    if (markdown.find('\0') != std::string_view::npos || find_invalid_utf8(markdown)) {
        for (char c : to_valid_utf8(markdown)) {
            if (c == '\0')
                append_utf8(repaired, replacement);
            else
                repaired.push_back(c);
        }
        markdown = repaired;
    }
    MD_PARSER parser{};
    parser.abi_version = 0;
    // HTML stays recognised (not MD_FLAG_NOHTML) so that a block of it arrives whole, as
    // text for the painters, instead of being parsed as Markdown around its tags.
    parser.flags = MD_DIALECT_GITHUB;
    parser.enter_block = on_enter_block;
    parser.leave_block = on_leave_block;
    parser.enter_span = on_enter_span;
    parser.leave_span = on_leave_span;
    parser.text = on_text;
    Builder builder;
    auto size = static_cast<MD_SIZE>(std::min<std::size_t>(markdown.size(), UINT_MAX));
    md_parse(markdown.empty() ? "" : markdown.data(), size, &parser, &builder);
    return builder.finish();
}

std::string plain_text(const std::vector<Span>& spans) {
    std::string out;
    for (const Span& span : spans) {
        switch (span.kind) {
        case SpanKind::text:
        case SpanKind::code:
            out += span.text;
            break;
        case SpanKind::soft_break:
        case SpanKind::hard_break:
            out.push_back(' ');
            break;
        default:
            out += plain_text(span.children);
            break;
        }
    }
    return out;
}

std::string anchor_for(std::string_view heading_text) {
    std::string anchor;
    std::size_t at = 0;
    while (at < heading_text.size()) {
        char c = heading_text[at];
        if (static_cast<unsigned char>(c) < 0x80) {
            ++at;
            if (c >= 'A' && c <= 'Z')
                anchor.push_back(static_cast<char>(c - 'A' + 'a'));
            else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_')
                anchor.push_back(c);
            else if (c == ' ')
                anchor.push_back('-');
            continue;
        }
        char32_t cp = next_code_point(heading_text, at);
        if (cp != replacement && !is_dropped(cp)) append_utf8(anchor, to_lower(cp));
    }
    return anchor;
}

} // namespace rio::md
