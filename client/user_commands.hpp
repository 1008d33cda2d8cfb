// The user's and the project's commands (DESIGN §23) as every frontend reads a message:
// "/shout-it x" runs the command shout-it with "x"; the core expands it (commands.run).
#pragma once

#include "protocol/messages.hpp"

#include <optional>
#include <string_view>

namespace rio::client {

// A message shaped like a command: '/', a name of letters, digits, '-', '_' or ':', then
// blanks and its arguments. nullopt otherwise ("/usr/bin is odd" is a path, not a name).
std::optional<CommandsRunParams> command_call(std::string_view text);

// "/NAME HINT  description (project)": a command as a list shows it.
std::string command_line(const CommandInfo& command);

} // namespace rio::client
