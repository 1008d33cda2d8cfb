// present_plan: prepare files the plan (when a project is open) and proposes it; apply,
// after a person approved it, reads it back as they left it and records the approval.
#include "agent_tools/declared_steps.hpp"
#include "agent_tools/plan_addresses.hpp"
#include "agent_tools/plan_files.hpp"
#include "agent_tools/tool_table.hpp"
#include "host/store/plan_comments_store.hpp"
#include "host/store/plan_store.hpp"
#include "protocol/messages.hpp"
#include "protocol/params.hpp"

namespace rio {
namespace {

std::string kilobytes(std::size_t bytes) {
    return std::to_string((bytes + 1023) / 1024) + " KB";
}

// The file the plan was filed in: apply's proposal, or a resumed session's.
std::string filed_path(const RunTool& run) {
    const auto* filed = run.proposal ? std::get_if<PlanProposal>(&*run.proposal) : nullptr;
    return filed ? filed->path : std::string();
}

// The plan as approved, with what the steps' files hold as the person approves it: changes
// since are measured from here.
PlanReadBack approved(ToolContext& context, std::string text, bool edited,
                      const std::vector<DeclaredStep>& steps) {
    NamedFiles named = named_files(context.workspace, step_files(steps), true);
    return PlanReadBack{std::move(text),
                        edited,
                        steps,
                        std::move(named.files),
                        std::move(named.texts),
                        git_head(context.workspace)};
}

// The revision's comments (issue 44): the revised plan's carried over, those it addresses
// answered, filed beside it and put on the proposal; ids no comment has are kept for the
// tool result. A plan that revises none has nothing to address.
void carry_threads(ToolContext& context, PlanProposal& proposal,
                   const std::vector<CommentAnswer>& answers) {
    CommentThreads previous;
    if (!proposal.revises.empty())
        if (auto read = read_comments(context.workspace, proposal.revises)) previous = *read;
    if (previous.empty()) {
        for (const CommentAnswer& answer : answers)
            proposal.unknown_addresses.push_back(answer.id);
        return;
    }
    CarriedComments carried = carry_comments(std::move(previous), answers, proposal.plan);
    proposal.unknown_addresses = std::move(carried.unknown);
    if (!proposal.path.empty())
        (void)write_comments(context.workspace, context.emit, proposal.path, carried.threads);
    proposal.comments = std::move(carried.threads);
}

ToolReport present_plan(ToolContext& context, const RunTool& run) {
    const nlohmann::json& input = run.call.input;
    // The title is shown in terminals and filed as a heading: one line, no control
    // characters; the body is filed as text, which holds no NUL.
    std::string title = plan_title(require_string(input, "title", "input"));
    std::string plan = plan_body(require_string(input, "plan", "input"));
    if (plan.find_first_not_of(" \t\r\n") == std::string::npos)
        return tool_error(run, "The plan is empty; write the plan in the plan field.");
    if (plan.size() > max_plan_bytes)
        return tool_error(run, "The plan is " + kilobytes(plan.size()) +
                                   "; a plan may be at most " + kilobytes(max_plan_bytes) +
                                   ", so it was not presented. Present a shorter plan for a person "
                                   "to read: what changes, file by file, and how you will verify "
                                   "it, without the code itself.");
    // Checked before anything is filed: a malformed contract is no plan to decide on.
    auto steps = read_declared_steps(input);
    if (!steps)
        return tool_error(run, "The plan was not presented: " + steps.error().message +
                                   ". Fix steps and present the plan again.");
    auto answers = read_addresses(input);
    if (!answers)
        return tool_error(run, "The plan was not presented: " + answers.error().message +
                                   ". Fix addresses and present the plan again.");

    if (run.stage == ToolStage::prepare) {
        PlanProposal proposal{title, plan, "", run.revises, "", *steps};
        // A plan proposed again from a resumed session keeps the file it was filed in.
        if (std::string filed = filed_path(run);
            is_plan_path(filed) && read_plan(context.workspace, filed)) {
            proposal.path = filed;
            if (auto threads = read_comments(context.workspace, filed))
                proposal.comments = std::move(*threads);
            return tool_ok(run, {}, ProposalBody{proposal});
        }
        // A plan that cannot be filed is still shown and decided; only the file is missing.
        auto path = file_plan(context.workspace, context.emit, title, plan, context.now(),
                              run.revises, *steps);
        if (path)
            proposal.path = *path;
        else
            proposal.not_filed = path.error().message;
        carry_threads(context, proposal, *answers);
        return tool_ok(run, {}, ProposalBody{proposal});
    }

    // The steps are the call's own: the person saw them with the plan and a plan file's
    // front matter is no way to change them.
    std::string rel = filed_path(run);
    if (rel.empty() || !is_plan_path(rel))
        return tool_ok(run, {}, approved(context, plan, false, *steps));
    auto now_text = read_plan(context.workspace, rel);
    if (!now_text) // the user deleted or broke the file: what they saw is what was approved
        return tool_ok(run, {}, approved(context, plan, false, *steps));
    if (now_text->plan.find_first_not_of(" \t\r\n") == std::string::npos) {
        (void)mark_plan(context.workspace, context.emit, rel, PlanStatus::rejected, "",
                        context.now());
        return tool_error(run, "The plan is empty: the user emptied the plan file before "
                               "approving it, so nothing was approved and nothing may change. "
                               "Ask the user what they want, or present a plan again.");
    }
    bool edited = now_text->plan != plan_file_body(title, plan);
    (void)mark_plan(context.workspace, context.emit, rel, PlanStatus::approved, run.policy.name(),
                    context.now(), run.review, run.approved_in);
    return tool_ok(run, {}, approved(context, now_text->plan, edited, *steps));
}

} // namespace

AgentTool present_plan_tool() {
    return {
        ToolSpec{
            std::string(tool_words::present_plan.name), ToolKind::plan,
            "Present a plan to the user for approval. Write it in Markdown for a person to read: "
            "what you understood, the changes file by file, how you will verify them, and what "
            "you are not doing. Pass the changes as `steps` too, with the files each may change "
            "and a `check` command where one proves it: the user approves them with the plan. "
            "Nothing may change until the user approves; they may edit the plan, approve it, or "
            "reject it with feedback and comments.",
            object_schema({{"title", string_prop("A short title for the plan.")},
                           {"plan", string_prop("The plan, in Markdown.")},
                           {"steps", declared_steps_schema()},
                           {"addresses", addresses_schema()}},
                          {"title", "plan"})},
        sync_tool(present_plan)};
}

} // namespace rio
