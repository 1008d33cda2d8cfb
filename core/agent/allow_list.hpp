// The command allow-list (DESIGN §6): human-written rules, one per line, each an argv
// prefix. "git status" allows ["git", "status", ...]; "make test" allows ["make", "test"].
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rio {

using AllowRule = std::vector<std::string>;

// Lines are split into words on whitespace; single or double quotes keep spaces inside a
// word; '#' starts a comment; blank lines are skipped.
std::vector<AllowRule> parse_allow_rules(std::string_view text);

bool command_allowed(const std::vector<AllowRule>& rules, const std::vector<std::string>& argv);

} // namespace rio
