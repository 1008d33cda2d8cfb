#include "cli/line_fill.hpp"

#include "cli/terminal_safe.hpp"
#include "cli/unicode_width.hpp"
#include "text/utf8.hpp"

#include <algorithm>
#include <string_view>
#include <utility>

namespace rio::md {
namespace {

constexpr std::u32string_view no_break_before = U")]},.:;!?\u3001\u3002\uFF0C\uFF0E\uFF1A\uFF1B"
                                                U"\uFF01\uFF1F\uFF09\uFF3D\uFF5D\u300D\u300F"
                                                U"\u3011\u3015\u3009\u300B\u3019\u301B\u301E"
                                                U"\u301F\u30FC\u30FB\u3041\u3043\u3045\u3047"
                                                U"\u3049\u3063\u3083\u3085\u3087\u308E\u30A1"
                                                U"\u30A3\u30A5\u30A7\u30A9\u30C3\u30E3\u30E5"
                                                U"\u30E7\u30EE\u30F5\u30F6\u309D\u309E\u30FD"
                                                U"\u30FE\u3005\u301C\uFF5E";
constexpr std::u32string_view no_break_after =
    U"([{\uFF08\uFF3B\uFF5B\u300C\u300E\u3010\u3014\u3008\u300A\u3018\u301A\u301D";

struct Flow {
    std::vector<Token> tokens;
    char32_t last = 0; // the last character of the word being built, 0 after a space

    void word_part(std::string_view text, unsigned style) {
        if (text.empty()) return;
        if (tokens.empty() || tokens.back().kind != Token::word)
            tokens.push_back({Token::word, {}});
        append(tokens.back().runs, text, style);
    }

    void word(std::string_view text, unsigned style) {
        std::size_t part = 0;
        for (std::size_t at = 0; at < text.size();) {
            DecodedChar d = decode_utf8(text, at);
            if (last != 0 && breaks_between(last, d.cp)) {
                word_part(text.substr(part, at - part), style);
                tokens.push_back({Token::joint, {}});
                part = at;
            }
            last = d.cp;
            at += d.length;
        }
        word_part(text.substr(part), style);
    }

    void text(std::string_view text, unsigned style) {
        std::string cleaned = terminal_safe(text, Whitespace::inline_text);
        std::string_view rest = cleaned;
        while (!rest.empty()) {
            std::size_t gap = rest.find(' ');
            word(rest.substr(0, gap), style);
            if (gap == std::string_view::npos) break;
            if (tokens.empty() || tokens.back().kind != Token::space)
                tokens.push_back({Token::space, {{" ", style}}});
            last = 0;
            rest = rest.substr(gap + 1);
        }
    }

    void newline() {
        tokens.push_back({Token::newline, {}});
        last = 0;
    }

    void spans(const std::vector<Span>& spans, unsigned style) {
        for (const Span& child : spans)
            span(child, style);
    }

    // A link's destination is shown, so that the reader can judge where it goes; an
    // autolink already shows it.
    void link(const Span& span, unsigned style) {
        std::string label = plain_text(span.children);
        bool shown = span.href.empty() || label == span.href || "mailto:" + label == span.href ||
                     "http://" + label == span.href || "https://" + label == span.href;
        if (span.children.empty()) {
            text(span.href, style | underline);
            return;
        }
        spans(span.children, style | underline);
        if (!shown) text(" (" + span.href + ")", dim);
    }

