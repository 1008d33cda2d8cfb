#include "gui/edit_decisions.hpp"

#include "gui/push_button.hpp"
#include "gui/reason_field.hpp"

#include <QHBoxLayout>
#include <QPushButton>
#include <QVBoxLayout>

namespace rio::gui {

EditDecisions::EditDecisions(QWidget* parent)
    : QWidget(parent),
      approve_(push_button(tr("Approve"), tr("Apply this edit (Ctrl+Enter)"), this)),
      approve_rest_(push_button(
          tr("Approve the rest of this turn"),
          tr("Apply this edit and the turn's later edits without asking; commands and plans "
             "still wait (Ctrl+Shift+Enter)"),
          this)),
      reject_(push_button(tr("Reject…"), tr("Reject the edit, with an optional reason"), this)),
      reason_(new ReasonField(tr("Why? (optional) — Enter rejects, Esc puts this away"),
                              tr("Reason for rejecting"), this)) {
    connect(approve_, &QPushButton::clicked, this, [this] { emit approve_requested(false); });
    connect(approve_rest_, &QPushButton::clicked, this, [this] { emit approve_requested(true); });
    connect(reject_, &QPushButton::clicked, this, &EditDecisions::press_reject);
    connect(reason_, &QLineEdit::returnPressed, this, &EditDecisions::press_reject);
    connect(reason_, &ReasonField::escaped, this,
            [this] { reject_->setFocus(Qt::OtherFocusReason); });

    auto* buttons = new QHBoxLayout;
    buttons->setContentsMargins(0, 0, 0, 0);
    buttons->setSpacing(6);
    buttons->addWidget(approve_);
    buttons->addWidget(approve_rest_);
    buttons->addWidget(reject_);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 6, 10, 8);
    layout->setSpacing(4);
    layout->addWidget(reason_);
    layout->addLayout(buttons);
}

void EditDecisions::set_deciding(bool deciding) {
    for (QPushButton* button : {approve_, approve_rest_, reject_})
        button->setEnabled(!deciding);
    reason_->setEnabled(!deciding);
}

void EditDecisions::reset() {
    reason_->put_away();
    set_deciding(false);
}

void EditDecisions::press_reject() {
    // The first press asks for the reason; the next (or Enter in it) sends.
    if (reason_->isHidden()) return reason_->open();
    emit reject_requested(reason_->text().trimmed());
}

} // namespace rio::gui
