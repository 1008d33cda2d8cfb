#include "gui/approval_bar.hpp"

#include "gui/push_button.hpp"
#include "gui/reason_field.hpp"
#include "gui/theme.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QVBoxLayout>

namespace rio::gui {

ApprovalBar::ApprovalBar(QWidget* parent)
    : QFrame(parent), heading_(new QLabel), detail_(new WrappingText),
      approve_(push_button(tr("&Approve"), tr("Approve (Alt+A)"))), approve_menu_(new QMenu(this)),
      reject_(push_button(tr("&Reject"), tr("Reject, with an optional reason (Alt+R)"))),
      edit_plan_(push_button(tr("&Edit plan"),
                             tr("Open the plan file in the editor; the decision stays pending "
                                "(Alt+E)"))),
      plan_(push_button(tr("&Plan"), tr("Show the plan again (Alt+P)"))),
      compare_(push_button(tr("&Compare"), tr("Show the edit side by side (Alt+C)"))),
      widen_(push_button(tr("&Other ways ▾"),
                         tr("Run this one command with the network (the hosts it asks for or "
                            "all of it), without the sandbox, or with your environment "
                            "(Alt+O)"))),
      widen_menu_(new QMenu(this)),
      reason_(new ReasonField(tr("Why? (optional) — Enter rejects, Esc cancels"),
                              tr("Reason for rejecting"))) {
    setObjectName(QStringLiteral("approval-bar"));
    setFrameShape(QFrame::NoFrame);
    follow_theme(this, [this] {
        const ThemeColours c = theme_colours();
        setStyleSheet(
            QStringLiteral("QFrame#approval-bar { background: %1; border-top: 1px solid %2; }"
                           "QFrame#approval-bar QLabel { background: transparent; color: %3; }"
                           "QFrame#approval-bar QTextEdit { background: transparent; color: %3; "
                           "border: none; }")
                .arg(c.attention_background.name(), c.attention_border.name(),
                     c.attention_text.name()));
    });
    heading_->setWordWrap(true);
    heading_->setTextFormat(Qt::PlainText);
    QFont bold = heading_->font();
    bold.setBold(true);
    heading_->setFont(bold);

    approve_review_ = approve_menu_->addAction(tr("Approve — &review each edit"));
    approve_auto_ = approve_menu_->addAction(tr("Approve — &auto-accept edits"));
    connect(approve_review_, &QAction::triggered, this,
            [this] { emit approve_requested(QStringLiteral("review")); });
    connect(approve_auto_, &QAction::triggered, this,
            [this] { emit approve_requested(QStringLiteral("auto")); });

    with_hosts_ = widen_menu_->addAction(tr("Run with the network to those &hosts"));
    with_hosts_always_ =
        widen_menu_->addAction(tr("Run with those hosts, and a&llow them for every command"));
    connect(with_hosts_, &QAction::triggered, this,
            [this] { emit approve_hosts_requested(false); });
    connect(with_hosts_always_, &QAction::triggered, this,
            [this] { emit approve_hosts_requested(true); });
    with_network_ = widen_menu_->addAction(tr("Run with the &network (still sandboxed)"));
    unsandboxed_ = widen_menu_->addAction(tr("Run &without the sandbox"));
    // Variables that look like secrets (API keys, tokens) are otherwise kept from commands.
    with_environment_ = widen_menu_->addAction(tr("Run with my &environment (its secrets too)"));
    connect(with_network_, &QAction::triggered, this,
            [this] { emit approve_command_requested(true, false, false); });
    connect(unsandboxed_, &QAction::triggered, this,
            [this] { emit approve_command_requested(false, true, false); });
    connect(with_environment_, &QAction::triggered, this,
            [this] { emit approve_command_requested(false, false, true); });
    connect(widen_, &QPushButton::clicked, this, [this] {
        widen_menu_->popup(widen_->mapToGlobal(QPoint(0, widen_->height())));
        widen_menu_->setActiveAction(content_.hosts ? with_hosts_ : with_network_);
    });

    auto* buttons = new QHBoxLayout;
    buttons->setContentsMargins(0, 0, 0, 0);
    buttons->setSpacing(6);
    for (QPushButton* button : {approve_, widen_, edit_plan_, compare_, reject_, plan_})
        buttons->addWidget(button);
    buttons->addStretch(1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 8, 10, 8);
    layout->setSpacing(4);
    layout->addWidget(heading_);
    layout->addWidget(detail_);
    layout->addLayout(buttons);
    layout->addWidget(reason_);

    connect(approve_, &QPushButton::clicked, this, &ApprovalBar::press_approve);
    connect(reject_, &QPushButton::clicked, this, &ApprovalBar::press_reject);
    connect(reason_, &QLineEdit::returnPressed, this, &ApprovalBar::press_reject);
    connect(reason_, &ReasonField::escaped, this,
            [this] { reject_->setFocus(Qt::OtherFocusReason); });
    connect(edit_plan_, &QPushButton::clicked, this, &ApprovalBar::edit_plan_requested);
    connect(plan_, &QPushButton::clicked, this, &ApprovalBar::plan_requested);
    connect(compare_, &QPushButton::clicked, this, &ApprovalBar::compare_requested);
    hide();
}

void ApprovalBar::show_proposal(const BarContent& content) {
    content_ = content;
    heading_->setText(content.heading);
    QFont detail_font = font();
    if (content.kind == BarKind::command) detail_font.setFamily(QStringLiteral("monospace"));
    detail_->setFont(detail_font);
    detail_->setText(content.detail); // measured in its font

    // setText resets a button's mnemonic shortcut, so each label comes before its shortcut.
    // Alt+A approves whatever is pending; "Run" has no A to underline, so it is set apart.
    approve_->setText(content.approve_menu            ? tr("&Approve ▾")
                      : content.kind == BarKind::edit ? tr("&Approve")
                                                      : content.approve_text);
    approve_->setShortcut(QKeySequence(Qt::ALT | Qt::Key_A));
    approve_->setToolTip(content.approve_text + tr(" (Alt+A)"));
    approve_->setMenu(nullptr); // the menu is opened by press_approve, so Alt+A opens it too
    edit_plan_->setVisible(content.edit_plan);
    plan_->setVisible(content.show_plan);
    compare_->setVisible(content.compare);
    widen_->setVisible(content.widen);
    with_hosts_->setVisible(content.hosts);
    with_hosts_always_->setVisible(content.hosts);
    reason_->put_away();
    set_deciding(false);
    show();
}

void ApprovalBar::dismiss() {
    reason_->put_away();
    hide();
}

void ApprovalBar::set_deciding(bool deciding) {
    for (QPushButton* button : {approve_, widen_, reject_, edit_plan_, plan_, compare_})
        button->setEnabled(!deciding);
    reason_->setEnabled(!deciding);
}

void ApprovalBar::press_approve() {
    if (!content_.approve_menu) {
        emit approve_requested(QString());
        return;
    }
    approve_menu_->popup(approve_->mapToGlobal(QPoint(0, approve_->height())));
    approve_menu_->setActiveAction(approve_review_);
}

void ApprovalBar::press_reject() {
    if (reason_->isHidden()) return reason_->open();
    emit reject_requested(reason_->text().trimmed());
}

} // namespace rio::gui
