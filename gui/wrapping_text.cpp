#include "gui/wrapping_text.hpp"

#include <QTextDocument>
#include <cmath>
#include <memory>

namespace rio::gui {

WrappingText::WrappingText(QWidget* parent) : QTextEdit(parent) {
    setReadOnly(true);
    setAcceptRichText(false);
    setFrameShape(QFrame::NoFrame);
    setLineWrapMode(QTextEdit::WidgetWidth);
    setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Like a label: a click selects, the keyboard stays where the person has it.
    setFocusPolicy(Qt::NoFocus);
    viewport()->setAutoFillBackground(false);
    document()->setDocumentMargin(0);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
}

void WrappingText::setText(const QString& text) {
    setPlainText(text);
    updateGeometry();
    setMinimumHeight(heightForWidth(width()));
}

int WrappingText::heightForWidth(int width) const {
    std::unique_ptr<QTextDocument> laid(document()->clone());
    laid->setDefaultFont(font());
    laid->setTextWidth(std::max(1, width - 2 * frameWidth()));
    return static_cast<int>(std::ceil(laid->size().height())) + 2 * frameWidth();
}

QSize WrappingText::sizeHint() const {
    const int width = fontMetrics().averageCharWidth() * 40;
    return {width, heightForWidth(width)};
}

QSize WrappingText::minimumSizeHint() const {
    const int width = fontMetrics().averageCharWidth() * 8;
    return {width, fontMetrics().lineSpacing()};
}

void WrappingText::resizeEvent(QResizeEvent* event) {
    QTextEdit::resizeEvent(event);
    // Narrower: more lines, so taller; the layout asks again with the new height.
    const int needed = heightForWidth(width());
    if (needed != minimumHeight()) setMinimumHeight(needed);
}

} // namespace rio::gui
