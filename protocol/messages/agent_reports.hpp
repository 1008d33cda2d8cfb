// The agent's later events: notes, plan reports and the plan contract's progress.
#pragma once

#include "protocol/messages/common.hpp"
#include "protocol/messages/plans.hpp"

namespace rio {

struct BufferChangedEvent {
    static constexpr std::string_view event = event::buffer_changed;
    std::string path;
    std::string reason; // opened, edited, saved, reloaded, disk_changed, closed
    std::uint64_t version = 0;
    bool dirty = false;
    std::optional<std::uint64_t> start, end; // edited: the byte range replaced
    std::optional<std::string> text;         // edited: what replaced it
    std::optional<bool> deleted;             // disk_changed: the file is gone

    bool is(BufferChange r) const { return wire_is(reason, r); }
};
RIO_FIELDS(BufferChangedEvent, path, reason, version, dirty, start, end, text, deleted)

struct FsChangedEvent {
    static constexpr std::string_view event = event::fs_changed;
    std::vector<std::string> paths;
};
RIO_FIELDS(FsChangedEvent, paths)

struct PlansChangedEvent {
    static constexpr std::string_view event = event::plans_changed;
    std::string path;
};
RIO_FIELDS(PlansChangedEvent, path)

// A plan's comments changed (issue 44): added, replied to, resolved, answered by a revision,
// or carried to one. All of them, as they now are.
struct PlanCommentsEvent {
    static constexpr std::string_view event = event::plans_comments;
    std::string path;
    std::vector<ReviewComment> comments;
};
RIO_FIELDS(PlanCommentsEvent, path, comments)

// Planned vs actual (DESIGN §13), when the turn that carried out an approved plan ended:
// the files its tools created or edited, those of them the plan does not name, and the
// project paths the plan names that none of them is.
// A plan's receipt (issue 43): what carrying it out did, at the end of each turn that did.
struct ReceiptEdit {
    std::string path;
    std::uint64_t added = 0, removed = 0; // lines
};
RIO_FIELDS(ReceiptEdit, path, added, removed)
struct ReceiptCommand {
    std::vector<std::string> argv;
    std::string sandbox;                    // the profile it ran under, "none" unsandboxed
    std::optional<int> exit = std::nullopt; // absent: it did not run to an exit
};
RIO_FIELDS(ReceiptCommand, argv, sandbox, exit)
struct PlanReceipt {
    std::string approved; // when, and the policy: "2026-12-05T04:00:00Z (auto)"
    std::vector<PlanStep> steps;
    std::vector<ReceiptEdit> edits;
    std::vector<ReceiptCommand> commands;
    std::vector<std::string> unplanned, drift;
    std::string head_at_approval, head_now; // git commits, "" outside git
    std::uint64_t input_tokens = 0, output_tokens = 0;
    std::vector<std::string> models;
    bool final = false; // every step is done, failed or skipped, or the plan was superseded
};
RIO_FIELDS(PlanReceipt, approved, steps, edits, commands, unplanned, drift, head_at_approval,
           head_now, input_tokens, output_tokens, models, final)

struct PlanReportEvent {
    static constexpr std::string_view event = event::plans_report;
    std::uint64_t turn = 0;
    std::string path;
    std::vector<std::string> touched;
    std::vector<std::string> unplanned;
    std::vector<std::string> untouched;
    // What the plan file's "## Receipt" section says, and the same as data.
    std::optional<PlanReceipt> receipt = std::nullopt;
    std::optional<std::string> receipt_text = std::nullopt;
};
RIO_FIELDS(PlanReportEvent, turn, path, touched, unplanned, untouched, receipt, receipt_text)

// The approved plan as a contract (DESIGN §20), on every change: a step's status, or a file
// created or edited that no step names (`unplanned`, as it happens).
struct PlanProgressEvent {
    static constexpr std::string_view event = event::plans_progress;
    std::uint64_t turn = 0;
    std::string path; // the plan file, "" without a project
    std::vector<PlanStep> steps;
    std::vector<std::string> unplanned;
    // The steps are the ones the model declared (with files and checks), not the plan's
    // "Changes" list: headless ends with 10 when one of them is not verified (issue 43).
    // Absent when they are not.
    std::optional<bool> declared = std::nullopt;
    // Files the steps name that something other than the agent's work changed since the
    // approval (issue 43); absent when none did.
    std::optional<std::vector<std::string>> drift = std::nullopt;
};
RIO_FIELDS(PlanProgressEvent, turn, path, steps, unplanned, declared, drift)

} // namespace rio
