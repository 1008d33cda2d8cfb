// Which filed plan a present_plan call presented (DESIGN §13: a chat's plan line reopens its
// plan). A live agent.propose names the plan's file; a call known only from agent.history — a
// window attached later, a conversation continued — carries its title and text but no path.
// The frontend then asks plans.list for the plans that may be it and plans.get for their
// texts; these say which is. No I/O here.
#pragma once

#include "protocol/messages.hpp"

#include <string>
#include <vector>

namespace rio::client {

// What a present_plan call's input presented (empty strings for what it lacks).
struct PresentedPlan {
    std::string title;
    std::string plan;
};
PresentedPlan presented_plan(const Json& input);

// The paths, in plans.list's order (newest first), of the plans filed under the presented
// title — or under the plan's own first heading, which a file titles itself by when the plan
// begins with one.
std::vector<std::string> plan_candidates(const PlansListResult& plans,
                                         const PresentedPlan& presented);

// Whether the filed plan (plans.get) holds the presented text, word for word: the title the
// core set above it and a review below it aside. A plan edited before its decision does not.
bool holds_plan(const PlanFull& filed, const PresentedPlan& presented);

} // namespace rio::client
