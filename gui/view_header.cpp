#include "gui/view_header.hpp"

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
    text_->setText(text);
    text_->setToolTip(text);
}

QString ViewHeader::text() const {
    return text_->text();
}

void ViewHeader::add_leading(QWidget* widget) {
    row_->insertWidget(row_->indexOf(text_), widget);
}

void ViewHeader::add_trailing(QWidget* widget) {
    row_->insertWidget(row_->indexOf(close_), widget);
}

} // namespace rio::gui
