#include "gui/view_header.hpp"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

namespace rio::gui {

ViewHeader::ViewHeader(const QString& close_name, QWidget* parent)
    : QWidget(parent), rows_(new QVBoxLayout(this)), row_(new QHBoxLayout),
      trailing_(new QWidget(this)), trailing_row_(new QHBoxLayout(trailing_)),
      text_(new QLabel(this)), close_(new QToolButton(this)) {
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

    rows_->setContentsMargins(10, 4, 4, 4);
    rows_->setSpacing(4);
    rows_->addLayout(row_);
    row_->setContentsMargins(0, 0, 0, 0);
    row_->setSpacing(6);
    row_->addWidget(text_, 1);
    row_->addWidget(trailing_);
    row_->addWidget(close_);
    trailing_row_->setContentsMargins(0, 0, 0, 0);
    trailing_row_->setSpacing(6);
    trailing_->installEventFilter(this); // a button shown or hidden changes what fits
}

QSize ViewHeader::minimumSizeHint() const {
    const QMargins margins = rows_->contentsMargins();
    int width = margins.left() + text_->minimumWidth() + row_->spacing() +
                close_->sizeHint().width() + margins.right();
    for (int i = 0; i < row_->indexOf(text_); ++i)
        if (QWidget* leading = row_->itemAt(i)->widget(); leading && !leading->isHidden())
            width += leading->sizeHint().width() + row_->spacing();
    return {width, QWidget::minimumSizeHint().height()};
}

void ViewHeader::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    place_buttons();
}

void ViewHeader::place_buttons() {
    // Below as soon as the text would be cut beside them: a long plan title is read whole.
    const int text_room = width() - (minimumSizeHint().width() - text_->minimumWidth());
    const int text_wants =
        std::max(text_->minimumWidth(), text_->fontMetrics().horizontalAdvance(full_) + 2);
    const bool below = trailing_->sizeHint().width() + row_->spacing() > text_room - text_wants;
    if (below == below_) return;
    below_ = below;
    if (below) {
        row_->removeWidget(trailing_);
        rows_->addWidget(trailing_, 0, Qt::AlignLeft);
    } else {
        rows_->removeWidget(trailing_);
        row_->insertWidget(row_->indexOf(close_), trailing_);
    }
}

void ViewHeader::set_text(const QString& text, const QString& detail) {
    full_ = text;
    text_->setToolTip(detail.isEmpty() ? text : text + QLatin1Char('\n') + detail);
    place_buttons();
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
    if (watched == trailing_ && event->type() == QEvent::LayoutRequest) place_buttons();
    return QWidget::eventFilter(watched, event);
}

void ViewHeader::add_leading(QWidget* widget) {
    row_->insertWidget(row_->indexOf(text_), widget);
}

void ViewHeader::add_trailing(QWidget* widget) {
    trailing_row_->addWidget(widget);
}

} // namespace rio::gui
