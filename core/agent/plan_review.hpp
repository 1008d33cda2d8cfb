// Comments on a plan's passages (DESIGN §13): checked before anything changes, quoted for
// the model with each passage verbatim, and written into the plan file as its "## Review".
#pragma once

#include "protocol/messages.hpp"

#include <optional>
#include <string>
#include <vector>

namespace rio {

// A decision's words about a plan: reject with them is "request changes", approve with them
// is "approve with notes".
struct PlanReview {
    bool approved = false;
    std::string feedback;
    std::vector<ReviewComment> comments; // this decision's, with the ids they are filed under
    // The plan's comments that were open before the decision (issue 44): a rejection tells
    // the model of them too; an approval records how many.
    std::vector<ReviewComment> still_open = {};
    // Ids the plan's `addresses` named that no comment has: the tool result lists them.
    std::vector<std::string> unknown_addresses = {};

    bool empty() const { return feedback.empty() && comments.empty(); }
};

// What is wrong with these comments, naming the field ("params.comments[1].text is empty"),
// or nullopt when they can be sent. The JSON shape itself is checked by the protocol.
std::optional<std::string> comments_problem(const std::vector<PlanComment>& comments);

// "lines 12-14", "line 3", or "" without a line.
std::string comment_place(const ReviewComment& comment);

// For the model, by id: where, the passage with "> " before each of its lines, then the
// comment as written and the replies after it.
std::string quoted_comments(const std::vector<ReviewComment>& comments);

// For the model: the ids present_plan's `addresses` named that no comment has, or "".
std::string unknown_addresses_note(const std::vector<std::string>& ids);

// The plan file's section: review_heading, what was decided, the feedback, each comment.
std::string review_section(const PlanReview& review);

} // namespace rio
