#include "core/agent/plan_track.hpp"

#include "core/agent/plan_report.hpp"
#include "core/sha256.hpp"
#include "core/unified_diff.hpp"
#include "protocol/tool_words.hpp"
#include "text/argv_text.hpp"
#include "text/command_output.hpp"
#include "text/lines.hpp"
#include "text/markdown.hpp"
#include "text/one_line.hpp"
#include "text/utf8.hpp"

#include <algorithm>
#include <fnmatch.h>

namespace rio {
namespace {

using Json = nlohmann::json;

// Cut to at most `max` bytes on a character boundary, marked with an ellipsis when cut.
std::string clipped(std::string text, std::size_t max) {
    if (text.size() <= max) return text;
    std::size_t end = max;
    while (end > 0 && !is_char_boundary(text, end))
        --end;
    text.resize(end);
    return text + "…";
}

// The first paragraph's (or heading's) text in a block, depth first; an item's own text is
// not in its nested lists.
std::string first_text(const md::Block& block, bool into_lists) {
    if (block.kind == md::BlockKind::paragraph || block.kind == md::BlockKind::heading)
        return one_line(md::plain_text(block.spans));
    for (const md::Block& child : block.children)
        if (child.kind != md::BlockKind::code && (into_lists || child.kind != md::BlockKind::list))
            if (std::string text = first_text(child, into_lists); !text.empty()) return text;
    return {};
}

PlanStep step(std::size_t n, std::string text) {
    return PlanStep{n, clipped(std::move(text), max_step_text_bytes),
                    std::string(to_wire(StepStatus::pending)), std::nullopt};
}

// A heading's words, lowercase ASCII letters only: "## Not doing (yet)" → {"not", "doing", "yet"}.
std::vector<std::string> words_of(const md::Block& heading) {
    std::vector<std::string> words(1);
    for (char c : md::plain_text(heading.spans)) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        if (c >= 'a' && c <= 'z')
            words.back().push_back(c);
        else if (!words.back().empty())
            words.emplace_back();
    }
    if (words.back().empty()) words.pop_back();
    return words;
}

bool has_word(const std::vector<std::string>& words, std::initializer_list<std::string_view> any) {
    return std::any_of(words.begin(), words.end(), [&](const std::string& w) {
        return std::find(any.begin(), any.end(), w) != any.end();
    });
}

// A section whose lists are what the plan leaves out: "Not doing", "Out of scope",
// "Non-goals", "Won't do", "Later".
bool is_left_out(const md::Block& heading) {
    auto w = words_of(heading);
    return has_word(w, {"not", "non", "nongoals", "out", "won", "wont", "later", "future",
                        "excluded", "unchanged"});
}

// A section whose lists are the changes: "Changes", "Steps", "Plan", "Proposed changes",
// "Implementation steps". A heading that merely mentions a plan ("Plan for the parser") is not.
bool is_changes(const md::Block& heading) {
    auto w = words_of(heading);
    if (has_word(w, {"change", "changes", "step", "steps", "todo", "tasks"})) return true;
    return w == std::vector<std::string>{"plan"} || w == std::vector<std::string>{"the", "plan"} ||
           w == std::vector<std::string>{"implementation"} ||
           w == std::vector<std::string>{"implementation", "plan"};
}

void add_items(const md::Block& list, std::vector<PlanStep>& steps) {
    for (const md::Block& item : list.children) {
        std::string text = first_text(item, false);
        if (!text.empty()) steps.push_back(step(steps.size() + 1, std::move(text)));
    }
}

} // namespace

bool is_step_status(std::string_view status) {
    return from_wire<StepStatus>(status).has_value();
}

std::string step_status_list() {
    std::string out;
    for (const auto& row : all_wire_names<StepStatus>())
        if (row.value != StepStatus::failed)
            out += (out.empty() ? "" : ", ") + std::string(row.name);
    return out;
}

