#include "gui/plans_panel.hpp"

#include "gui/centre_area.hpp"
#include "gui/core_client.hpp"
#include "gui/main_window.hpp"
#include "gui/plan_view.hpp"
#include "gui/proposal_summary.hpp"

#include <QComboBox>
#include <QHeaderView>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <map>
#include <set>

namespace rio::gui {
namespace {

constexpr int plan_path_role = Qt::UserRole;
constexpr int plan_status_role = Qt::UserRole + 1; // the status word, which the filter reads

QTreeWidgetItem* plan_item(const PlanInfo& plan) {
    auto* item = new QTreeWidgetItem;
    const QString title = QString::fromStdString(plan.title);
    const QString path = QString::fromStdString(plan.path);
    const QString status = QString::fromStdString(plan.status);
    const QString created = QString::fromStdString(plan.created);
    item->setText(0, title);
    // "approved · 5/8" once its steps are reported on (DESIGN §20); plans.changed follows
    // every change, so the count ticks with the work.
    const QString progress = QString::fromStdString(plan.progress.value_or(std::string()));
    item->setText(1, status + (progress.isEmpty() ? QString() : QStringLiteral(" · ") + progress));
    item->setData(1, plan_status_role, status);
    // The month, day and time read as a date in a narrow side bar; the tooltip keeps all of it.
    item->setText(2, created.mid(5, 11).replace(QLatin1Char('T'), QLatin1Char(' ')));
    item->setData(0, plan_path_role, path);
    const QString whole = title + QStringLiteral("\n") + path + QStringLiteral("\n") + created;
    for (int column = 0; column < 3; ++column)
        item->setToolTip(column, whole);
    return item;
}

} // namespace

PlansPanel::PlansPanel(MainWindow& window)
    : QDockWidget(tr("Plans"), &window), window_(window), filter_(new QComboBox),
      list_(new QTreeWidget), view_(new PlanView) {
    setObjectName(QStringLiteral("plans"));
    window_.join_plan_view(view_);
    setFeatures(QDockWidget::DockWidgetMovable);
    filter_->addItem(tr("All plans"), QString());
    for (const auto& row : all_wire_names<PlanStatus>()) {
        const QString status = QString::fromLatin1(row.name.data(), qsizetype(row.name.size()));
        filter_->addItem(status, status);
    }
    filter_->setAccessibleName(tr("Show plans with status"));
    list_->setColumnCount(3);
    list_->setHeaderLabels({tr("Plan"), tr("Status"), tr("Presented")});
    list_->header()->setStretchLastSection(false);
    list_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    list_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    list_->header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    list_->setAccessibleName(tr("Plans"));
    // A long title is cut in the middle, its start and end kept; the tooltip has all of it.
    list_->setTextElideMode(Qt::ElideMiddle);
    auto* body = new QWidget(this);
    auto* column = new QVBoxLayout(body);
    column->setContentsMargins(0, 0, 0, 0);
    column->addWidget(filter_);
    column->addWidget(list_);
    setWidget(body);
    connect(filter_, &QComboBox::currentIndexChanged, this, [this] { apply_filter(); });
    window_.centre()->add_view(view_);
    connect(list_, &QTreeWidget::itemActivated, this,
            [this](QTreeWidgetItem* item) { open(item->data(0, plan_path_role).toString()); });
    connect(view_, &PlanView::close_requested, this, [this] {
        if (window_.centre()->current_view() == view_) window_.centre()->show_editors();
    });
    connect(&window_.core(), &CoreClient::core_event, this, &PlansPanel::on_event);
    connect(&window_, &MainWindow::project_shown, this, &PlansPanel::refresh);
}

void PlansPanel::on_event(const client::CoreEvent& event) {
    if (std::holds_alternative<PlansChangedEvent>(event)) refresh();
    if (auto* progress = std::get_if<PlanProgressEvent>(&event)) view_->set_progress(*progress);
}

void PlansPanel::refresh() {
    window_.core().call(PlansListParams{}, this,
                        [this](const client::Typed<PlansListParams>& list) {
                            if (!list) return; // no project: nothing to list
                            show_plans(*list);
                        });
}

void PlansPanel::show_plans(const PlansListResult& list) {
    list_->clear();
    // Newest first as plans.list gives them; a plan some later one revises goes beneath
    // the newest of its chain.
    std::set<std::string> revised;
    std::map<std::string, const PlanInfo*> by_path;
    for (const PlanInfo& plan : list.plans) {
        by_path[plan.path] = &plan;
        if (plan.revises) revised.insert(*plan.revises);
    }
    for (const PlanInfo& plan : list.plans) {
        if (revised.count(plan.path)) continue;
        QTreeWidgetItem* head = plan_item(plan);
        list_->addTopLevelItem(head);
        std::set<std::string> seen{plan.path};
        const PlanInfo* at = &plan;
        while (at->revises) {
            const std::string& earlier = *at->revises;
            auto found = by_path.find(earlier);
            if (found == by_path.end() || !seen.insert(earlier).second) break;
            at = found->second;
            head->addChild(plan_item(*at));
        }
        head->setExpanded(true);
    }
    apply_filter();
    emit listed();
}

void PlansPanel::apply_filter() {
    const QString wanted = filter_->currentData().toString();
    auto matches = [&wanted](const QTreeWidgetItem* item) {
        return wanted.isEmpty() || item->data(1, plan_status_role).toString() == wanted;
    };
    for (int i = 0; i < list_->topLevelItemCount(); ++i) {
        QTreeWidgetItem* head = list_->topLevelItem(i);
        bool any = matches(head);
        for (int c = 0; c < head->childCount(); ++c) {
            QTreeWidgetItem* earlier = head->child(c);
            earlier->setHidden(!matches(earlier));
            any = any || matches(earlier);
        }
        head->setHidden(!any);
    }
}

void PlansPanel::open(const QString& path) {
    if (path.isEmpty()) return;
    window_.core().call(
        PlansGetParams{path.toStdString()}, this,
        [this, path](const client::Typed<PlansGetParams>& plan) {
            if (!plan) return;
            const QString title = QString::fromStdString(plan->title);
            // The receipt, last in the file, is painted under the declared steps.
            std::string body = plan->body;
            if (plan->receipt && body.ends_with(*plan->receipt))
                body.resize(body.size() - plan->receipt->size());
            view_->show_plan(title, path, plan_body_for_view(title, QString::fromStdString(body)),
                             false, plan->declared.value_or(std::vector<DeclaredStep>{}));
            if (plan->receipt) view_->set_receipt(path, QString::fromStdString(*plan->receipt));
            if (plan->steps)
                view_->set_progress(PlanProgressEvent{0, path.toStdString(), *plan->steps, {}});
            window_.centre()->show_view(view_);
            view_->setFocus(Qt::OtherFocusReason);
            emit opened(path);
        });
}

} // namespace rio::gui
