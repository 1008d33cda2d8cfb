// The three choices a frontend offers (Plan, Review, Auto) over the core's two settings,
// mode (build | plan) and auto-accept: one mapping, both ways, for every frontend.
#pragma once

#include "protocol/wire.hpp"

#include <string_view>
#include <vector>

namespace rio::client {

// plan: mode plan (auto-accept left as it is: approving a plan sets it).
// review: mode build, auto-accept off. auto_accept: mode build, auto-accept on.
enum class ModeChoice { plan, review, auto_accept };

ModeChoice mode_choice(std::string_view mode, bool auto_accept);
std::string_view mode_word(ModeChoice choice); // "plan", "review", "auto"

struct ModeRequest {
    std::string_view op;
    Json params;
};
// The requests that make the core's state match `choice`, in the order to send them.
std::vector<ModeRequest> mode_requests(ModeChoice choice);

} // namespace rio::client