std::vector<PlanStep> plan_steps(std::string_view plan) {
    md::Block doc = md::parse(plan);
    std::vector<PlanStep> changes, others;
    // Where the walk is: inside a "Changes" section (until a heading as high as its own, or
    // a left-out one), inside a left-out section (until a heading as high as its own).
    int changes_level = 0, left_out_level = 0;
    for (const md::Block& block : doc.children) {
        if (block.kind == md::BlockKind::heading) {
            if (changes_level && (block.level <= changes_level || is_left_out(block)))
                changes_level = 0;
            if (left_out_level && block.level <= left_out_level) left_out_level = 0;
            if (is_left_out(block))
                left_out_level = block.level;
            else if (is_changes(block) && !changes_level)
                changes_level = block.level;
            continue;
        }
        if (block.kind != md::BlockKind::list || left_out_level) continue;
        add_items(block, changes_level ? changes : others);
    }
    // A plan with a "Changes" list: that list is the checklist, not its notes or links; a
    // plan without one: its lists, as before, but never what it leaves out.
    std::vector<PlanStep> steps = !changes.empty() ? std::move(changes) : std::move(others);
    for (std::size_t i = 0; i < steps.size(); ++i)
        steps[i].n = i + 1;
    if (!steps.empty()) return steps;
    std::string text = first_text(doc, true);
    steps.push_back(step(1, text.empty() ? "Carry out the plan" : std::move(text)));
    return steps;
}

std::vector<PlanStep> declared_plan_steps(const std::vector<DeclaredStep>& declared) {
    std::vector<PlanStep> steps;
    for (const DeclaredStep& d : declared)
        steps.push_back(step(steps.size() + 1, one_line(d.text)));
    return steps;
}

std::vector<PlanStep> plan_checklist(std::string_view plan,
                                     const std::vector<DeclaredStep>& declared) {
    return declared.empty() ? plan_steps(plan) : declared_plan_steps(declared);
}

PlanTrack track_plan(std::uint64_t turn, std::string path, std::string text,
                     std::vector<DeclaredStep> declared) {
    PlanTrack track;
    track.turn = turn;
    track.open = true;
    track.path = std::move(path);
    track.steps = plan_checklist(text, declared);
    track.text = std::move(text);
    track.declared = std::move(declared);
    return track;
}

std::optional<std::string> refused_report(const PlanTrack& track, std::uint64_t step,
                                          std::string_view status) {
    std::string steps = track.steps.size() == 1 ? "the approved plan has one step, 1"
                                                : "the approved plan has steps 1 to " +
                                                      std::to_string(track.steps.size());
    if (step == 0 || step > track.steps.size())
        return "There is no step " + std::to_string(step) + ": " + steps +
               ". Nothing was recorded.";
    auto wanted = from_wire<StepStatus>(status);
    if (!wanted || *wanted == StepStatus::failed)
        return "'" + std::string(status) + "' is not a status you report; use one of " +
               step_status_list() +
               (wanted ? " (a step fails when its check does not pass: report done, and its "
                         "check decides)"
                       : "") +
               ". Nothing was recorded.";
    const PlanStep& s = track.steps[step - 1];
    if (*wanted == StepStatus::pending && !s.is(StepStatus::pending) &&
        !s.is(StepStatus::in_progress))
        return "Step " + std::to_string(step) + " is " + s.status +
               "; it does not go back to pending (report in_progress to work on it again). "
               "Nothing was recorded.";
    return std::nullopt;
}

const DeclaredStep* declared_step(const PlanTrack& track, std::uint64_t step) {
    if (step == 0 || step > track.declared.size()) return nullptr;
    return &track.declared[step - 1];
}

std::optional<std::string> set_step(PlanTrack& track, std::uint64_t step, std::string_view status,
                                    const std::optional<std::string>& note) {
    if (auto refused = refused_report(track, step, status)) return refused;
    PlanStep& s = track.steps[step - 1];
    s.status = std::string(status);
    if (s.is(StepStatus::done))
        s.verified = false; // nothing proved it
    else
        s.verified.reset();
    if (note)
        s.note = clipped(to_valid_utf8(*note), max_step_note_bytes);
    else
        s.note.reset();
    return std::nullopt;
}

void set_checked(PlanTrack& track, std::uint64_t step, CheckRun run,
                 const std::optional<std::string>& note) {
    PlanStep& s = track.steps[step - 1];
    bool passed = run.passed();
    s.status = std::string(to_wire(passed ? StepStatus::done : StepStatus::failed));
    s.verified = passed ? std::optional(true) : std::nullopt;
    s.check = std::move(run);
    if (note)
        s.note = clipped(to_valid_utf8(*note), max_step_note_bytes);
    else
        s.note.reset();
}

