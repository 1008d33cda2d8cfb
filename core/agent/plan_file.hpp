// Plan files (DESIGN §7): names, the readable Markdown with a small front-matter block, and
// status updates. Pure text in, text out; the host does the filing.
#pragma once

#include "protocol/closed_sets.hpp"
#include "protocol/proposal.hpp"

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rio {

using WallTime = std::chrono::system_clock::time_point;

// A plan is a document for a person to read; past this size it is refused (the model is told
// to write a shorter one), so a runaway model cannot make every frontend diff megabytes.
inline constexpr std::size_t max_plan_bytes = 256 * 1024;
inline constexpr std::size_t max_plan_title_chars = 200;

// The title as it is filed and shown: one line, control characters (C0, DEL, C1) and
// ill-formed UTF-8 turned into spaces, runs of spaces into one, trimmed, at most
// max_plan_title_chars characters; "Plan" when nothing is left.
std::string plan_title(std::string_view title);
// The plan's text as it is filed: NUL bytes removed (a file holding one reads as binary).
std::string plan_body(std::string_view plan);

// Latin letters with diacritics transliterated (ü → u, é → e, ß → ss, æ → ae), then
// lowercase ASCII letters and digits kept; every other run becomes '-'; trimmed; at most 48
// characters; "plan" when nothing is left.
std::string plan_slug(std::string_view title);

// ".rio/plans/<YYYYmmdd-HHMMSS>-<slug>.md" in UTC; `attempt` > 1 appends "-2", "-3" for
// same-second clashes.
std::string plan_file_path(WallTime presented, std::string_view slug, int attempt = 1);

// "2026-11-30T00:00:00Z"; with_millis: "2026-11-30T00:00:00.250Z" (plans presented in the
// same second still sort).
std::string iso_time(WallTime t, bool with_millis = false);
// Either form back, as milliseconds since the epoch.
std::optional<long long> parse_iso_time(std::string_view text);

// The file: front matter (status presented, the time to the millisecond, `revises` for a
// revision, `steps` when the model declared them), then the plan, led by "# <title>" unless
// the plan already starts with a level-1 heading.
std::string render_plan_file(std::string_view title, std::string_view plan, WallTime presented,
                             std::string_view revises = {},
                             const std::vector<DeclaredStep>& steps = {});
// The body render_plan_file writes below the front matter: what an unedited file holds.
std::string plan_file_body(std::string_view title, std::string_view plan);

// The heading of the section a decision with comments or feedback appends to the file.
inline constexpr std::string_view review_heading = "## Review\n";

struct PlanFileInfo {
    std::string status; // presented | approved | rejected | abandoned ("" without front matter)
    std::string presented;
    std::string decided;
    std::string policy;
    std::string approved_in; // the frontend a person approved it in ("rio-cli"), "" unknown
    std::string revises;     // the plan this one revises, "" for a first plan
    // Once the approved plan's work ended: what it created or edited, and of those the ones
    // the plan did not name.
    std::optional<std::vector<std::string>> touched, unplanned;
    // Once approved: one status word per step (DESIGN §20; plan_track reads it).
    std::optional<std::string> progress;
    // Once a step was done: whether checks proved the steps, and their runs (plan_track reads
    // it); the body stays as approved (decision 0063).
    std::optional<std::string> checks;
    // The steps the model declared with the plan (one line of JSON, a YAML flow sequence):
    // they, not the body's lists, are the plan's checklist. Empty when it declared none.
    std::vector<DeclaredStep> steps;
    std::string title;   // the first heading of the body
    std::string body;    // everything after the front matter
    std::string plan;    // the body without the review section
    std::string review;  // that section, from its heading; "" when none
    std::string receipt; // the core's receipt section, last, from its heading; "" when none
};

PlanFileInfo parse_plan_file(std::string_view text);

// Rewrites the front matter's status, decision time and policy, keeping the body byte for
// byte and the other fields as they are. A file whose front matter the user removed gets a
// fresh block.
std::string set_plan_status(std::string_view text, PlanStatus status, WallTime decided,
                            std::string_view policy, std::string_view approved_in = {});

// Appends `section` (which starts with review_heading) after a blank line and records
// `comments: <count>` in the front matter, which is what marks the section as the core's.
std::string add_plan_review(std::string_view text, std::string_view section, std::size_t comments);

// Records `open_comments: <count>` in the front matter: how many of the plan's comments were
// still open when it was decided (issue 44); 0 leaves the field out.
std::string set_plan_open_comments(std::string_view text, std::size_t open);

// Records the approved plan's steps' statuses (`progress`, from plan_track's progress_field)
// and their evidence (`checks`, from checks_field; "" leaves it out).
std::string set_plan_progress(std::string_view text, std::string_view progress,
                              std::string_view checks = {});

// Puts the receipt section (plan_receipt's, from its heading) at the end, in place of the one
// written before, and records `receipt: yes` in the front matter, which marks it as the core's.
std::string set_plan_receipt(std::string_view text, std::string_view section);

// Records what the approved plan's work changed: `touched` and `unplanned` as lists of paths.
std::string set_plan_outcome(std::string_view text, const std::vector<std::string>& touched,
                             const std::vector<std::string>& unplanned);

} // namespace rio
