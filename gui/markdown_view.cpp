#include "gui/markdown_view.hpp"

#include "gui/markdown_document.hpp"
#include "text/markdown.hpp"

#include <QApplication>
#include <QResizeEvent>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextFrame>
#include <algorithm>

namespace rio::gui {

MarkdownView::MarkdownView(Links links, QWidget* parent)
    : QTextBrowser(parent), links_(links), look_(markdown_look(palette(), QApplication::font())) {
    setOpenLinks(false);
    setOpenExternalLinks(false);
    setFrameShape(QFrame::NoFrame);
    setFont(look_.prose);
    if (links_ == Links::inactive) {
        // Without LinksAccessibleByMouse there is no hand cursor and no click: the text is
        // still selectable and copyable, links only look like links.
        setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    } else {
        setTextInteractionFlags(Qt::TextBrowserInteraction);
        connect(this, &QTextBrowser::anchorClicked, this, &MarkdownView::link_activated);
    }
}

void MarkdownView::show_markdown(const QString& markdown) {
    // A fresh document per painting, owned by this view: nothing is shared with any other
    // view, and QTextEdit deletes the previous one (its child) on setDocument.
    auto* painted = new QTextDocument(this);
    paint_markdown(*painted, md::parse(markdown.toStdString()), look_);
    setDocument(painted);
    fit_width();
    verticalScrollBar()->setValue(0);
    horizontalScrollBar()->setValue(0);
}

bool MarkdownView::has_anchor(const QString& anchor) const {
    if (anchor.isEmpty()) return false;
    for (QTextBlock block = document()->begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextCharFormat format = it.fragment().charFormat();
            if (format.isAnchor() && format.anchorNames().contains(anchor)) return true;
        }
    return false;
}

bool MarkdownView::scroll_to_anchor(const QString& anchor) {
    if (!has_anchor(anchor)) return false;
    scrollToAnchor(anchor);
    return true;
}

void MarkdownView::resizeEvent(QResizeEvent* event) {
    QTextBrowser::resizeEvent(event);
    fit_width();
}

void MarkdownView::fit_width() {
    // Long lines tire the eye: beyond the readable width the text column stays that wide and
    // is centred, with the spare room as margins.
    QTextFrame* root = document()->rootFrame();
    QTextFrameFormat format = root->frameFormat();
    const qreal spare = std::max(0, viewport()->width() - look_.readable_width) / 2.0;
    const qreal side = look_.margin + spare;
    if (qFuzzyCompare(format.leftMargin(), side) && qFuzzyCompare(format.rightMargin(), side))
        return;
    format.setLeftMargin(side);
    format.setRightMargin(side);
    root->setFrameFormat(format);
}

} // namespace rio::gui
