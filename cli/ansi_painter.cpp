#include "cli/ansi_painter.hpp"

#include "cli/line_fill.hpp"
#include "cli/styled_line.hpp"
#include "cli/table_layout.hpp"
#include "cli/terminal_safe.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rio::md {
namespace {

std::string repeat(std::string_view s, int count) {
    std::string out;
    for (int i = 0; i < count; ++i)
        out += s;
    return out;
}

// Where a block's lines go: the prefix of its first line (a bullet, a quote bar), of the
// lines after it, and the columns left for the content.
struct Frame {
    Line first;
    Line rest;
    int width;
};

const char* const bullets[] = {"\u2022", "\u25E6", "\u25AA"}; // • ◦ ▪
constexpr std::string_view unchecked_box = "\u2610";          // ☐
constexpr std::string_view checked_box = "\u2611";            // ☑
constexpr std::string_view bar = "\u2502";                    // │
constexpr std::string_view light = "\u2500";                  // ─
constexpr std::string_view heavy = "\u2501";                  // ━
constexpr int max_width = 1000; // rules and tables span the width: a huge one is a mistake
constexpr int code_indent = 4;
constexpr int min_column = 6; // narrower shrunken table columns turn the table into records

struct Painter {
    int min_width; // what nesting may leave for content, however deep it goes
    std::vector<Line> lines;
    std::optional<Line> blank; // the separating line the next content line brings

    void emit(Frame& frame, const Line& content) {
        if (blank && !lines.empty()) lines.push_back(std::move(*blank));
        blank.reset();
        Line line = frame.first;
        append(line, content);
        trim_right(line);
        lines.push_back(std::move(line));
        frame.first = frame.rest;
    }

    void separate(const Frame& frame) {
        Line line = frame.rest;
        trim_right(line);
        blank = std::move(line);
    }

    Frame nested(const Frame& frame, const Line& first, const Line& rest) {
        Frame inner = frame;
        append(inner.first, first);
        append(inner.rest, rest);
        inner.width = std::max(frame.width - width_of(first), min_width);
        return inner;
    }

    // After a nested frame: its first line, if it wrote one, was also the outer's.
    void carry(Frame& frame, std::size_t lines_before) {
        if (lines.size() > lines_before) frame.first = frame.rest;
    }

    void blocks(const std::vector<Block>& children, Frame& frame, bool loose, int depth) {
        for (std::size_t i = 0; i < children.size(); ++i) {
            if (i > 0 && loose) separate(frame);
            block(children[i], frame, depth);
        }
    }

    void text(const std::vector<Span>& spans, Frame& frame, unsigned style) {
        for (const Line& line : wrap(flow_of(spans, style), frame.width))
            emit(frame, line);
    }

    void heading(const Block& heading, Frame& frame) {
        std::vector<Line> text = wrap(flow_of(heading.spans, bold), frame.width);
        for (const Line& line : text)
            emit(frame, line);
        if (heading.level <= 2 && !text.empty())
            emit(frame, {{repeat(heading.level == 1 ? heavy : light, widest(text)), dim}});
    }

    void verbatim(const Block& block, Frame& frame, unsigned style) {
        std::string_view text = block.text;
        if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
        if (text.empty()) return;
        std::string indent(code_indent, ' ');
        std::size_t before = lines.size();
        Frame inner = nested(frame, {{indent, plain}}, {{indent, plain}});
        while (true) {
            std::size_t nl = text.find('\n');
            std::string line = terminal_safe(text.substr(0, nl), Whitespace::code);
            std::vector<std::string> pieces = code_pieces(line, inner.width);
            emit(inner, {{pieces.front(), style}});
            for (std::size_t i = 1; i < pieces.size(); ++i)
                emit(inner, {{std::string(code_continuation), dim}, {pieces[i], style}});
            if (nl == std::string_view::npos) break;
            text.remove_prefix(nl + 1);
        }
        carry(frame, before);
    }

    void quote(const Block& quote, Frame& frame, int depth) {
        std::size_t before = lines.size();
        Line prefix = {{std::string(bar), dim}, {" ", plain}};
        Frame inner = nested(frame, prefix, prefix);
        blocks(quote.children, inner, true, depth);
        if (lines.size() == before) emit(inner, {});
        carry(frame, before);
    }

    void item(const Block& item, Frame& frame, const Line& marker, bool loose, int depth) {
        std::size_t before = lines.size();
        Line indent = {{std::string(static_cast<std::size_t>(width_of(marker)), ' '), plain}};
        Frame inner = nested(frame, marker, indent);
        if (item.kind == BlockKind::item)
            blocks(item.children, inner, loose, depth + 1);
        else
            block(item, inner, depth + 1);
        if (lines.size() == before) emit(inner, {});
        carry(frame, before);
    }

    Line marker(const Block& list, const Block& item, std::size_t index, int number_width,
                int depth) {
        Line marker;
        if (list.ordered) {
            std::string number = std::to_string(std::uint64_t{list.start} + index);
            number.insert(0, std::max<std::size_t>(number.size(), number_width) - number.size(),
                          ' ');
            append(marker, number + ". ", plain);
        }
        if (item.task) {
            append(marker, *item.task ? checked_box : unchecked_box, *item.task ? checked : plain);
            append(marker, " ", plain);
        } else if (!list.ordered) {
            append(marker, std::string(bullets[depth % 3]) + " ", plain);
        }
        return marker;
    }

    void list(const Block& list, Frame& frame, int depth) {
        std::uint64_t last = std::uint64_t{list.start} + list.children.size();
        int number_width = static_cast<int>(std::to_string(last > 0 ? last - 1 : 0).size());
        for (std::size_t i = 0; i < list.children.size(); ++i) {
            if (i > 0 && !list.tight) separate(frame);
            const Block& child = list.children[i];
            item(child, frame, marker(list, child, i, number_width, depth), !list.tight, depth);
        }
    }

