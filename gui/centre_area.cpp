#include "gui/centre_area.hpp"

#include "gui/editor_area.hpp"
#include "gui/find_bar.hpp"
#include "gui/go_to_line.hpp"
#include "gui/theme.hpp"

#include <QLabel>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace rio::gui {

CentreArea::CentreArea(EditorArea* editors, QWidget* parent)
    : QWidget(parent), notice_(new QLabel(this)), stack_(new QStackedWidget(this)),
      editors_(editors), find_bar_(new FindBar(this)), go_to_line_(new GoToLineBar(this)) {
    notice_->setWordWrap(true);
    notice_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    notice_->setContentsMargins(10, 8, 10, 8);
    follow_theme(notice_, [this] {
        const ThemeColours c = theme_colours();
        notice_->setStyleSheet(
            QStringLiteral("QLabel { background: %1; color: %2; border-bottom: 1px solid %3; }")
                .arg(c.alarm_background.name(), c.alarm_text.name(), c.alarm_border.name()));
    });
    notice_->hide();
    stack_->addWidget(editors_);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(notice_);
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

void CentreArea::show_notice(const QString& text) {
    notice_->setText(text);
    notice_->show();
}

void CentreArea::hide_notice() {
    notice_->clear();
    notice_->hide();
}

QString CentreArea::notice() const {
    return notice_->isHidden() ? QString() : notice_->text();
}

} // namespace rio::gui
