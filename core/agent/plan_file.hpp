// Plan files (DESIGN §7): names, the readable Markdown with a small front-matter block, and
// status updates. Pure text in, text out; the host does the filing.
#pragma once

#include <ctime>
#include <string>
#include <string_view>

namespace rio {

// Lowercase ASCII letters and digits; every other run becomes '-'; trimmed; at most 48
// characters; "plan" when nothing is left.
std::string plan_slug(std::string_view title);

// ".rio/plans/<YYYYmmdd-HHMMSS>-<slug>.md" in UTC; `attempt` > 1 appends "-2", "-3" for
// same-second clashes.
std::string plan_file_path(std::time_t presented, std::string_view slug, int attempt = 1);

std::string iso_time(std::time_t t);

// The file: front matter (status presented, the time), then the plan, led by "# <title>"
// unless the plan already starts with a heading.
std::string render_plan_file(std::string_view title, std::string_view plan, std::time_t presented);

struct PlanFileInfo {
    std::string status; // presented | approved | rejected ("" when there is no front matter)
    std::string presented;
    std::string decided;
    std::string policy;
    std::string title; // the first heading of the body
    std::string body;  // everything after the front matter
};

PlanFileInfo parse_plan_file(std::string_view text);

// Rewrites the front matter's status, decision time and policy, keeping the body byte for
// byte. A file whose front matter the user removed gets a fresh block.
std::string set_plan_status(std::string_view text, std::string_view status, std::time_t decided,
                            std::string_view policy);

} // namespace rio
