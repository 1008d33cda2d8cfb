#include "gui/view_header.hpp"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace rio::gui {

ViewHeader::ViewHeader(const QString& close_name, QWidget* parent)
    : QWidget(parent), row_(new QHBoxLayout(this)), text_(new QLabel(this)),
      close_(new QToolButton(this)) {
    setObjectName(QStringLiteral("view_header"));
    setAttribute(Qt::WA_StyledBackground);
    setStyleSheet(QStringLiteral("#view_header { border-bottom: 1px solid palette(mid); }"));
    // A title or path from the model is shown as it is, never as markup; a long one is cut
    // rather than widening the window.
    text_->setTextFormat(Qt::PlainText);
    text_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    text_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    QFont font = text_->font();
    font.setBold(true);
    text_->setFont(font);
    // Buttons beside it never squeeze the title to a letter or two (issue 32 item 5).
    text_->setMinimumWidth(QFontMetrics(font).averageCharWidth() * 18);
    text_->installEventFilter(this);

    close_->setText(QStringLiteral("×"));
    close_->setAccessibleName(close_name);
    close_->setToolTip(close_name + QStringLiteral(" (Esc)"));
    close_->setAutoRaise(true);
    close_->setFocusPolicy(Qt::NoFocus);
    connect(close_, &QToolButton::clicked, this, &ViewHeader::close_clicked);

    row_->setContentsMargins(10, 4, 4, 4);
    row_->setSpacing(6);
    row_->addWidget(text_, 1);
    row_->addWidget(close_);
}

void ViewHeader::set_text(const QString& text) {
    full_ = text;
    text_->setToolTip(text);
    show_text();
}

QString ViewHeader::text() const {
    return full_;
}

void ViewHeader::show_text() {
    text_->setText(text_->fontMetrics().elidedText(full_, Qt::ElideMiddle, text_->width()));
}

bool ViewHeader::eventFilter(QObject* watched, QEvent* event) {
    if (watched == text_ && event->type() == QEvent::Resize) show_text();
    return QWidget::eventFilter(watched, event);
}

void ViewHeader::add_leading(QWidget* widget) {
    row_->insertWidget(row_->indexOf(text_), widget);
}

void ViewHeader::add_trailing(QWidget* widget) {
    row_->insertWidget(row_->indexOf(close_), widget);
}

} // namespace rio::gui
