#include "gui/markdown_view.hpp"

#include "gui/markdown_document.hpp"
#include "gui/theme.hpp"
#include "text/markdown.hpp"

#include <QApplication>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QResizeEvent>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextFrame>
#include <algorithm>

namespace rio::gui {
namespace {

// A progressive painting starts with what fills a tall screen, then goes on in chunks small
// enough (a few milliseconds each, with their layout) not to hold up a scroll or a key.
constexpr int first_characters = 10000;
constexpr int chunk_characters = 6000;

} // namespace

MarkdownView::MarkdownView(Links links, QWidget* parent)
    : QTextBrowser(parent), links_(links), look_(markdown_look(palette(), QApplication::font())) {
    setOpenLinks(false);
    setOpenExternalLinks(false);
    setFrameShape(QFrame::NoFrame);
    setFont(look_.prose);
    // Without LinksAccessibleByMouse there is no hand cursor and no click: the text is
    // still selectable and copyable, links only look like links.
    setTextInteractionFlags(links_ == Links::inactive
                                ? Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard
                                : Qt::TextBrowserInteraction);
    connect(this, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (followable_ ? followable_(url) : links_ == Links::follow) emit link_activated(url);
    });
    follow_theme(this, [this] { follow_new_colours(); });
}

MarkdownView::~MarkdownView() = default; // the painter goes before its document

void MarkdownView::show_markdown(const QString& markdown) {
    // A fresh document per painting, owned by this view: nothing is shared with any other view.
    stop_painting();
    markdown_ = markdown;
    auto* painted = new QTextDocument(this);
    md::Block parsed = md::parse(markdown.toStdString());
    if (painting_ == Painting::whole) {
        paint_markdown(*painted, parsed, look_);
    } else {
        painter_ = std::make_unique<MarkdownPainter>(*painted, std::move(parsed), look_);
        if (painter_->paint_some(first_characters)) painter_.reset();
    }
    adopt(painted);
    if (painter_) more_.start(0, this);
}

void MarkdownView::show_document(QTextDocument* painted) {
    stop_painting();
    markdown_.reset();
    adopt(painted);
}

void MarkdownView::follow_new_colours() {
    MarkdownLook recoloured = look_;
    colour_look(recoloured, QApplication::palette());
    if (recoloured.text == look_.text && recoloured.link == look_.link &&
        recoloured.code_background == look_.code_background)
        return; // the first call, from the constructor, or a change that leaves these alone
    look_ = recoloured;
    if (!markdown_) {
        emit repaint_needed();
        return;
    }
    const int scroll = verticalScrollBar()->value();
    show_markdown(*markdown_);
    if (scroll > 0) {
        finish_painting(); // the place it was may be further down than the first screen
        verticalScrollBar()->setValue(scroll);
    }
}

void MarkdownView::adopt(QTextDocument* painted) {
    painted->setParent(this);
    // Before the layout sees the document: margins changed later would lay all of it out again.
    fit_width(*painted);
    // QTextEdit deletes only the document it made itself; the ones this view was given go here.
    QTextDocument* old = document();
    const bool ours = old && old != painted && old->parent() == this;
    setDocument(painted);
    if (ours) old->deleteLater();
    verticalScrollBar()->setValue(0);
    horizontalScrollBar()->setValue(0);
    emit document_shown();
}

void MarkdownView::finish_painting() {
    if (painter_)
        while (!painter_->paint_some(1 << 20)) {
        }
    stop_painting();
}

void MarkdownView::stop_painting() {
    more_.stop();
    painter_.reset();
}

void MarkdownView::timerEvent(QTimerEvent* event) {
    if (event->timerId() != more_.timerId()) return QTextBrowser::timerEvent(event);
    if (!painter_ || painter_->paint_some(chunk_characters)) stop_painting();
}

void MarkdownView::set_followable(std::function<bool(const QUrl&)> followable) {
    followable_ = std::move(followable);
    const bool some = followable_ || links_ == Links::follow;
    setTextInteractionFlags(some ? Qt::TextBrowserInteraction
                                 : Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
}

void MarkdownView::mouseMoveEvent(QMouseEvent* event) {
    QTextBrowser::mouseMoveEvent(event);
    // The browser shows a hand over every link; an inert one keeps the text cursor.
    if (!followable_) return;
    const QString anchor = anchorAt(event->position().toPoint());
    if (!anchor.isEmpty() && !followable_(QUrl(anchor))) viewport()->setCursor(Qt::IBeamCursor);
}

void MarkdownView::keyPressEvent(QKeyEvent* event) {
    // Keys that reach for the end of the document, or all of it, get all of it.
    if (painter_ && (event->matches(QKeySequence::MoveToEndOfDocument) ||
                     event->matches(QKeySequence::SelectEndOfDocument) ||
                     event->matches(QKeySequence::SelectAll)))
        finish_painting();
    QTextBrowser::keyPressEvent(event);
}

bool MarkdownView::has_anchor(const QString& anchor) {
    if (anchor.isEmpty()) return false;
    finish_painting();
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
    fit_width(*document());
}

void MarkdownView::fit_width(QTextDocument& document) {
    // Long lines tire the eye: beyond the readable width the text column stays that wide and
    // is centred, with the spare room as margins.
    QTextFrame* root = document.rootFrame();
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
