#include "core/agent/plan_thread.hpp"

#include <algorithm>

namespace rio {
namespace {

std::uint64_t id_number(const std::string& id) {
    if (id.size() < 2 || id[0] != 'c') return 0;
    std::uint64_t n = 0;
    for (char c : id.substr(1)) {
        if (c < '0' || c > '9' || n > 1'000'000'000) return 0;
        n = n * 10 + static_cast<std::uint64_t>(c - '0');
    }
    return n;
}

ReviewComment* find(CommentThreads& threads, std::string_view id) {
    auto it = std::find_if(threads.begin(), threads.end(),
                           [&](const ReviewComment& c) { return c.id == id; });
    return it == threads.end() ? nullptr : &*it;
}

Error no_such(std::string_view id) {
    return make_error(ErrorCode::not_found,
                      "the plan has no comment " + std::string(id) + " (plans.get lists them)");
}

// Runs of white space as one space, trimmed, and without Markdown's marks (` * _ | # >): a
// passage re-wrapped is the same passage, and one quoted from the painted plan (the desktop's
// selection) is found in the Markdown it was painted from.
std::string squeezed(std::string_view text) {
    constexpr std::string_view marks = "`*_|#>";
    std::string out;
    bool space = false;
    for (char c : text) {
        if (marks.find(c) != std::string_view::npos) continue;
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            space = !out.empty();
            continue;
        }
        if (space) out += ' ';
        space = false;
        out += c;
    }
    return out;
}

} // namespace

ReviewComment add_comment(CommentThreads& threads, const PlanComment& comment,
                          CommentAuthor author) {
    std::uint64_t highest = 0;
    for (const ReviewComment& c : threads)
        highest = std::max(highest, id_number(c.id));
    ReviewComment added{"c" + std::to_string(highest + 1),
                        comment.quote,
                        comment.line,
                        comment.end_line,
                        comment.text,
                        author,
                        {},
                        CommentState::open,
                        std::nullopt};
    threads.push_back(added);
    return added;
}

std::vector<ReviewComment> open_comments(const CommentThreads& threads) {
    std::vector<ReviewComment> out;
    for (const ReviewComment& c : threads)
        if (c.is(CommentState::open)) out.push_back(c);
    return out;
}

Result<ReviewComment> reply_to_comment(CommentThreads& threads, std::string_view id,
                                       std::string_view text) {
    ReviewComment* comment = find(threads, id);
    if (!comment) return no_such(id);
    comment->replies.push_back({CommentAuthor::person, std::string(text)});
    if (comment->is(CommentState::answered)) comment->state = CommentState::open;
    return *comment;
}

Result<ReviewComment> resolve_comment(CommentThreads& threads, std::string_view id) {
    ReviewComment* comment = find(threads, id);
    if (!comment) return no_such(id);
    comment->state = CommentState::resolved;
    return *comment;
}

CarriedComments carry_comments(CommentThreads previous, const std::vector<CommentAnswer>& answers,
                               std::string_view revised_plan) {
    CarriedComments out{std::move(previous), {}};
    for (const CommentAnswer& answer : answers) {
        ReviewComment* comment = find(out.threads, answer.id);
        if (!comment) {
            if (std::find(out.unknown.begin(), out.unknown.end(), answer.id) == out.unknown.end())
                out.unknown.push_back(answer.id);
            continue;
        }
        if (!answer.reply.empty()) comment->replies.push_back({CommentAuthor::model, answer.reply});
        if (!comment->is(CommentState::resolved)) comment->state = CommentState::answered;
    }
    std::string plan = squeezed(revised_plan);
    for (ReviewComment& comment : out.threads) {
        std::string quote = squeezed(comment.quote);
        comment.detached = quote.empty() || plan.find(quote) != std::string::npos
                               ? std::nullopt
                               : std::optional<bool>(true);
    }
    return out;
}

std::string comment_text_problem(std::string_view text) {
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) return "text is empty";
    if (text.size() > std::size_t{16} * 1024) return "text is longer than 16 KB";
    return {};
}

} // namespace rio
