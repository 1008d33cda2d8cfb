#include "gui/review_flow.hpp"

#include "client/plan_revision.hpp"
#include "gui/approval_bar.hpp"
#include "gui/centre_area.hpp"
#include "gui/compare_view.hpp"
#include "gui/core_client.hpp"
#include "gui/json_text.hpp"
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
    connect(plan_view_, &PlanView::close_requested, this, &ReviewFlow::close_view);
    connect(plan_view_, &PlanView::approve_requested, this, &ReviewFlow::approve_plan);
    connect(plan_view_, &PlanView::reject_requested, this, &ReviewFlow::reject);
    connect(plan_view_, &PlanView::edit_plan_requested, this, &ReviewFlow::edit_plan);
    connect(compare_view_, &CompareView::close_requested, this, &ReviewFlow::close_view);
    connect(compare_view_, &CompareView::approve_requested, this, &ReviewFlow::approve_edit);
    connect(compare_view_, &CompareView::reject_requested, this, &ReviewFlow::reject);
}

void ReviewFlow::on_event(const client::CoreEvent& event) {
    if (auto* proposal = std::get_if<Proposal>(&event)) {
        show_proposal(*proposal);
    } else if (auto* decided = std::get_if<DecidedEvent>(&event)) {
        if (is_pending(Json{{"turn", decided->turn}, {"id", decided->id}})) dismiss();
    } else if (auto* progress = std::get_if<PlanProgressEvent>(&event)) {
        plan_view_->set_progress(*progress); // it may be brought back beside the work
    } else if (std::holds_alternative<StoppedEvent>(event) ||
               std::holds_alternative<ResetEvent>(event)) {
        dismiss();
    }
}

void ReviewFlow::on_status(const std::optional<Proposal>& pending) {
    if (!pending) {
        if (!pending_.is_null()) dismiss();
        return;
    }
    // Attached while something waits, or missed the proposal: show it now.
    const Json proposal = *pending;
    if (!is_pending(proposal)) show_proposal(proposal);
}

bool ReviewFlow::is_pending(const Json& proposal) const {
    return pending_.is_object() && proposal.is_object() &&
           proposal.value("turn", Json()) == pending_.value("turn", Json()) &&
           proposal.value("id", Json()) == pending_.value("id", Json());
}

QString ReviewFlow::pending_str(const char* key) const {
    return json_string(pending_, key);
}

void ReviewFlow::show_proposal(const Json& proposal) {
    pending_ = proposal;
    edit_.reset();
    fetching_ = false;
    after_fetch_.clear();
    const BarContent content = bar_content(proposal);
    bar_->show_proposal(content);
    if (content.kind == ProposalKind::plan) {
        show_plan(pending_str("plan"));
        fetch_revision();
    } else if (content.kind == ProposalKind::edit) {
        fetch_edit([this] { show_compare(); }); // each proposed edit shows itself
    } else if (window_.centre()->current_view() == compare_view_) {
        close_view(); // a command: nothing left to compare
    }
}

void ReviewFlow::dismiss() {
    pending_ = nullptr;
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
    const QString title = pending_str("title");
    plan_view_->show_plan(title, pending_str("path"), plan_body_for_view(title, markdown));
    window_.centre()->show_view(plan_view_);
    plan_view_->setFocus(Qt::OtherFocusReason); // so Esc closes it
    emit plan_shown();
}

void ReviewFlow::add_comments(Json& params) const {
    // Whichever place decides, the plan view's comments go with a plan's decision.
    if (pending_str("kind") != QLatin1String("plan") || plan_view_->comments().empty()) return;
    params["comments"] = Json(plan_view_->comments());
}

void ReviewFlow::set_deciding(bool deciding) {
    bar_->set_deciding(deciding);
    plan_view_->set_deciding(deciding);
    compare_view_->set_deciding(deciding);
}

void ReviewFlow::approve(const QString& policy) {
    approve_plan(policy, false);
}

void ReviewFlow::approve_plan(const QString& policy, bool fresh) {
    if (!pending_.is_object()) return;
    Json params{{"turn", pending_.value("turn", Json())},
                {"id", pending_.value("id", Json())},
                {"decision", "approve"}};
    if (!policy.isEmpty()) params["policy"] = policy.toStdString();
    if (fresh) params["fresh"] = true;
    add_comments(params);
    send_decision(std::move(params), tr("Approval failed"));
}

void ReviewFlow::approve_edit(bool rest_of_turn) {
    if (pending_str("kind") != QLatin1String("edit")) return;
    Json params{{"turn", pending_.value("turn", Json())},
                {"id", pending_.value("id", Json())},
                {"decision", "approve"}};
    if (rest_of_turn) params["rest_of_turn"] = true;
    send_decision(std::move(params), tr("Approval failed"));
}

void ReviewFlow::approve_command(bool network, bool unsandboxed) {
    if (pending_str("kind") != QLatin1String("command")) return;
    Json params{{"turn", pending_.value("turn", Json())},
                {"id", pending_.value("id", Json())},
                {"decision", "approve"}};
    if (network) params["network"] = true;
    if (unsandboxed) params["unsandboxed"] = true;
    send_decision(std::move(params), tr("Approval failed"));
}