std::string check_result_text(const PlanTrack& track, std::uint64_t step) {
    const PlanStep& s = track.steps[step - 1];
    const CheckRun& run = *s.check;
    std::string how =
        !run.failure.empty() ? run.failure : "it exited " + std::to_string(run.exit.value_or(-1));
    PlanTally t = tally(track.steps);
    std::string counts =
        std::to_string(t.done) + " of " + std::to_string(t.total) + " steps are done.";
    std::string command = "`" + argv_text(run.argv) + "`";
    if (s.is(StepStatus::done))
        return "Step " + std::to_string(step) + "'s check " + command + " passed (" + how +
               "): step " + std::to_string(step) + " is done, verified. " + counts;
    std::string out = "Step " + std::to_string(step) + "'s check " + command + " did not pass (" +
                      how + "): step " + std::to_string(step) + " is failed, not done. " + counts +
                      " Fix what the check found and report done again; it runs again then.";
    if (!run.output.empty()) out += "\n\nThe check's output (its end):\n" + run.output;
    return out;
}

std::string evidence_output(std::string_view raw) {
    std::string plain = to_valid_utf8(plain_output(raw));
    // plain_output keeps what a terminal shows; evidence keeps no control character at all.
    std::erase_if(plain, [](char c) {
        auto u = static_cast<unsigned char>(c);
        return (u < 0x20 && c != '\n' && c != '\t') || u == 0x7f;
    });
    return std::string(output_tail(plain, max_evidence_bytes));
}

bool plan_covers(const PlanTrack& track, const std::string& path) {
    if (track.declared.empty()) return plan_names(track.text, path);
    bool any = false;
    for (const DeclaredStep& step : track.declared)
        for (const std::string& file : step.files) {
            any = true;
            std::string folder = file.ends_with('/') ? file : file + "/";
            // No FNM_PATHNAME: `*` may cross folders, so `src/*.py` covers src/a/b.py too — a
            // step's files say where it may change, and flagging less is the safe error here.
            if (file == path || path.starts_with(folder) ||
                ::fnmatch(file.c_str(), path.c_str(), 0) == 0)
                return true;
        }
    return !any;
}

bool touch(PlanTrack& track, const std::string& path) {
    if (std::find(track.touched.begin(), track.touched.end(), path) != track.touched.end())
        return false;
    track.touched.push_back(path);
    if (plan_covers(track, path)) return false;
    track.unplanned.push_back(path);
    return true;
}

bool drift_seen(PlanTrack& track, const FileHash& now) {
    auto known = std::find_if(track.expected.begin(), track.expected.end(),
                              [&](const FileHash& f) { return f.path == now.path; });
    if (known == track.expected.end() || known->sha256 == now.sha256) return false;
    if (std::find(track.drift.begin(), track.drift.end(), now.path) != track.drift.end())
        return false;
    track.drift.push_back(now.path);
    return true;
}

std::optional<std::string> drifted(PlanTrack& track, const std::string& path,
                                   std::string_view text) {
    auto known = std::find_if(track.expected.begin(), track.expected.end(),
                              [&](const FileHash& f) { return f.path == path; });
    if (known == track.expected.end()) return std::nullopt;
    // "" is a file that was missing at approval: still missing (created now) is no change.
    std::string now = text.empty() && known->sha256.empty() ? "" : sha256_hex(text);
    if (known->sha256 == now) return std::nullopt;
    drift_seen(track, {path, now});
    std::string words = path + " changed since the plan was approved, and not by the agent's "
                               "approved work (by a person, another program or a git command).";
    if (auto approved = track.approved_texts.find(path); approved != track.approved_texts.end())
        words += " What changed since the approval:\n" + unified_diff(approved->second, text, path);
    return words;
}

void expect_text(PlanTrack& track, const std::string& path, std::string_view text) {
    for (FileHash& f : track.expected)
        if (f.path == path) f.sha256 = sha256_hex(text);
}

void expect_files(PlanTrack& track, const std::vector<FileHash>& files) {
    for (const FileHash& now : files)
        for (FileHash& f : track.expected)
            if (f.path == now.path) f.sha256 = now.sha256;
}