    void span(const Span& span, unsigned style) {
        switch (span.kind) {
        case SpanKind::text:
            text(span.text, style);
            break;
        case SpanKind::code:
            text(span.text, style | code);
            break;
        case SpanKind::emphasis:
            spans(span.children, style | italic);
            break;
        case SpanKind::strong:
            spans(span.children, style | bold);
            break;
        case SpanKind::strike:
            spans(span.children, style | strike);
            break;
        case SpanKind::link:
            link(span, style);
            break;
        case SpanKind::image:
            text(span.children.empty() ? "image" : "image: ", dim);
            spans(span.children, style | italic);
            if (!span.href.empty()) text(" (" + span.href + ")", dim);
            break;
        case SpanKind::soft_break:
            text(" ", style);
            break;
        case SpanKind::hard_break:
            newline();
            break;
        }
    }
};

} // namespace

bool breaks_between(char32_t before, char32_t after) {
    int w_before = code_point_width(before);
    int w_after = code_point_width(after);
    if (w_before == 0 || w_after == 0 || (w_before != 2 && w_after != 2)) return false;
    return no_break_before.find(after) == std::u32string_view::npos &&
           no_break_after.find(before) == std::u32string_view::npos;
}

std::vector<Token> flow_of(const std::vector<Span>& spans, unsigned style) {
    Flow flow;
    flow.spans(spans, style);
    return std::move(flow.tokens);
}

std::vector<Line> wrap(const std::vector<Token>& tokens, int width) {
    std::vector<Line> lines;
    Line line;
    int column = 0;
    bool started = false;
    const Run* space = nullptr; // the space before the next word, if it may go on this line
    bool joint = false;
    auto next_line = [&] {
        lines.push_back(std::move(line));
        line.clear();
        column = 0;
        started = false;
    };
    for (const Token& token : tokens) {
        if (token.kind == Token::space) {
            if (started) space = &token.runs.front();
            continue;
        }
        if (token.kind == Token::joint) {
            joint = started;
            continue;
        }
        if (token.kind == Token::newline) {
            next_line();
            space = nullptr;
            joint = false;
            continue;
        }
        int w = width_of(token.runs);
        if (started && space && column + 1 + w <= width) {
            append(line, " ", space->style);
            append(line, token.runs);
            column += 1 + w;
        } else if (started && joint && !space && column + w <= width) {
            append(line, token.runs);
            column += w;
        } else {
            if (started) next_line();
            if (w <= width) {
                append(line, token.runs);
                column = w;
                started = true;
            } else {
                for (const Run& run : token.runs) {
                    for (std::size_t at = 0; at < run.text.size();) {
                        DecodedChar d = decode_utf8(run.text, at);
                        int cw = code_point_width(d.cp);
                        if (started && column + cw > width) next_line();
                        append(line, std::string_view(run.text).substr(at, d.length), run.style);
                        column += cw;
                        started = true;
                        at += d.length;
                    }
                }
            }
        }
        space = nullptr;
        joint = false;
    }
    if (started) lines.push_back(std::move(line));
    return lines;
}

std::vector<std::string> code_pieces(std::string_view text, int width) {
    std::vector<std::string> pieces(1);
    int room = std::max(width, 1);
    int column = 0;
    for (std::size_t at = 0; at < text.size();) {
        DecodedChar d = decode_utf8(text, at);
        int cw = code_point_width(d.cp);
        if (column > 0 && column + cw > room) {
            pieces.emplace_back();
            room = std::max(width - code_continuation_width, 1);
            column = 0;
        }
        pieces.back().append(text, at, d.length);
        column += cw;
        at += d.length;
    }
    return pieces;
}

std::vector<std::string> option_lines(std::string_view options, int width) {
    std::vector<std::string> lines;
    std::string line;
    for (std::size_t at = 0; at < options.size();) {
        std::size_t end = options.find("  ", at);
        if (end == std::string_view::npos) end = options.size();
        std::string_view option = options.substr(at, end - at);
        if (!line.empty() && display_width(line) + 2 + display_width(option) > width) {
            lines.push_back(std::move(line));
            line.clear();
        }
        line += (line.empty() ? "" : "  ") + std::string(option);
        at = end;
        while (at < options.size() && options[at] == ' ')
            ++at;
    }
    if (!line.empty()) lines.push_back(std::move(line));
    return lines;
}

} // namespace rio::md
