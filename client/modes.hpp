// The three choices a frontend offers (Plan, Review, Auto) over the core's two settings,
// mode (build | plan) and auto-accept: one mapping, both ways, for every frontend.
#pragma once

#include "protocol/messages.hpp"

#include <optional>
#include <string_view>

namespace rio::client {

// plan: mode plan (auto-accept left as it is: approving a plan sets it).
// review: mode build, auto-accept off. auto_accept: mode build, auto-accept on.
enum class ModeChoice { plan, review, auto_accept };

ModeChoice mode_choice(std::string_view mode, bool auto_accept);
std::string_view mode_word(ModeChoice choice); // "plan", "review", "auto"
// Shift+Tab's next choice: plan → review → auto → plan.
ModeChoice next_choice(ModeChoice choice);

// The requests that make the core's state match `choice`, in the order to send them:
// auto-accept first (plan leaves it as it is), then the mode.
struct ModeRequests {
    std::optional<AutoAcceptSetParams> auto_accept;
    ModeSetParams mode;
};
ModeRequests mode_requests(ModeChoice choice);

} // namespace rio::client