void record_edit(PlanTrack& track, const std::string& path, std::string_view diff) {
    auto edit = std::find_if(track.edits.begin(), track.edits.end(),
                             [&](const ReceiptEdit& e) { return e.path == path; });
    if (edit == track.edits.end()) edit = track.edits.insert(track.edits.end(), {path, 0, 0});
    for (std::string_view line : split_lines(diff)) {
        if (line.starts_with("+++") || line.starts_with("---")) continue;
        if (line.starts_with('+')) ++edit->added;
        if (line.starts_with('-')) ++edit->removed;
    }
}

void record_usage(PlanTrack& track, std::uint64_t input, std::uint64_t output,
                  const std::string& model) {
    track.input_tokens += input;
    track.output_tokens += output;
    if (!model.empty() &&
        std::find(track.models.begin(), track.models.end(), model) == track.models.end())
        track.models.push_back(model);
}

PlanReceipt receipt_of(const PlanTrack& track, bool superseded) {
    PlanReceipt r;
    r.steps = track.steps;
    r.edits = track.edits;
    r.commands = track.commands;
    r.unplanned = track.unplanned;
    r.drift = track.drift;
    r.head_at_approval = track.head;
    r.input_tokens = track.input_tokens;
    r.output_tokens = track.output_tokens;
    r.models = track.models;
    r.final =
        superseded || std::all_of(track.steps.begin(), track.steps.end(), [](const PlanStep& s) {
            return s.is(StepStatus::done) || s.is(StepStatus::failed) || s.is(StepStatus::skipped);
        });
    return r;
}

std::vector<std::string> expected_paths(const PlanTrack& track) {
    std::vector<std::string> out;
    for (const FileHash& f : track.expected)
        out.push_back(f.path);
    return out;
}

PlanTally tally(const std::vector<PlanStep>& steps) {
    PlanTally t{0, steps.size(), {}};
    for (const PlanStep& s : steps)
        if (s.is(StepStatus::done)) ++t.done;
    return t;
}

PlanProgressEvent progress_event(const PlanTrack& track) {
    return PlanProgressEvent{track.turn,
                             track.path,
                             track.steps,
                             track.unplanned,
                             track.declared.empty() ? std::nullopt : std::optional(true),
                             track.drift.empty() ? std::nullopt : std::optional(track.drift)};
}

std::string steps_for_model(const PlanTrack& track) {
    std::string out = "The plan's steps:\n";
    bool checks = false;
    for (const PlanStep& s : track.steps) {
        out += std::to_string(s.n) + ". " + s.text;
        if (const DeclaredStep* d = declared_step(track, s.n); d && d->check) {
            out += " (check: " + argv_text(d->check->argv) + ")";
            checks = true;
        }
        out += "\n";
    }
    out += "\nReport your progress on them with " + std::string(tool_words::plan_progress.name) +
           " {step, status, note?} as you go: "
           "in_progress when you start a step, done when it is finished, skipped (with a note "
           "saying why) when you leave it out.";
    if (checks)
        out += " A step with a check is done only when its check passes: when you report it "
               "done, rio runs the check (sandboxed, as approved) and the step becomes done, or "
               "failed with the check's output for you to fix.";
    return out;
}

std::string progress_text(const std::vector<PlanStep>& steps) {
    std::string out;
    for (const PlanStep& s : steps) {
        out += std::to_string(s.n) + ". [" + s.status + "] " + s.text;
        if (s.note) out += " — " + one_line(*s.note);
        out += "\n";
    }
    return out;
}

std::string progress_field(const std::vector<PlanStep>& steps) {
    std::string out;
    for (const PlanStep& s : steps)
        out += (out.empty() ? "" : " ") + s.status;
    return out;
}

bool read_progress_field(std::string_view field, std::vector<PlanStep>& steps) {
    std::vector<std::string> words;
    std::string word;
    for (char c : std::string(field) + ' ') {
        if (c != ' ') {
            word.push_back(c);
            continue;
        }
        if (!word.empty()) words.push_back(std::exchange(word, {}));
    }
    if (words.size() != steps.size() ||
        !std::all_of(words.begin(), words.end(),
                     [](const std::string& w) { return is_step_status(w); }))
        return false;
    for (std::size_t i = 0; i < steps.size(); ++i)
        steps[i].status = words[i];
    return true;
}

