// How the chat's mode control names the three choices of client/modes.hpp (Plan, Review,
// Auto); the mapping onto the core's two settings lives there, shared with the terminal.
#pragma once

#include "client/modes.hpp"

#include <QString>

namespace rio::gui {

using client::mode_choice;
using client::ModeChoice;

QString mode_label(ModeChoice choice);   // "Plan", "Review", "Auto"
QString mode_tooltip(ModeChoice choice); // what the choice means, one sentence

} // namespace rio::gui
