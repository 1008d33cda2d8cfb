// A plan's review comments (DESIGN §13, issue 44): a reviewer's comment on a passage as a
// decision sends it, and the thread it becomes — kept beside the plan file, carried from one
// revision to the next, answered by the model and replied to or resolved by a person.
#pragma once

#include "protocol/closed_sets.hpp"
#include "protocol/fields.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rio {

// A reviewer's comment on a passage of a plan: the passage quoted as they saw it, where it is
// (1-based lines of the plan text, when the frontend knows them), and what they say about it.
struct PlanComment {
    std::string quote;
    std::optional<std::uint64_t> line, end_line;
    std::string text;
};
RIO_FIELDS(PlanComment, quote, line, end_line, text)

struct CommentReply {
    Wire<CommentAuthor> author;
    std::string text;
};
RIO_FIELDS(CommentReply, author, text)

// One thread: the comment, who wrote it, the replies in order, and its state. `id` ("c1",
// "c2", …) is unique within a plan and the revisions it is carried to.
struct ReviewComment {
    std::string id;
    std::string quote;
    std::optional<std::uint64_t> line, end_line;
    std::string text;
    Wire<CommentAuthor> author;
    std::vector<CommentReply> replies;
    Wire<CommentState> state;
    // Carried to a revision whose text no longer holds the quoted passage.
    std::optional<bool> detached;

    bool is(CommentState s) const { return state == s; }
};
RIO_FIELDS(ReviewComment, id, quote, line, end_line, text, author, replies, state, detached)

// A revision's answer to a comment (present_plan's `addresses`): the comment's id and the
// model's one-line reply.
struct CommentAnswer {
    std::string id;
    std::string reply;
};
RIO_FIELDS(CommentAnswer, id, reply)

} // namespace rio
