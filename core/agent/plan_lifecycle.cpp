#include "core/agent/plan_lifecycle.hpp"

namespace rio {
namespace {

std::string with_feedback(const std::string& feedback) {
    return feedback.empty() ? std::string() : " Their feedback: " + feedback;
}

} // namespace

PlanApproval approve_plan(GateSettings before, const std::optional<std::string>& policy) {
    PlanApproval approval{before, "The user approved the plan."};
    if (policy) approval.after.auto_accept = *policy == "auto";
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

std::string approved_plan_result(const std::string& note, bool edited, const std::string& text) {
    if (!edited) return note;
    return note +
           "\n\nThe user edited the plan before approving it. This is the approved "
           "plan; follow it rather than your original text:\n\n" +
           text;
}

std::string rejection_note(std::string_view kind, const std::string& feedback) {
    if (kind == "plan")
        return "The user rejected the plan." + with_feedback(feedback) +
               " Do not start the work and do not change anything. Ask the user what should "
               "change, or revise the plan and present it again with present_plan.";
    if (kind == "edit")
        return "The user rejected this change; the file is unchanged." + with_feedback(feedback) +
               " Do not retry the same change: adjust it or ask the user.";
    return "The user declined to run this command." + with_feedback(feedback);
}

} // namespace rio
