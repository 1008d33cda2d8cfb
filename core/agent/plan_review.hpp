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
    std::vector<PlanComment> comments;

    bool empty() const { return feedback.empty() && comments.empty(); }
};

// What is wrong with these comments, naming the field ("params.comments[1].text is empty"),
// or nullopt when they can be sent. The JSON shape itself is checked by the protocol.
std::optional<std::string> comments_problem(const std::vector<PlanComment>& comments);

// "lines 12-14", "line 3", or "" without a line.
std::string comment_place(const PlanComment& comment);

// For the model, numbered: where, the passage with "> " before each of its lines, then the
// comment as written.
std::string quoted_comments(const std::vector<PlanComment>& comments);

// The plan file's section: review_heading, what was decided, the feedback, each comment.
std::string review_section(const PlanReview& review);

} // namespace rio
