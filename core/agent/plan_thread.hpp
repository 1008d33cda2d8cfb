// A plan's review threads (issue 44), pure: comments added with ids, answered by a revision,
// replied to and resolved by a person, and carried from one revision to the next.
#pragma once

#include "protocol/error.hpp"
#include "protocol/plan_comments.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace rio {

using CommentThreads = std::vector<ReviewComment>;

// Adds an open comment by `author` with the next id ("c1", "c2", …, one more than the
// highest) and returns it.
ReviewComment add_comment(CommentThreads& threads, const PlanComment& comment,
                          CommentAuthor author);

// The comments still open (neither answered nor resolved).
std::vector<ReviewComment> open_comments(const CommentThreads& threads);

// Replies by a person; a reply to an answered comment opens it again, a reply to a resolved
// one leaves it resolved. not_found for an id the plan has no comment with.
Result<ReviewComment> reply_to_comment(CommentThreads& threads, std::string_view id,
                                       std::string_view text);
Result<ReviewComment> resolve_comment(CommentThreads& threads, std::string_view id);

struct CarriedComments {
    CommentThreads threads;
    std::vector<std::string> unknown; // ids `addresses` named that no comment has
};

// The previous plan's comments as they stand on its revision: each one `answers` names gets
// the model's reply and, unless a person resolved it, is answered; each whose quoted passage
// the revision no longer holds (spaces aside) is marked detached.
CarriedComments carry_comments(CommentThreads previous, const std::vector<CommentAnswer>& answers,
                               std::string_view revised_plan);

// What is wrong with a comment's text or reply ("text is empty"), or "".
std::string comment_text_problem(std::string_view text);

} // namespace rio
