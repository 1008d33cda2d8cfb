// A plan's life in the gate (DESIGN §6, §7), decided in one place: what approving it does to
// the mode and the edit policy and what the model is then told; what a rejection tells it;
// when an undecided plan is abandoned. The loop applies these; the plan file itself is
// agent_tools/present_plan's.
#pragma once

#include "core/agent/plan_review.hpp"
#include "core/agent/tools.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace rio {

struct GateSettings {
    Mode mode = Mode::build;
    bool auto_accept = false;
};

struct PlanApproval {
    GateSettings after; // plan mode ends; auto-accept follows the policy when one was given
    std::string note;   // the start of the tool result: what the model may now do
};

PlanApproval approve_plan(GateSettings before, const std::optional<Wire<ApprovalPolicy>>& policy);

// The tool result of an approved plan: the note, the user's version of the plan when they
// edited it before approving, and their notes (feedback, comments on passages) if any.
std::string approved_plan_result(const std::string& note, bool edited, const std::string& text,
                                 const PlanReview& review = {});

// What the model is told when a person rejects a proposal of this kind (plan, edit, command).
std::string rejection_note(std::optional<ToolKind> kind, const std::string& feedback);
// A plan's rejection, with the comments on its passages: "request changes".
std::string plan_rejection_note(const PlanReview& review);

// The one message a conversation continued "in a fresh context" starts with: the user's
// request, the approved plan with the notes that came with its approval, and that the model
// is to carry it out now (`note` says what it may do, as for any approval).
std::string fresh_context_seed(const std::string& request, const std::string& plan,
                               const std::string& note, const PlanReview& review);

} // namespace rio