    void table(const Block& table, Frame& frame) {
        std::size_t columns = table.aligns.size();
        for (const Block& row : table.children)
            columns = std::max(columns, row.children.size());
        if (columns == 0) return;
        // cells[row][column]: the header row bold, a missing cell empty.
        std::vector<std::vector<std::vector<Token>>> cells;
        for (std::size_t r = 0; r < table.children.size(); ++r) {
            const Block& row = table.children[r];
            cells.emplace_back(columns);
            for (std::size_t c = 0; c < row.children.size(); ++c)
                cells.back()[c] = flow_of(row.children[c].spans, r == 0 ? bold : plain);
        }
        std::vector<int> natural(columns, 0);
        std::vector<int> longest_word(columns, 0);
        for (const auto& row : cells) {
            for (std::size_t c = 0; c < columns; ++c) {
                natural[c] = std::max(natural[c], widest(wrap(row[c], INT_MAX / 2)));
                for (const Token& token : row[c])
                    if (token.kind == Token::word)
                        longest_word[c] = std::max(longest_word[c], width_of(token.runs));
            }
        }
        int frame_width = static_cast<int>(columns) * 3 + 1; // "│ " … " │ " … " │"
        int target = frame.width - frame_width;
        // Text squeezed into columns a few characters wide reads as noise: a table that
        // would need that becomes "header: value" lines, one group per row.
        int total = 0;
        for (int n : natural)
            total += n;
        if (total > target && target < min_column * static_cast<int>(columns)) {
            records(cells, frame);
            return;
        }
        std::vector<int> widths = fit_columns(natural, longest_word, target);

        auto border = [&](std::string_view left, std::string_view middle, std::string_view right) {
            std::string text(left);
            for (std::size_t c = 0; c < columns; ++c) {
                text += repeat(light, widths[c] + 2);
                text += c + 1 < columns ? middle : right;
            }
            emit(frame, {{text, dim}});
        };
        std::vector<std::vector<std::vector<Line>>> laid_out;
        bool tall_rows = false;
        for (std::size_t r = 0; r < cells.size(); ++r) {
            laid_out.emplace_back();
            for (std::size_t c = 0; c < columns; ++c) {
                laid_out.back().push_back(wrap(cells[r][c], widths[c]));
                if (r > 0 && laid_out.back().back().size() > 1) tall_rows = true;
            }
        }
        border("\u250C", "\u252C", "\u2510"); // ┌ ┬ ┐
        for (std::size_t r = 0; r < laid_out.size(); ++r) {
            if (r == 1 || (r > 1 && tall_rows)) border("\u251C", "\u253C", "\u2524"); // ├ ┼ ┤
            std::size_t height = 1;
            for (const auto& cell : laid_out[r])
                height = std::max(height, cell.size());
            for (std::size_t k = 0; k < height; ++k) {
                Line line = {{std::string(bar), dim}};
                for (std::size_t c = 0; c < columns; ++c) {
                    const auto& cell = laid_out[r][c];
                    Align align = c < table.aligns.size() ? table.aligns[c] : Align::none;
                    append(line, " ", plain);
                    append(line, aligned(k < cell.size() ? cell[k] : Line{}, widths[c], align));
                    append(line, " ", plain);
                    append(line, bar, dim);
                }
                emit(frame, line);
            }
        }
        border("\u2514", "\u2534", "\u2518"); // └ ┴ ┘
    }

    void records(const std::vector<std::vector<std::vector<Token>>>& cells, Frame& frame) {
        std::size_t first = cells.size() > 1 ? 1 : 0;
        for (std::size_t r = first; r < cells.size(); ++r) {
            if (r > first) separate(frame);
            for (std::size_t c = 0; c < cells[r].size(); ++c) {
                std::vector<Token> tokens = cells[0][c];
                if (r > 0) {
                    if (!tokens.empty() && tokens.back().kind == Token::word)
                        append(tokens.back().runs, ":", bold);
                    tokens.push_back({Token::space, {{" ", plain}}});
                    tokens.insert(tokens.end(), cells[r][c].begin(), cells[r][c].end());
                }
                for (const Line& line : wrap(tokens, frame.width))
                    emit(frame, line);
            }
        }
    }

    void block(const Block& block, Frame& frame, int depth) {
        switch (block.kind) {
        case BlockKind::document:
        case BlockKind::table_row:
            blocks(block.children, frame, true, depth);
            break;
        case BlockKind::heading:
            heading(block, frame);
            break;
        case BlockKind::paragraph:
        case BlockKind::table_cell:
            text(block.spans, frame, plain);
            break;
        case BlockKind::code:
            verbatim(block, frame, code);
            break;
        case BlockKind::html:
            verbatim(block, frame, dim);
            break;
        case BlockKind::quote:
            quote(block, frame, depth);
            break;
        case BlockKind::list:
            list(block, frame, depth);
            break;
        case BlockKind::item: // outside a list: a list of one
            item(block, frame, {{std::string(bullets[depth % 3]) + " ", plain}}, false, depth);
            break;
        case BlockKind::table:
            table(block, frame);
            break;
        case BlockKind::rule:
            emit(frame, {{repeat(light, frame.width), dim}});
            break;
        }
    }
};

} // namespace

std::string paint_ansi(const Block& document, const AnsiStyle& style) {
    int width = std::clamp(style.width, 1, max_width);
    Painter painter{std::min(width, 10), {}, std::nullopt};
    Frame frame{{}, {}, width};
    painter.block(document, frame, 0);
    return render(painter.lines, style.color);
}

} // namespace rio::md