std::string progress_tally(std::string_view field) {
    std::size_t done = 0, total = 0;
    std::size_t at = 0;
    while (at < field.size()) {
        std::size_t end = field.find(' ', at);
        if (end == std::string_view::npos) end = field.size();
        std::string_view word = field.substr(at, end - at);
        at = end + 1;
        if (word.empty()) continue;
        if (!is_step_status(word)) return {};
        ++total;
        if (wire_is(word, StepStatus::done)) ++done;
    }
    return total ? std::to_string(done) + "/" + std::to_string(total) : std::string();
}

std::string checks_field(const std::vector<PlanStep>& steps) {
    Json entries = Json::array();
    bool any = false;
    for (const PlanStep& s : steps) {
        if (!s.verified && !s.check) {
            entries.push_back(nullptr);
            continue;
        }
        any = true;
        Json entry = Json::object();
        if (s.verified) entry["verified"] = *s.verified;
        if (s.check) entry["check"] = *s.check;
        entries.push_back(std::move(entry));
    }
    return any ? entries.dump() : std::string();
}

bool read_checks_field(std::string_view field, std::vector<PlanStep>& steps) {
    Json entries = Json::parse(field, nullptr, false);
    if (!entries.is_array() || entries.size() != steps.size()) return false;
    std::vector<PlanStep> read = steps;
    try {
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const Json& entry = entries[i];
            if (entry.is_null()) continue;
            if (!entry.is_object()) return false;
            if (auto v = entry.find("verified"); v != entry.end())
                read[i].verified = v->get<bool>();
            if (auto c = entry.find("check"); c != entry.end()) read[i].check = c->get<CheckRun>();
        }
    } catch (const std::exception&) {
        return false;
    }
    steps = std::move(read);
    return true;
}

Json track_json(const PlanTrack& track) {
    Json j{{"turn", track.turn},   {"path", track.path},       {"text", track.text},
           {"steps", track.steps}, {"touched", track.touched}, {"unplanned", track.unplanned}};
    if (!track.declared.empty()) j["declared"] = track.declared;
    if (!track.expected.empty()) j["expected"] = track.expected;
    if (!track.head.empty()) j["head"] = track.head;
    if (!track.drift.empty()) j["drift"] = track.drift;
    if (!track.edits.empty()) j["edits"] = track.edits;
    if (!track.commands.empty()) j["commands"] = track.commands;
    if (track.input_tokens || track.output_tokens)
        j["tokens"] = {track.input_tokens, track.output_tokens};
    if (!track.models.empty()) j["models"] = track.models;
    return j;
}

std::optional<PlanTrack> track_from_json(const Json& j) {
    try {
        PlanTrack track;
        track.turn = j.at("turn").get<std::uint64_t>();
        track.path = j.at("path").get<std::string>();
        track.text = j.at("text").get<std::string>();
        track.steps = j.at("steps").get<std::vector<PlanStep>>();
        track.touched = j.value("touched", std::vector<std::string>{});
        track.unplanned = j.value("unplanned", std::vector<std::string>{});
        track.expected = j.value("expected", std::vector<FileHash>{});
        track.head = j.value("head", std::string());
        track.drift = j.value("drift", std::vector<std::string>{});
        track.edits = j.value("edits", std::vector<ReceiptEdit>{});
        track.commands = j.value("commands", std::vector<ReceiptCommand>{});
        if (auto tokens = j.find("tokens");
            tokens != j.end() && tokens->is_array() && tokens->size() == 2) {
            track.input_tokens = (*tokens)[0].get<std::uint64_t>();
            track.output_tokens = (*tokens)[1].get<std::uint64_t>();
        }
        track.models = j.value("models", std::vector<std::string>{});
        if (auto it = j.find("declared"); it != j.end() && it->is_array())
            for (const Json& d : *it)
                if (d.is_object()) track.declared.push_back(d.get<DeclaredStep>());
        // The declared steps are the checklist: a session whose two lists disagree is forged.
        if (!track.declared.empty() && track.declared.size() != track.steps.size())
            return std::nullopt;
        for (std::size_t i = 0; i < track.steps.size(); ++i)
            if (track.steps[i].n != i + 1 || !is_step_status(track.steps[i].status))
                return std::nullopt;
        if (track.steps.empty()) return std::nullopt;
        return track;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

} // namespace rio
