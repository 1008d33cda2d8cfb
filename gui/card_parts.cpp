#include "gui/card_parts.hpp"

#include "gui/editor_style.hpp"
#include "gui/theme.hpp"

#include <QKeyEvent>
#include <QScrollBar>
#include <QTextBlock>
#include <QToolButton>
#include <algorithm>
#include <cmath>

namespace rio::gui {

CardToggle::CardToggle(const QString& narrowest, QWidget* parent) : QPushButton(parent) {
    setCheckable(true);
    // It takes the room the row leaves; the label is cut to fit (show_label).
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    setMinimumWidth(fontMetrics().horizontalAdvance(narrowest));
    setFlat(true);
    setAutoDefault(false);
    setFocusPolicy(Qt::StrongFocus);
    setCursor(Qt::PointingHandCursor);
    connect(this, &QPushButton::toggled, this, &CardToggle::show_label);
}

void CardToggle::set_label(const QString& label, Qt::TextElideMode elide) {
    label_ = label;
    elide_ = elide;
    show_label();
}

void CardToggle::show_label() {
    const QString arrow = isChecked() ? QStringLiteral("▾ ") : QStringLiteral("▸ ");
    const QFontMetrics metrics(font());
    const int room = width() - metrics.horizontalAdvance(arrow) - 12;
    setText(arrow + metrics.elidedText(label_, elide_, room));
}

void CardToggle::paint(const ThemeColours& colours) {
    setStyleSheet(QStringLiteral("QPushButton { border: none; text-align: left; padding: 2px 4px; }"
                                 "QPushButton:focus { background: %1; border-radius: 3px; }")
                      .arg(colours.user_background.name()));
}

void CardToggle::resizeEvent(QResizeEvent* event) {
    QPushButton::resizeEvent(event);
    show_label();
}

void CardToggle::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) {
        toggle(); // as Space does
        return;
    }
    QPushButton::keyPressEvent(event);
}

QToolButton* card_button(const QString& text, const QString& tip) {
    auto* button = new QToolButton;
    button->setText(text);
    button->setToolTip(tip);
    button->setAutoRaise(true);
    button->setToolButtonStyle(Qt::ToolButtonTextOnly);
    button->setFocusPolicy(Qt::StrongFocus);
    button->setCursor(Qt::PointingHandCursor);
    return button;
}

CardText::CardText(const QString& accessible_name, QWidget* parent) : QPlainTextEdit(parent) {
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFrameShape(QFrame::NoFrame);
    setFont(editor_font());
    setAccessibleName(accessible_name);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
}

void CardText::fit(int most) {
    const int lines = std::max(1, document()->blockCount());
    // Every line shown: nothing to scroll up or down (QPlainTextEdit would offer it anyway).
    setVerticalScrollBarPolicy(lines <= most ? Qt::ScrollBarAlwaysOff : Qt::ScrollBarAsNeeded);
    const int line_height =
        static_cast<int>(std::ceil(blockBoundingRect(document()->firstBlock()).height()));
    const int margins = static_cast<int>(std::ceil(2 * document()->documentMargin())) +
                        2 * frameWidth() + horizontalScrollBar()->sizeHint().height();
    setFixedHeight(std::min(lines, most) * line_height + margins + 2);
}

void CardText::wheelEvent(QWheelEvent* event) {
    if (verticalScrollBar()->maximum() == 0) return event->ignore();
    QPlainTextEdit::wheelEvent(event);
}

} // namespace rio::gui
