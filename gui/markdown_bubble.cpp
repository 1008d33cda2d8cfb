#include "gui/markdown_bubble.hpp"

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QMimeData>
#include <QResizeEvent>
#include <QScrollBar>
#include <QTextDocumentFragment>
#include <QWheelEvent>
#include <QtMath>

namespace rio::gui {

MarkdownBubble::MarkdownBubble(const QString& markdown, QWidget* parent)
    : MarkdownView(Links::inactive, parent) {
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // A wide table or code line scrolls sideways inside the message rather than being cut.
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setFrameShape(QFrame::NoFrame);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    viewport()->setAutoFillBackground(false);
    setAutoFillBackground(false);
    // A message sits in the chat's narrow column among plain-text entries: the chat's own
    // font and no page margin, rather than the plan view's roomy page.
    MarkdownLook narrow = markdown_look(palette(), QApplication::font());
    narrow.prose = QApplication::font();
    narrow.code.setPointSizeF(narrow.prose.pointSizeF() * 0.9);
    narrow.line_height = 125;
    narrow.margin = 2;
    narrow.unbreakable_inline_code = true;
    set_look(narrow);
    setFont(narrow.prose);
    // Painted again in a new theme's colours: the new document's size is the one to follow.
    connect(this, &MarkdownView::document_shown, this, [this] {
        connect(document()->documentLayout(), &QAbstractTextDocumentLayout::documentSizeChanged,
                this, &MarkdownBubble::fit);
        fit();
    });
    show_markdown(markdown);
}

QMimeData* MarkdownBubble::createMimeDataFromSelection() const {
    auto* data = new QMimeData;
    data->setText(without_joiners(textCursor().selection().toPlainText()));
    return data;
}

int MarkdownBubble::fitted_height() const {
    const QMargins margins = contentsMargins();
    int height =
        qCeil(document()->size().height()) + margins.top() + margins.bottom() + 2 * frameWidth();
    if (horizontalScrollBar()->maximum() > 0) height += horizontalScrollBar()->sizeHint().height();
    return height;
}

void MarkdownBubble::fit() {
    const int height = fitted_height();
    if (height != this->height() || minimumHeight() != height) setFixedHeight(height);
}

QSize MarkdownBubble::sizeHint() const {
    return {MarkdownView::sizeHint().width(), fitted_height()};
}

QSize MarkdownBubble::minimumSizeHint() const {
    return {60, fitted_height()};
}

void MarkdownBubble::resizeEvent(QResizeEvent* event) {
    MarkdownView::resizeEvent(event); // lays the text out for the new width
    if (event->size().width() != event->oldSize().width()) fit();
}

void MarkdownBubble::wheelEvent(QWheelEvent* event) {
    if (event->angleDelta().y() != 0 && event->angleDelta().x() == 0) {
        event->ignore();
        return;
    }
    MarkdownView::wheelEvent(event);
}

} // namespace rio::gui
