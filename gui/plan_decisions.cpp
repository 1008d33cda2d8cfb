#include "gui/plan_decisions.hpp"

#include "gui/push_button.hpp"

#include <QHBoxLayout>
#include <QMenu>
#include <QPushButton>

namespace rio::gui {

PlanDecisions::PlanDecisions(QWidget* parent)
    : QWidget(parent),
      approve_(push_button(tr("Approve ▾"),
                           tr("Approve — review each edit (Ctrl+Enter), auto-accept edits "
                              "(Ctrl+Shift+Enter), or in a fresh context"),
                           this)),
      menu_(new QMenu(this)),
      request_changes_(push_button(tr("Request changes"),
                                   tr("Send the comments and a note back to the model"), this)),
      edit_plan_(push_button(tr("Edit plan"),
                             tr("Open the plan file in the editor; the decision stays pending"),
                             this)) {
    review_ = menu_->addAction(tr("Approve — &review each edit\tCtrl+Enter"));
    auto_ = menu_->addAction(tr("Approve — &auto-accept edits\tCtrl+Shift+Enter"));
    fresh_ = menu_->addAction(tr("Approve in a &fresh context"));
    connect(review_, &QAction::triggered, this,
            [this] { emit approve_requested(QStringLiteral("review"), false); });
    connect(auto_, &QAction::triggered, this,
            [this] { emit approve_requested(QStringLiteral("auto"), false); });
    // A fresh context starts over from the plan; each edit is still reviewed.
    connect(fresh_, &QAction::triggered, this,
            [this] { emit approve_requested(QStringLiteral("review"), true); });
    // Opened by hand, not setMenu: a button's own menu runs a nested event loop.
    connect(approve_, &QPushButton::clicked, this, [this] {
        menu_->popup(approve_->mapToGlobal(QPoint(0, approve_->height())));
        menu_->setActiveAction(review_);
    });
    connect(request_changes_, &QPushButton::clicked, this,
            &PlanDecisions::request_changes_requested);
    connect(edit_plan_, &QPushButton::clicked, this, &PlanDecisions::edit_plan_requested);

    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(6);
    row->addWidget(approve_);
    row->addWidget(request_changes_);
    row->addWidget(edit_plan_);
}

void PlanDecisions::set_deciding(bool deciding) {
    for (QPushButton* button : {approve_, request_changes_, edit_plan_})
        button->setEnabled(!deciding);
}

} // namespace rio::gui
