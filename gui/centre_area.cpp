#include "gui/centre_area.hpp"

#include "gui/editor_area.hpp"
#include "gui/find_bar.hpp"
#include "gui/go_to_line.hpp"
#include "gui/theme.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace rio::gui {

CentreArea::CentreArea(EditorArea* editors, QWidget* parent)
    : QWidget(parent), notice_strip_(new QWidget(this)), notice_(new QLabel(notice_strip_)),
      notice_button_(new QPushButton(notice_strip_)), stack_(new QStackedWidget(this)),
      editors_(editors), find_bar_(new FindBar(this)), go_to_line_(new GoToLineBar(this)) {
    notice_->setWordWrap(true);
    notice_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    notice_->setContentsMargins(10, 8, 10, 8);
    notice_strip_->setObjectName(QStringLiteral("notice"));
    notice_strip_->setAttribute(Qt::WA_StyledBackground);
    follow_theme(notice_strip_, [this] {
        const ThemeColours c = theme_colours();
        notice_strip_->setStyleSheet(
            QStringLiteral("#notice { background: %1; border-bottom: 1px solid %3; }"
                           "#notice QLabel { color: %2; }")
                .arg(c.alarm_background.name(), c.alarm_text.name(), c.alarm_border.name()));
    });
    auto* strip = new QHBoxLayout(notice_strip_);
    strip->setContentsMargins(0, 0, 10, 0);
    strip->addWidget(notice_, 1);
    strip->addWidget(notice_button_, 0, Qt::AlignVCenter);
    connect(notice_button_, &QPushButton::clicked, this, &CentreArea::notice_action);
    notice_strip_->hide();
    stack_->addWidget(editors_);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(notice_strip_);
    layout->addWidget(stack_, 1);
    layout->addWidget(find_bar_);
    layout->addWidget(go_to_line_);
    connect(stack_, &QStackedWidget::currentChanged, this, &CentreArea::view_changed);
}

void CentreArea::add_view(QWidget* view) {
    if (stack_->indexOf(view) < 0) stack_->addWidget(view);
}

void CentreArea::show_view(QWidget* view) {
    add_view(view);
    stack_->setCurrentWidget(view);
}

void CentreArea::show_editors() {
    stack_->setCurrentWidget(editors_);
}

QWidget* CentreArea::current_view() const {
    return stack_->currentWidget();
}

void CentreArea::show_notice(const QString& text, const QString& action) {
    notice_->setText(text);
    notice_button_->setText(action);
    notice_button_->setVisible(!action.isEmpty());
    notice_strip_->show();
}

void CentreArea::hide_notice() {
    notice_->clear();
    notice_strip_->hide();
}

QString CentreArea::notice() const {
    return notice_strip_->isHidden() ? QString() : notice_->text();
}

} // namespace rio::gui
