// plans.list and plans.get: the history of presented plans (DESIGN §7); plans.comment.*: a
// person's side of their review threads (issue 44).
#include "core/agent/plan_review.hpp"
#include "core/agent/plan_track.hpp"
#include "host/store/plan_comments_store.hpp"
#include "host/store/plan_store.hpp"
#include "ops/agent_ops.hpp"

#include <cstring>

namespace rio {
namespace {

Error bad_text(const std::string& problem) {
    return make_error(ErrorCode::bad_request, "params." + problem);
}

void register_comment_ops(Dispatcher& dispatcher, OpContext& context) {
    dispatcher.on<PlansCommentAddParams>(
        [&context](const PlansCommentAddParams& p) -> Result<ReviewComment> {
            PlanComment comment{p.quote, p.line, p.end_line, p.text};
            // The one comment's problem, named as this op's field: "params.quote is empty".
            if (auto problem = comments_problem({comment}))
                return make_error(ErrorCode::bad_request,
                                  "params" + problem->substr(std::strlen("params.comments[0]")));
            if (std::string problem = comment_text_problem(p.text); !problem.empty())
                return bad_text(problem);
            return change_comments(context.workspace, context.emit, p.path,
                                   [&](CommentThreads& threads) -> Result<ReviewComment> {
                                       return add_comment(threads, comment, CommentAuthor::person);
                                   });
        });
    dispatcher.on<PlansCommentReplyParams>(
        [&context](const PlansCommentReplyParams& p) -> Result<ReviewComment> {
            if (std::string problem = comment_text_problem(p.text); !problem.empty())
                return bad_text(problem);
            return change_comments(
                context.workspace, context.emit, p.path,
                [&](CommentThreads& threads) { return reply_to_comment(threads, p.id, p.text); });
        });
    dispatcher.on<PlansCommentResolveParams>(
        [&context](const PlansCommentResolveParams& p) -> Result<ReviewComment> {
            return change_comments(
                context.workspace, context.emit, p.path,
                [&](CommentThreads& threads) { return resolve_comment(threads, p.id); });
        });
}

} // namespace

void register_plan_ops(Dispatcher& dispatcher, OpContext& context) {
    Workspace& workspace = context.workspace;
    register_comment_ops(dispatcher, context);
    dispatcher.on<PlansListParams>([&workspace](const PlansListParams&) -> Result<PlansListResult> {
        return list_plans(workspace);
    });
    dispatcher.on<PlansGetParams>([&workspace](const PlansGetParams& p) -> Result<PlanFull> {
        if (!workspace.root) return make_error(ErrorCode::no_project, "no project is open");
        auto info = read_plan(workspace, p.path);
        if (!info) return info.error();
        PlanFull out{p.path,
                     info->title,
                     info->status,
                     info->presented,
                     info->decided,
                     info->policy,
                     info->body,
                     info->plan,
                     {},
                     {},
                     {},
                     {},
                     {},
                     {}};
        if (!info->review.empty()) out.review = info->review;
        if (!info->revises.empty()) out.revises = info->revises;
        out.touched = info->touched;
        out.unplanned = info->unplanned;
        if (!info->steps.empty()) out.declared = info->steps;
        if (!info->receipt.empty()) out.receipt = info->receipt;
        if (auto threads = read_comments(workspace, p.path); threads && !threads->empty())
            out.comments = std::move(*threads);
        // The steps are the declared ones, else come from the plan as it is on file; their
        // statuses from the front matter; a progress field edited out of shape leaves them
        // pending, and says so.
        if (info->progress) {
            std::vector<PlanStep> steps = plan_checklist(info->plan, info->steps);
            if (!read_progress_field(*info->progress, steps))
                out.warning = "the plan's progress (\"progress: " + *info->progress +
                              "\" in its front matter) does not fit its " +
                              std::to_string(steps.size()) + " steps; they are shown as pending";
            else if (info->checks && !read_checks_field(*info->checks, steps))
                out.warning = "the steps' evidence (\"checks\" in the plan's front matter) does "
                              "not fit its " +
                              std::to_string(steps.size()) + " steps; it is not shown";
            out.steps = std::move(steps);
        }
        return out;
    });
}

} // namespace rio
