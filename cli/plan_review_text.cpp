#include "cli/plan_review_text.hpp"

#include "cli/terminal.hpp"
#include "cli/terminal_safe.hpp"
#include "client/trace_words.hpp"
#include "text/lines.hpp"
#include "text/trim.hpp"

#include <charconv>

namespace rio {
namespace {

constexpr std::string_view underline = "\x1b[4m";

std::string safe(std::string_view text) {
    return md::terminal_safe(text, md::Whitespace::code);
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

std::optional<std::size_t> number(std::string_view s) {
    std::size_t n = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
    return n;
}

// `line` with the byte ranges `spans` underlined, each piece terminal-safe.
std::string marked(const std::string& line, const std::vector<DiffSpan>& spans, bool color) {
    if (!color) return safe(line);
    std::string out;
    std::size_t at = 0;
    for (const DiffSpan& s : spans) {
        out += safe(std::string_view(line).substr(at, s.start - at));
        out += std::string(underline) +
               safe(std::string_view(line).substr(s.start, s.end - s.start)) + "\x1b[24m";
        at = s.end;
    }
    return out + safe(std::string_view(line).substr(at));
}

std::string row(std::string_view sign, const std::string& body, std::string_view style,
                bool color) {
    std::string text = std::string(sign) + body;
    return (style.empty() ? text : styled(text, style, color)) + "\n";
}

} // namespace

std::string numbered_lines(std::string_view text, bool color) {
    auto lines = split_lines(text);
    std::size_t width = std::to_string(lines.size()).size();
    std::string out;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        std::string n = std::to_string(i + 1);
        std::string gutter = std::string(width - n.size() + 2, ' ') + n + " │ ";
        out += styled(gutter, sgr::dim, color) + safe(lines[i]) + "\n";
    }
    return out;
}

CommentCommand read_comment_command(std::string_view line, std::string_view plan,
                                    std::size_t count) {
    CommentCommand out;
    line = trim(line);
    if (line.substr(0, 2) == "c ") line = trim(line.substr(2));
    if (line.empty() || line == "c") {
        out.kind = CommentCommand::Kind::back;
        return out;
    }
    if (line.front() == '-') {
        auto n = number(line.substr(1));
        if (!n || *n == 0 || *n > count) {
            out.error = count == 0 ? "There are no comments to remove."
                                   : "Remove which comment? -1 to -" + std::to_string(count) + ".";
            return out;
        }
        out.kind = CommentCommand::Kind::remove;
        out.index = *n;
        return out;
    }
    std::size_t space = line.find_first_of(" \t");
    std::string_view range = line.substr(0, space);
    std::string_view text = space == std::string_view::npos ? "" : trim(line.substr(space));
    std::size_t dash = range.find('-');
    auto first = number(range.substr(0, dash));
    auto last = dash == std::string_view::npos ? first : number(range.substr(dash + 1));
    auto lines = split_lines(plan);
    if (!first || !last || *first == 0 || *last < *first || *last > lines.size()) {
        out.error = "Say which lines first: 12 or 12-14 (the plan has " +
                    std::to_string(lines.size()) + " lines), then the comment.";
        return out;
    }
    if (text.empty()) {
        out.error = "Write the comment after the lines: " + std::string(range) + " what to change.";
        return out;
    }
    std::string quote;
    for (std::size_t i = *first; i <= *last; ++i)
        quote += std::string(lines[i - 1]) + (i < *last ? "\n" : "");
    if (quote.find_first_not_of(" \t\r\n") == std::string::npos) {
        out.error = "Those lines are empty; comment on lines with text.";
        return out;
    }
    out.kind = CommentCommand::Kind::add;
    out.comment.quote = std::move(quote);
    out.comment.line = *first;
    if (*last != *first) out.comment.end_line = *last;
    out.comment.text = std::string(text);
    return out;
}

std::string comments_text(const std::vector<PlanComment>& comments, bool color) {
    if (comments.empty()) return {};
    std::string out = styled("Comments:", sgr::bold, color) + "\n";
    for (std::size_t i = 0; i < comments.size(); ++i) {
        const PlanComment& c = comments[i];
        std::string where = client::comment_lines(c.line, c.end_line);
        out += "  " + std::to_string(i + 1) + ". " + styled(where, sgr::dim, color) + " «" +
               safe(client::first_line(c.quote, 40)) + "» " + safe(c.text) + "\n";
    }
    return out;
}

std::string threads_text(const std::vector<ReviewComment>& threads, bool color) {
    if (threads.empty()) return {};
    std::string out = styled("Review comments:", sgr::bold, color) + "\n";
    for (const ReviewComment& c : threads) {
        std::string where = client::comment_lines(c.line, c.end_line);
        std::string state = shown(c.state.name()) + (c.detached ? ", passage gone" : "");
        std::string_view tone = c.is(CommentState::open)       ? sgr::yellow
                                : c.is(CommentState::answered) ? sgr::cyan
                                                               : sgr::dim;
        out += "  " + styled(shown(c.id), sgr::bold, color) + " " + styled(state, tone, color) +
               (where.empty() ? "" : " · " + where) + " «" +
               shown(client::first_line(c.quote, 40)) + "» " + shown(c.text) + "\n";
        for (const CommentReply& r : c.replies)
            out += "     " +
                   styled(r.author == CommentAuthor::model ? "model:" : "you:", sgr::dim, color) +
                   " " + shown(r.text) + "\n";
    }
    return out;
}

ThreadCommand read_thread_command(std::string_view line) {
    ThreadCommand out;
    std::string_view rest = trimmed(line);
    if (rest.empty()) {
        out.kind = ThreadCommand::Kind::back;
        return out;
    }
    std::string_view first = rest.substr(0, rest.find_first_of(" \t"));
    std::string_view after = trimmed(rest.substr(first.size()));
    if (first == "resolve") {
        if (after.empty() || after.find_first_of(" \t") != std::string_view::npos) {
            out.error = "Name one comment to resolve: resolve c1.";
            return out;
        }
        out.kind = ThreadCommand::Kind::resolve;
        out.id = std::string(after);
        return out;
    }
    if (after.empty()) {
        out.error = "Write the reply after the comment's id: c1 what you say, or resolve c1.";
        return out;
    }
    out.kind = ThreadCommand::Kind::reply;
    out.id = std::string(first);
    out.text = std::string(after);
    return out;
}

std::string revision_text(const std::vector<client::MarkedLine>& marks, bool color) {
    auto rows = client::compact_rows(marks, 1);
    if (rows.empty()) return {};
    std::string out = styled("Changes since the previous plan:", sgr::bold, color) + "\n";
    for (const auto& index : rows) {
        if (!index) {
            out += styled("  ⋯", sgr::dim, color) + "\n";
            continue;
        }
        const client::MarkedLine& m = marks[*index];
        switch (m.mark) {
        case client::LineMark::same:
            out += row("  ", safe(m.text), sgr::dim, color);
            break;
        case client::LineMark::inserted:
            out += row("+ ", safe(m.text), sgr::green, color);
            break;
        case client::LineMark::removed:
            out += row("- ", safe(m.text), sgr::red, color);
            break;
        case client::LineMark::changed:
            out += row("- ", marked(m.old_text, m.removed, color), sgr::red, color);
            out += row("+ ", marked(m.text, m.added, color), sgr::green, color);
            break;
        }
    }
    return out;
}

} // namespace rio