void ReviewFlow::reject(const QString& feedback) {
    if (!pending_.is_object()) return;
    Json params{{"turn", pending_.value("turn", Json())},
                {"id", pending_.value("id", Json())},
                {"decision", "reject"}};
    if (!feedback.trimmed().isEmpty()) params["feedback"] = feedback.trimmed().toStdString();
    add_comments(params);
    send_decision(std::move(params), tr("Rejection failed"));
}

void ReviewFlow::send_decision(Json params, const QString& failed) {
    set_deciding(true);
    window_.core().request(op::agent_approve, std::move(params), this,
                           [this, failed](const Json&, const std::optional<Error>& error) {
                               set_deciding(false);
                               if (error) emit problem(review_failure(failed, *error));
                           });
}

void ReviewFlow::edit_plan() {
    const QString path = pending_str("path");
    if (path.isEmpty()) return;
    window_.open_file(path); // buffer.open, as a double-click in the tree does
    window_.centre()->show_editors();
}

void ReviewFlow::reopen_plan() {
    if (pending_str("kind") != QLatin1String("plan")) return;
    const QString path = pending_str("path");
    if (path.isEmpty()) {
        show_plan(pending_str("plan"));
        return;
    }
    // plans.get reads the open buffer first, so an edit not yet saved shows too.
    const Json asked = pending_;
    window_.core().request(op::plans_get, Json{{"path", path.toStdString()}}, this,
                           [this, asked](const Json& result, const std::optional<Error>& error) {
                               if (!is_pending(asked)) return;
                               if (error) {
                                   emit problem(review_failure(tr("Cannot read the plan file"), *error));
                                   show_plan(pending_str("plan"));
                                   return;
                               }
                               show_plan(json_string(result, "body"));
                           });
}

void ReviewFlow::fetch_revision() {
    const QString revises = pending_str("revises");
    const QString path = pending_str("path");
    if (revises.isEmpty() || path.isEmpty()) return;
    const Json asked = pending_;
    CoreClient& core = window_.core();
    const auto plan_of = [](const Json& result) { return result.value("plan", std::string()); };
    core.request(op::plans_get, Json{{"path", revises.toStdString()}}, this,
                 [this, asked, path, plan_of, &core](const Json& old_result,
                                                     const std::optional<Error>& error) {
                     if (!is_pending(asked)) return;
                     if (error)
                         return emit problem(review_failure(tr("Cannot read the previous plan"), *error));
                     const std::string old_plan = plan_of(old_result);
                     core.request(
                         op::plans_get, Json{{"path", path.toStdString()}}, this,
                         [this, asked, old_plan, plan_of,
                          &core](const Json& new_result, const std::optional<Error>& error) {
                             if (!is_pending(asked)) return;
                             if (error)
                                 return emit problem(review_failure(tr("Cannot read the plan"), *error));
                             const std::string new_plan = plan_of(new_result);
                             core.request(
                                 op::diff_lines,
                                 Json(client::revision_diff_request(old_plan, new_plan)), this,
                                 [this, asked, old_plan,
                                  new_plan](const Json& diff, const std::optional<Error>& error) {
                                     if (!is_pending(asked)) return;
                                     if (error)
                                         return emit problem(
                                             review_failure(tr("Cannot compare the plans"), *error));
                                     plan_view_->set_revision(client::mark_revision(
                                         old_plan, new_plan, diff.get<DiffLinesResult>()));
                                 });
                         });
                 });
}

void ReviewFlow::compare() {
    if (pending_str("kind") != QLatin1String("edit")) return;
    fetch_edit([this] { show_compare(); });
}

void ReviewFlow::show_compare() {
    const QString path = pending_str("path");
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
    const Json asked = pending_;
    CoreClient& core = window_.core();
    core.request(
        op::agent_proposal, Json::object(), this,
        [this, asked, &core](const Json& result, const std::optional<Error>& error) {
            if (!is_pending(asked)) return;
            const Json proposal = result.value("proposal", Json());
            if (error || !is_pending(proposal)) {
                fetching_ = false;
                after_fetch_.clear();
                if (error) emit problem(review_failure(tr("Cannot fetch the proposed edit"), *error));
                return;
            }
            EditTexts texts{json_string(proposal, "before"), json_string(proposal, "after"),
                            Json::array()};
            Json diff{{"a", proposal.value("before", "")}, {"b", proposal.value("after", "")}};
            core.request(
                op::diff_lines, std::move(diff), this,
                [this, asked, texts](const Json& result, const std::optional<Error>& error) {
                    if (!is_pending(asked)) return;
                    fetching_ = false;
                    if (error) {
                        after_fetch_.clear();
                        emit problem(review_failure(tr("Cannot compare the edit"), *error));
                        return;
                    }
                    edit_ = texts;
                    edit_->hunks = result.value("hunks", Json::array());
                    auto waiting = std::move(after_fetch_);
                    after_fetch_.clear();
                    for (auto& then : waiting)
                        then();
                });
        });
}

} // namespace rio::gui
