// The command allow-list (DESIGN §6): human-written rules, one per line, each an argv
// prefix and the folder it applies in. "git status" allows ["git", "status", ...] run in the
// project root; "cwd=docs make html" allows ["make", "html"] run in docs/; "cwd=* make test"
// in any folder of the project (decision 0047).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rio {

struct AllowRule {
    std::vector<std::string> argv; // the prefix an allowed argv starts with
    std::string cwd = ".";         // project-relative, "." the root; "*" any folder
    friend bool operator==(const AllowRule&, const AllowRule&) = default;
};

// Lines are split into words on whitespace; single or double quotes keep spaces inside a
// word; '#' starts a comment; blank lines are skipped. A first word `cwd=FOLDER` names the
// folder ("./" and a trailing "/" dropped); without it the rule applies in the root only.
std::vector<AllowRule> parse_allow_rules(std::string_view text);

// `cwd`: the command's working folder, project-relative ("." or "" for the root).
bool command_allowed(const std::vector<AllowRule>& rules, const std::vector<std::string>& argv,
                     std::string_view cwd);

// A rule as the trust question shows it: "`make test`", "`make html` in docs".
std::string rule_text(const AllowRule& rule);

} // namespace rio
