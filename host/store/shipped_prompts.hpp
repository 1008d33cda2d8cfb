// The base and plan prompts rio ships are what make the agent rio's agent, and plan mode
// plan mode: a core without them must not start (DESIGN §17). Checked once, at start-up.
#pragma once

#include "io/user_dirs.hpp"

#include <optional>
#include <string>

namespace rio {

// Nothing when dirs.share holds agent/prompt.md and agent/plan.md, each with some text;
// else one message naming each missing prompt and every path it was looked for at.
std::optional<std::string> missing_shipped_prompts(const UserDirs& dirs);

} // namespace rio
