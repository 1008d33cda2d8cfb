#include "gui/review_flow.hpp"

#include "client/plan_revision.hpp"
#include "gui/approval_bar.hpp"
#include "gui/centre_area.hpp"
#include "gui/compare_view.hpp"
#include "gui/core_client.hpp"
#include "gui/main_window.hpp"
#include "gui/plan_view.hpp"
#include "gui/proposal_summary.hpp"

namespace rio::gui {
namespace {

QString review_failure(const QString& what, const Error& error) {
    return what + QStringLiteral(": ") + QString::fromStdString(error.message);
}

} // namespace

ReviewFlow::ReviewFlow(MainWindow& window, QObject* parent)
    : QObject(parent), window_(window), bar_(new ApprovalBar), plan_view_(new PlanView),
      compare_view_(new CompareView) {
    window_.centre()->add_view(plan_view_);
    window_.centre()->add_view(compare_view_);
    window_.join_plan_view(plan_view_);
    connect(bar_, &ApprovalBar::approve_requested, this, &ReviewFlow::approve);
    connect(bar_, &ApprovalBar::reject_requested, this, &ReviewFlow::reject);
    connect(bar_, &ApprovalBar::edit_plan_requested, this, &ReviewFlow::edit_plan);
    connect(bar_, &ApprovalBar::plan_requested, this, &ReviewFlow::reopen_plan);
    connect(bar_, &ApprovalBar::compare_requested, this, &ReviewFlow::compare);
    connect(bar_, &ApprovalBar::approve_command_requested, this, &ReviewFlow::approve_command);
    connect(bar_, &ApprovalBar::approve_hosts_requested, this, &ReviewFlow::approve_hosts);
    connect(plan_view_, &PlanView::close_requested, this, &ReviewFlow::close_view);
    connect(plan_view_, &PlanView::approve_requested, this, &ReviewFlow::approve_plan);
    connect(plan_view_, &PlanView::reject_requested, this, &ReviewFlow::reject);
    connect(plan_view_, &PlanView::edit_plan_requested, this, &ReviewFlow::edit_plan);
    connect(plan_view_, &PlanView::approve_confirmed, this, &ReviewFlow::send_approval);
    connect(plan_view_, &PlanView::reply_requested, this, &ReviewFlow::reply);
    connect(plan_view_, &PlanView::resolve_requested, this, &ReviewFlow::resolve);
    connect(compare_view_, &CompareView::close_requested, this, &ReviewFlow::close_view);
    connect(compare_view_, &CompareView::approve_requested, this, &ReviewFlow::approve_edit);
    connect(compare_view_, &CompareView::reject_requested, this, &ReviewFlow::reject);
}

void ReviewFlow::on_event(const client::CoreEvent& event) {
    if (auto* proposal = std::get_if<Proposal>(&event)) {
        show_proposal(*proposal);
    } else if (auto* decided = std::get_if<DecidedEvent>(&event)) {
        if (is_pending(decided->turn, decided->id)) dismiss();
    } else if (auto* threads = std::get_if<PlanCommentsEvent>(&event)) {
        plan_view_->set_threads(QString::fromStdString(threads->path), threads->comments);
    } else if (auto* progress = std::get_if<PlanProgressEvent>(&event)) {
        plan_view_->set_progress(*progress); // it may be brought back beside the work
    } else if (auto* report = std::get_if<PlanReportEvent>(&event)) {
        if (report->receipt_text)
            plan_view_->set_receipt(QString::fromStdString(report->path),
                                    QString::fromStdString(*report->receipt_text));
    } else if (std::holds_alternative<StoppedEvent>(event) ||
               std::holds_alternative<ResetEvent>(event)) {
        dismiss();
    }
}

void ReviewFlow::on_status(const std::optional<Proposal>& pending,
                           const std::optional<SandboxState>& sandbox) {
    if (sandbox) by_host_ = sandbox->network == NetworkReach::by_host;
    if (!pending) {
        if (pending_) dismiss();
        return;
    }
    // Attached while something waits, or missed the proposal: show it now.
    if (!is_pending(*pending)) show_proposal(*pending);
}

bool ReviewFlow::is_pending(std::uint64_t turn, const std::string& id) const {
    return pending_ && pending_->turn == turn && pending_->id == id;
}

bool ReviewFlow::pending_kind(rio::ProposalKind kind) const {
    return pending_ && pending_->is(kind);
}

PlanProposal ReviewFlow::pending_plan() const {
    return pending_ ? pending_->as_plan() : PlanProposal{};
}

void ReviewFlow::show_proposal(const Proposal& proposal) {
    pending_ = proposal;
    edit_.reset();
    fetching_ = false;
    after_fetch_.clear();
    const BarContent content = bar_content(proposal, by_host_);
    bar_->show_proposal(content);
    if (content.kind == BarKind::plan) {
        show_plan(QString::fromStdString(proposal.as_plan().plan));
        fetch_revision();
    } else if (content.kind == BarKind::edit) {
        fetch_edit([this] { show_compare(); }); // each proposed edit shows itself
    } else if (window_.centre()->current_view() == compare_view_) {
        close_view(); // a command: nothing left to compare
    }
}

void ReviewFlow::dismiss() {
    pending_.reset();
    edit_.reset();
    fetching_ = false;
    after_fetch_.clear();
    bar_->dismiss();
    plan_view_->end_decision();
    compare_view_->set_decidable(false);
    close_view();
}

void ReviewFlow::close_view() {
    QWidget* current = window_.centre()->current_view();
    if (current == plan_view_ || current == compare_view_) window_.centre()->show_editors();
}

void ReviewFlow::show_plan(const QString& markdown) {
    const PlanProposal plan = pending_plan();
    const QString title = QString::fromStdString(plan.title);
    plan_view_->show_plan(title, QString::fromStdString(plan.path),
                          plan_body_for_view(title, markdown), true, plan.steps);
    if (plan_view_->threads().empty())
        plan_view_->set_threads(QString::fromStdString(plan.path), plan.comments);
    window_.centre()->show_view(plan_view_);
    plan_view_->setFocus(Qt::OtherFocusReason); // so Esc closes it
    emit plan_shown();
}

void ReviewFlow::add_comments(ApproveParams& params) const {
    // Whichever place decides, the plan view's comments go with a plan's decision.
    if (!pending_kind(rio::ProposalKind::plan) || plan_view_->comments().empty()) return;
    params.comments = plan_view_->comments();
}

void ReviewFlow::set_deciding(bool deciding) {
    bar_->set_deciding(deciding);
    plan_view_->set_deciding(deciding);
    compare_view_->set_deciding(deciding);
}

void ReviewFlow::approve(const QString& policy) {
    approve_plan(policy, false);
}

std::optional<ApproveParams> ReviewFlow::decision(Verdict answer) const {
    if (!pending_) return std::nullopt;
    ApproveParams params;
    params.turn = pending_->turn;
    params.id = pending_->id;
    params.decision = answer;
    return params;
}

// A plan with comments still open asks first, in the plan view, wherever the approval came
// from (the view, its keys, the approval bar).
void ReviewFlow::approve_plan(const QString& policy, bool fresh) {
    if (!pending_) return;
    if (pending_kind(rio::ProposalKind::plan) && plan_view_->open_threads() > 0) {
        if (window_.centre()->current_view() != plan_view_) reopen_plan();
        plan_view_->ask_to_approve(policy, fresh);
        return;
    }
    send_approval(policy, fresh);
}

void ReviewFlow::send_approval(const QString& policy, bool fresh) {
    auto params = decision(Verdict::approve);
    if (!params) return;
    if (!policy.isEmpty()) params->policy = Wire<ApprovalPolicy>::named(policy.toStdString());
    if (fresh) params->fresh = true;
    add_comments(*params);
    send_decision(*params, tr("Approval failed"));
}

void ReviewFlow::approve_edit(bool rest_of_turn) {
    if (!pending_kind(rio::ProposalKind::edit)) return;
    auto params = decision(Verdict::approve);
    if (rest_of_turn) params->rest_of_turn = true;
    send_decision(*params, tr("Approval failed"));
}

void ReviewFlow::approve_command(bool network, bool unsandboxed, bool environment) {
    if (!pending_kind(rio::ProposalKind::command)) return;
    auto params = decision(Verdict::approve);
    if (network) params->network = NetworkGrant{true, {}};
    if (unsandboxed) params->unsandboxed = true;
    if (environment) params->environment = true;
    send_decision(*params, tr("Approval failed"));
}

void ReviewFlow::approve_hosts(bool always) {
    if (!pending_kind(rio::ProposalKind::command)) return;
    const rio::CommandProposal* command = pending_->command();
    if (!command || command->hosts.empty()) return;
    auto params = decision(Verdict::approve);
    params->network = NetworkGrant{false, command->hosts};
    if (always) params->keep_hosts = true;
    send_decision(*params, tr("Approval failed"));
}

void ReviewFlow::reject(const QString& feedback) {
    auto params = decision(Verdict::reject);
    if (!params) return;
    if (!feedback.trimmed().isEmpty()) params->feedback = feedback.trimmed().toStdString();
    add_comments(*params);
    send_decision(*params, tr("Rejection failed"));
}

void ReviewFlow::send_decision(const ApproveParams& params, const QString& failed) {
    set_deciding(true);
    window_.core().call(params, this, [this, failed](const client::Typed<ApproveParams>& done) {
        set_deciding(false);
        if (!done) emit problem(review_failure(failed, done.error()));
    });
}

void ReviewFlow::reply(const QString& id, const QString& text) {
    const std::string path = pending_plan().path;
    if (path.empty()) return;
    window_.core().call(PlansCommentReplyParams{path, id.toStdString(), text.toStdString()}, this,
                        [this](const client::Typed<PlansCommentReplyParams>& r) {
                            if (!r) emit problem(review_failure(tr("Reply failed"), r.error()));
                        });
}

void ReviewFlow::resolve(const QString& id) {
    const std::string path = pending_plan().path;
    if (path.empty()) return;
    window_.core().call(PlansCommentResolveParams{path, id.toStdString()}, this,
                        [this](const client::Typed<PlansCommentResolveParams>& r) {
                            if (!r) emit problem(review_failure(tr("Resolve failed"), r.error()));
                        });
}

void ReviewFlow::edit_plan() {
    const QString path = QString::fromStdString(pending_plan().path);
    if (path.isEmpty()) return;
    window_.open_file(path); // buffer.open, as a double-click in the tree does
    window_.centre()->show_editors();
}

void ReviewFlow::reopen_plan() {
    if (!pending_kind(rio::ProposalKind::plan)) return;
    const PlanProposal pending = pending_plan();
    if (pending.path.empty()) {
        show_plan(QString::fromStdString(pending.plan));
        return;
    }
    // plans.get reads the open buffer first, so an edit not yet saved shows too.
    const Proposal asked = *pending_;
    window_.core().call(PlansGetParams{pending.path}, this,
                        [this, asked](const client::Typed<PlansGetParams>& plan) {
                            if (!is_pending(asked)) return;
                            if (!plan) {
                                emit problem(
                                    review_failure(tr("Cannot read the plan file"), plan.error()));
                                show_plan(QString::fromStdString(asked.as_plan().plan));
                                return;
                            }
                            show_plan(QString::fromStdString(plan->body));
                        });
}

void ReviewFlow::fetch_revision() {
    const PlanProposal pending = pending_plan();
    if (pending.revises.empty() || pending.path.empty()) return;
    const Proposal asked = *pending_;
    CoreClient& core = window_.core();
    core.call(
        PlansGetParams{pending.revises}, this,
        [this, asked, path = pending.path, &core](const client::Typed<PlansGetParams>& old_plan) {
            if (!is_pending(asked)) return;
            if (!old_plan)
                return emit problem(
                    review_failure(tr("Cannot read the previous plan"), old_plan.error()));
            core.call(PlansGetParams{path}, this,
                      [this, asked, old_text = old_plan->plan,
                       &core](const client::Typed<PlansGetParams>& new_plan) {
                          if (!is_pending(asked)) return;
                          if (!new_plan)
                              return emit problem(
                                  review_failure(tr("Cannot read the plan"), new_plan.error()));
                          core.call(client::revision_diff_request(old_text, new_plan->plan), this,
                                    [this, asked, old_text, new_text = new_plan->plan](
                                        const client::Typed<DiffLinesParams>& diff) {
                                        if (!is_pending(asked)) return;
                                        if (!diff)
                                            return emit problem(review_failure(
                                                tr("Cannot compare the plans"), diff.error()));
                                        plan_view_->set_revision(
                                            client::mark_revision(old_text, new_text, *diff));
                                    });
                      });
        });
}

void ReviewFlow::compare() {
    if (!pending_kind(rio::ProposalKind::edit)) return;
    fetch_edit([this] { show_compare(); });
}

void ReviewFlow::show_compare() {
    const QString path = pending_ ? QString::fromStdString(pending_->path()) : QString();
    compare_view_->show_compare(
        path,
        {tr("Proposed edit — %1 · original | proposed").arg(path), tr("Original"), tr("Proposed")},
        edit_->before, edit_->after, edit_->hunks);
    compare_view_->set_decidable(true);
    window_.centre()->show_view(compare_view_);
    compare_view_->setFocus(Qt::OtherFocusReason);
    emit compare_shown();
}

void ReviewFlow::fetch_edit(std::function<void()> then) {
    if (edit_) return then();
    after_fetch_.push_back(std::move(then));
    if (fetching_) return;
    fetching_ = true;
    const Proposal asked = *pending_;
    CoreClient& core = window_.core();
    core.call(
        ProposalParams{}, this, [this, asked, &core](const client::Typed<ProposalParams>& result) {
            if (!is_pending(asked)) return;
            const std::optional<Proposal> proposal =
                result ? result->proposal : std::optional<Proposal>();
            const rio::EditProposal* full = proposal ? proposal->edit() : nullptr;
            if (!result || !full || !is_pending(*proposal)) {
                fetching_ = false;
                after_fetch_.clear();
                if (!result)
                    emit problem(
                        review_failure(tr("Cannot fetch the proposed edit"), result.error()));
                return;
            }
            const std::string before = full->before.value_or(""), after = full->after.value_or("");
            EditTexts texts{QString::fromStdString(before), QString::fromStdString(after), {}};
            core.call(DiffLinesParams{before, after, std::nullopt, std::nullopt}, this,
                      [this, asked, texts](const client::Typed<DiffLinesParams>& diff) {
                          if (!is_pending(asked)) return;
                          fetching_ = false;
                          if (!diff) {
                              after_fetch_.clear();
                              emit problem(
                                  review_failure(tr("Cannot compare the edit"), diff.error()));
                              return;
                          }
                          edit_ = texts;
                          edit_->hunks = diff->hunks;
                          auto waiting = std::move(after_fetch_);
                          after_fetch_.clear();
                          for (auto& then : waiting)
                              then();
                      });
        });
}

} // namespace rio::gui
