// The approved plan as a contract (DESIGN §20): its steps — those the model declared with it,
// else the "Changes" list of the text as approved — with their progress, and the files its work
// created or edited that the plan does not name. The loop keeps one per conversation, for the plan
// approved last; the plan lifecycle decides what approving does, this what follows. Pure: no I/O.
#pragma once

#include "protocol/messages.hpp"
#include "protocol/proposal.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rio {

bool is_step_status(std::string_view status);
// "pending, in_progress, done, skipped": what the model reports (`failed` is the core's).
std::string step_status_list();

inline constexpr std::size_t max_step_text_bytes = 300;
// A longer note is clipped to this, on a character boundary.
inline constexpr std::size_t max_step_note_bytes = 2000;

// The steps of a plan that declared none (issue 43's fallback), all pending, numbered from 1:
// the top-level list items, numbered or bulleted, in order, under a heading like "Changes",
// "Steps" or "Plan" when the plan has such a list; else of all its lists. Never the items of
// a section it leaves out ("Not doing", "Out of scope", "Non-goals"). Nested items belong to
// their parent, list items in code blocks are not items. A step's text is its item's first
// paragraph, on one line. A plan without a list is one step.
std::vector<PlanStep> plan_steps(std::string_view plan);
// The declared steps as a checklist, all pending, numbered from 1.
std::vector<PlanStep> declared_plan_steps(const std::vector<DeclaredStep>& declared);
// The checklist of a plan: its declared steps when there are any, else plan_steps.
std::vector<PlanStep> plan_checklist(std::string_view plan,
                                     const std::vector<DeclaredStep>& declared);

struct PlanTrack {
    std::uint64_t turn = 0; // the turn that approved it: plan_progress works in that one only
    bool open = false;      // that turn is still running
    std::string path;       // the plan file, "" without a project
    std::string text;       // the approved text, verbatim
    std::vector<PlanStep> steps;
    std::vector<DeclaredStep> declared; // the model's steps, with files and checks; or none
    std::vector<std::string> touched;   // created or edited since the approval, in order
    std::vector<std::string> unplanned; // of those, the ones the plan does not name
    // Changes since approval (issue 43): the files the steps name as the plan's own work last
    // left them — at approval, then after its edits, approved commands and checks — the git
    // HEAD at approval ("" outside git), and the named files something else changed since.
    std::vector<FileHash> expected = {};
    std::string head = "";
    std::vector<std::string> drift = {};
    // For the receipt: the edits and commands of the plan's work, tokens and models.
    std::vector<ReceiptEdit> edits = {};
    std::vector<ReceiptCommand> commands = {};
    std::uint64_t input_tokens = 0, output_tokens = 0;
    std::vector<std::string> models = {};
    // Not kept in the session: the named files' texts at approval, to show what changed.
    std::map<std::string, std::string, std::less<>> approved_texts = {};
};

// A plan just approved in `turn`: its steps (plan_checklist) pending, nothing touched yet.
PlanTrack track_plan(std::uint64_t turn, std::string path, std::string text,
                     std::vector<DeclaredStep> declared = {});

// Why the model may not report `status` on `step` (nullopt when it may): the step does not
// exist, the status is not one the model reports (`failed` is decided by a check), or it is out
// of order (a step that left `pending` does not go back to it).
std::optional<std::string> refused_report(const PlanTrack& track, std::uint64_t step,
                                          std::string_view status);
// The check the model declared for a step (nullptr: none, or the step does not exist).
const DeclaredStep* declared_step(const PlanTrack& track, std::uint64_t step);

// Sets a step's status and note (a note longer than max_step_note_bytes is clipped): `done`
// without a check is done unverified. Returns why it could not (refused_report) and changes
// nothing then.
std::optional<std::string> set_step(PlanTrack& track, std::uint64_t step, std::string_view status,
                                    const std::optional<std::string>& note);
