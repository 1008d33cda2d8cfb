// Plans (DESIGN §20): the plan files, their steps and threads.
#pragma once

#include "protocol/messages/common.hpp"

namespace rio {

struct PlanInfo {
    std::string path;
    std::string title;
    std::string status; // presented, approved, rejected, abandoned
    std::string created;
    std::optional<std::string> revises;  // the plan this one revises: chains of revisions
    std::optional<std::string> progress; // once approved: "5/8", its steps done of all

    bool is(PlanStatus st) const { return wire_is(status, st); }
};
RIO_FIELDS(PlanInfo, path, title, status, created, revises, progress)

struct PlansListResult {
    std::vector<PlanInfo> plans;
};
RIO_FIELDS(PlansListResult, plans)

struct PlansListParams : Empty {
    static constexpr std::string_view op = op::plans_list;
    using Result = PlansListResult;
};

// A file a step names, as it was when its check ran: sha256 of its bytes, "" when it is missing.
struct FileHash {
    std::string path;
    std::string sha256;
};
RIO_FIELDS(FileHash, path, sha256)

// A step's check, run (issue 43): the evidence its status rests on. It passed only when it
// ran to exit 0; `failure` says why it did not run to an exit ("timed out after 300 s", "the
// sandbox is unavailable: …"). `output` is the tail of what it printed, keys redacted and
// control characters taken out.
struct CheckRun {
    std::vector<std::string> argv;
    std::string cwd;     // project-relative, "." for the root
    std::string sandbox; // the profile it ran under: read-only or workspace-write
    std::optional<int> exit = std::nullopt;
    std::string failure = "";
    double seconds = 0;
    std::string output = "";
    std::vector<FileHash> files = {}; // the step's files then, its globs expanded
    std::string at = "";              // when it ended (ISO 8601)

    bool passed() const { return exit == 0 && failure.empty(); }
};
RIO_FIELDS(CheckRun, argv, cwd, sandbox, exit, failure, seconds, output, files, at)

// A step of an approved plan (DESIGN §20): declared with it, or a top-level list item of its
// "Changes", numbered from 1. Once done, `verified` says whether a check proved it (false: the
// step has no check); `check` is its last check's run.
struct PlanStep {
    std::uint64_t n = 0;
    std::string text;
    std::string status; // pending, in_progress, done, failed, skipped
    std::optional<std::string> note;
    std::optional<bool> verified = std::nullopt;
    std::optional<CheckRun> check = std::nullopt;

    bool is(StepStatus st) const { return wire_is(status, st); }
};
RIO_FIELDS(PlanStep, n, text, status, note, verified, check)

struct PlanFull {
    std::string path;
    std::string title;
    std::string status;
    std::string created;
    std::string decided;
    std::string policy;
    std::string body;                   // the file below its front matter
    std::string plan;                   // the body without its "## Review" section
    std::optional<std::string> review;  // that section, when the decision added one
    std::optional<std::string> revises; // the plan this one revises
    std::optional<std::vector<std::string>> touched, unplanned; // once its work ended
    std::optional<std::vector<PlanStep>> steps;                 // once approved
    // The progress in the front matter did not fit the plan (edited by hand): the steps are
    // shown as pending, and this says why.
    std::optional<std::string> warning;
    // The steps the model declared, with their files and checks (DESIGN §20); absent when it
    // declared none and `steps` come from the plan's "Changes" list.
    std::optional<std::vector<DeclaredStep>> declared = std::nullopt;
    // The receipt section (Markdown, last in `body`) once a turn carried the plan out.
    std::optional<std::string> receipt = std::nullopt;
    // Its review comments with their replies and states (issue 44); absent when it has none.
    std::optional<std::vector<ReviewComment>> comments = std::nullopt;
};
RIO_FIELDS(PlanFull, path, title, status, created, decided, policy, body, plan, review, revises,
           touched, unplanned, steps, warning, declared, receipt, comments)

struct PlansGetParams {
    static constexpr std::string_view op = op::plans_get;
    using Result = PlanFull;
    std::string path;
};
RIO_FIELDS(PlansGetParams, path)

// A person's comment on a plan's passage, a reply to a comment, a comment resolved (issue
// 44): each answers with the comment as it now is, and plans.comments tells every client.
struct PlansCommentAddParams {
    static constexpr std::string_view op = op::plans_comment_add;
    using Result = ReviewComment;
    std::string path;
    std::string quote;
    std::optional<std::uint64_t> line, end_line;
    std::string text;
};
RIO_FIELDS(PlansCommentAddParams, path, quote, line, end_line, text)

struct PlansCommentReplyParams {
    static constexpr std::string_view op = op::plans_comment_reply;
    using Result = ReviewComment;
    std::string path;
    std::string id;
    std::string text;
};
RIO_FIELDS(PlansCommentReplyParams, path, id, text)

struct PlansCommentResolveParams {
    static constexpr std::string_view op = op::plans_comment_resolve;
    using Result = ReviewComment;
    std::string path;
    std::string id;
};
RIO_FIELDS(PlansCommentResolveParams, path, id)

// A person runs a step's check again (issue 43): a step of the plan approved in this
// conversation, while no turn runs. The result is the step as it now is, its `check` this run;
// plans.progress follows.
struct PlansCheckParams {
    static constexpr std::string_view op = op::plans_check;
    using Result = PlanStep;
    std::uint64_t step = 0;
};
RIO_FIELDS(PlansCheckParams, step)

} // namespace rio
