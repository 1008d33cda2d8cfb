#include "core/agent/plan_lifecycle.hpp"

namespace rio {
namespace {

std::string with_feedback(const std::string& feedback) {
    return feedback.empty() ? std::string() : " Their feedback: " + feedback;
}

} // namespace

PlanApproval approve_plan(GateSettings before, const std::optional<Wire<ApprovalPolicy>>& policy) {
    PlanApproval approval{before, "The user approved the plan."};
    if (policy) approval.after.auto_accept = *policy == ApprovalPolicy::automatic;
    if (before.mode == Mode::plan) {
        approval.after.mode = Mode::build;
        approval.note += " Plan mode has ended: the editing tools are available now.";
    }
    approval.note += approval.after.auto_accept
                         ? " Your edits will be applied without further review."
                         : " The user will review each edit before it is applied.";
    approval.note += " Carry out the plan step by step, then verify the result.";
    return approval;
}

std::string approved_plan_result(const std::string& note, bool edited, const std::string& text,
                                 const PlanReview& review) {
    std::string out = note;
    if (edited)
        out += "\n\nThe user edited the plan before approving it. This is the approved "
               "plan; follow it rather than your original text:\n\n" +
               text;
    if (!review.feedback.empty()) out += "\n\nThe user's notes: " + review.feedback;
    if (!review.comments.empty())
        out += "\n\nThe user approved the plan with comments on these passages; follow them "
               "as you carry it out:\n\n" +
               quoted_comments(review.comments);
    if (!review.still_open.empty())
        out += "\n\nThe user approved it with " + std::to_string(review.still_open.size()) +
               (review.still_open.size() == 1 ? " comment" : " comments") +
               " still open; heed them as you carry it out:\n\n" +
               quoted_comments(review.still_open);
    if (std::string unknown = unknown_addresses_note(review.unknown_addresses); !unknown.empty())
        out += "\n\n" + unknown;
    return out;
}

std::string rejection_note(std::optional<ToolKind> kind, const std::string& feedback) {
    if (kind == ToolKind::plan) return plan_rejection_note(PlanReview{false, feedback, {}});
    if (kind == ToolKind::edit)
        return "The user rejected this change; the file is unchanged." + with_feedback(feedback) +
               " Do not retry the same change: adjust it or ask the user.";
    if (kind == ToolKind::mcp)
        return "The user declined this call of an MCP server's tool; nothing was done." +
               with_feedback(feedback);
    return "The user declined to run this command." + with_feedback(feedback);
}

std::string plan_rejection_note(const PlanReview& review) {
    std::string unknown = unknown_addresses_note(review.unknown_addresses);
    if (!unknown.empty()) unknown = " " + unknown;
    if (review.comments.empty() && review.still_open.empty())
        return "The user rejected the plan." + with_feedback(review.feedback) +
               " Do not start the work and do not change anything. Ask the user what should "
               "change, or revise the plan and present it again with present_plan." +
               unknown;
    std::string out = "The user requested changes to the plan." + with_feedback(review.feedback);
    if (!review.comments.empty())
        out += " Their comments on passages of the plan:\n\n" + quoted_comments(review.comments);
    if (!review.still_open.empty())
        out += std::string(review.comments.empty() ? " " : "\n") +
               "Comments still open from before:\n\n" + quoted_comments(review.still_open);
    return out +
           "\nDo not start the work and do not change anything. Revise the plan so that it "
           "answers every comment and present it again with present_plan, passing `addresses` "
           "with each answered comment's id and a one-line reply; or ask the user what they "
           "mean." +
           unknown;
}

std::string fresh_context_seed(const std::string& request, const std::string& plan,
                               const std::string& note, const PlanReview& review) {
    std::string out = request +
                      "\n\n---\n\nYou planned this task in an earlier conversation and the user "
                      "approved the plan below. " +
                      note + "\n\nThe approved plan:\n\n" + plan;
    if (!review.feedback.empty()) out += "\n\nThe user's notes: " + review.feedback;
    if (!review.comments.empty())
        out += "\n\nThe user's comments on passages of the plan; follow them:\n\n" +
               quoted_comments(review.comments);
    return out;
}

} // namespace rio