// A step's check ran: `done` and verified when it passed, else `failed`; its run kept as the
// step's evidence. The step must exist.
void set_checked(PlanTrack& track, std::uint64_t step, CheckRun run,
                 const std::optional<std::string>& note);
// What the model reads after a check: passed or not, how it ended, and on failure its output.
std::string check_result_text(const PlanTrack& track, std::uint64_t step);

// The tail of a check's output as evidence keeps it: terminal escapes and other control
// characters taken out (line breaks and tabs stay), valid UTF-8, at most max_evidence_bytes.
inline constexpr std::size_t max_evidence_bytes = 2000;
std::string evidence_output(std::string_view raw);

// Whether the approved plan covers a file: with declared steps, one of their `files` names it
// (a path, a folder above it, or a glob), and a plan whose steps name no files covers every
// file; without declared steps, the plan's text names it (plan_report's rule).
bool plan_covers(const PlanTrack& track, const std::string& path);

// Records a file the plan's work created or edited. True when it is new to `unplanned`: the
// plan does not cover it.
bool touch(PlanTrack& track, const std::string& path);

// A file the steps name is about to be edited, its text now `text`: when that is not what the
// plan's own work left, the change is drift — recorded once in `drift` — and the words (with a
// diff from the approved text, when kept) are returned; nullopt when there is none.
std::optional<std::string> drifted(PlanTrack& track, const std::string& path,
                                   std::string_view text);
// A file the steps name holds `now` (its hash; "" when missing): when that is not what the
// plan's own work left, it is drift, recorded once. True when it is new to `drift`.
bool drift_seen(PlanTrack& track, const FileHash& now);
// The plan's own work left these files so (an applied edit's text, or the files after an
// approved command or a check): what they hold now is expected, not drift.
void expect_text(PlanTrack& track, const std::string& path, std::string_view text);
void expect_files(PlanTrack& track, const std::vector<FileHash>& files);
// The paths `expected` holds, to hash again after a command or a check.
std::vector<std::string> expected_paths(const PlanTrack& track);

// For the receipt: an applied edit (its unified diff's lines added and removed, summed per
// file), a command that ran, a step's usage report and the model that answered.
void record_edit(PlanTrack& track, const std::string& path, std::string_view diff);
void record_usage(PlanTrack& track, std::uint64_t input, std::uint64_t output,
                  const std::string& model);
// The receipt as far as the loop knows it (the host adds when it was approved and the HEAD
// now). `superseded`: another plan was approved after it.
PlanReceipt receipt_of(const PlanTrack& track, bool superseded);

PlanTally tally(const std::vector<PlanStep>& steps);
PlanProgressEvent progress_event(const PlanTrack& track);

// What the approval's tool result adds: the numbered steps, their checks, and how to report.
std::string steps_for_model(const PlanTrack& track);
// The steps with their statuses and notes, as a compacted conversation carries them.
std::string progress_text(const std::vector<PlanStep>& steps);

// The plan file's front-matter field: one status word per step, in order.
std::string progress_field(const std::vector<PlanStep>& steps);
// Takes the statuses of `field` into `steps`; false (and `steps` unchanged) when it does not
// fit them: another count of words, or a word that is not a status.
bool read_progress_field(std::string_view field, std::vector<PlanStep>& steps);

// "5/8" from a progress field: the steps done of all; "" when the field is not statuses.
std::string progress_tally(std::string_view field);

// The plan file's `checks` field: one line of JSON (a YAML flow sequence), one entry per step,
// null for a step with nothing to show, else {verified?, check?}; "" when no step has either.
std::string checks_field(const std::vector<PlanStep>& steps);
// Takes the field's evidence into `steps`; false (and `steps` unchanged) when it does not fit.
bool read_checks_field(std::string_view field, std::vector<PlanStep>& steps);

// As a session file keeps it, and back; nullopt when the JSON is not a track.
nlohmann::json track_json(const PlanTrack& track);
std::optional<PlanTrack> track_from_json(const nlohmann::json& j);

} // namespace rio
