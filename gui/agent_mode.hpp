// The chat's mode control offers three choices, but the core holds two settings: the mode
// (build | plan) and auto-accept. This maps one onto the other, both ways, so the control can
// show what the core says and ask the core for what the person picks.
#pragma once

#include "protocol/wire.hpp"

#include <QString>
#include <string_view>
#include <vector>

namespace rio::gui {

// plan: mode plan (auto-accept left as it is: plan approval sets it).
// review: mode build, auto-accept off. auto_accept: mode build, auto-accept on.
enum class ModeChoice { plan, review, auto_accept };

ModeChoice mode_choice(std::string_view mode, bool auto_accept);
QString mode_label(ModeChoice choice);   // "Plan", "Review", "Auto"
QString mode_tooltip(ModeChoice choice); // what the choice means, one sentence

// One request to the core.
struct CoreRequest {
    QString op;
    Json params;
};
// The requests that make the core's state match `choice`, in the order to send them.
std::vector<CoreRequest> mode_requests(ModeChoice choice);

} // namespace rio::gui
