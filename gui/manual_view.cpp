#include "gui/manual_view.hpp"

#include "gui/escape_key.hpp"
#include "gui/manual_link.hpp"
#include "gui/markdown_view.hpp"
#include "gui/view_header.hpp"

#include <QAction>
#include <QDesktopServices>
#include <QKeyEvent>
#include <QListWidget>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

namespace rio::gui {
namespace {

QToolButton* history_button(QAction* action, QWidget* parent) {
    auto* button = new QToolButton(parent);
    button->setDefaultAction(action);
    button->setAutoRaise(true);
    button->setFocusPolicy(Qt::NoFocus);
    button->setAccessibleName(action->text());
    return button;
}

} // namespace

ManualView::ManualView(const QString& dir, QWidget* parent)
    : QWidget(parent), pages_(load_manual(dir)), header_(new ViewHeader(tr("Close manual"), this)),
      contents_(new QListWidget(this)), body_(new MarkdownView(MarkdownView::Links::follow, this)),
      back_(new QAction(style()->standardIcon(QStyle::SP_ArrowBack), tr("Back"), this)),
      forward_(new QAction(style()->standardIcon(QStyle::SP_ArrowForward), tr("Forward"), this)),
      back_button_(history_button(back_, this)), forward_button_(history_button(forward_, this)) {
    setObjectName(QStringLiteral("manual_view"));
    // Alt+Left and Alt+Right wherever the focus is inside the manual, and nowhere else: the
    // editor and the chat keep theirs.
    back_->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Left));
    forward_->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Right));
    for (QAction* action : {back_, forward_}) {
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        action->setToolTip(action->text() + QStringLiteral(" (") +
                           action->shortcut().toString(QKeySequence::NativeText) +
                           QStringLiteral(")"));
        addAction(action);
    }
    header_->add_leading(back_button_);
    header_->add_leading(forward_button_);

    contents_->setAccessibleName(tr("Manual contents"));
    contents_->setFrameShape(QFrame::NoFrame);
    contents_->setStyleSheet(QStringLiteral(
        "QListWidget { background: palette(window); border-right: 1px solid palette(mid); }"
        "QListWidget::item { border: none; padding: 5px 10px; }"
        "QListWidget::item:selected { background: palette(highlight);"
        " color: palette(highlighted-text); }"));
    for (const ManualPage& page : pages_)
        contents_->addItem(page.title);
    contents_->setMinimumWidth(120);
    contents_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // titles are short
    contents_->setTextElideMode(Qt::ElideRight);

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(contents_);
    split->addWidget(body_);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);
    split->setSizes({190, 810});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(header_);
    layout->addWidget(split, 1);
    setFocusProxy(body_);

    connect(header_, &ViewHeader::close_clicked, this, &ManualView::close_requested);
    connect(back_, &QAction::triggered, this, &ManualView::go_back);
    connect(forward_, &QAction::triggered, this, &ManualView::go_forward);
    connect(body_, &MarkdownView::link_activated, this, &ManualView::follow_link);
    connect(contents_, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0 && row < static_cast<int>(pages_.size()))
            open(pages_[static_cast<std::size_t>(row)].file);
    });
    if (!pages_.empty()) open(pages_.front().file);
}

bool ManualView::open(const QString& page, const QString& anchor) {
    const ManualPage* target = find(page);
    if (!target) return false;
    history_.remember_scroll(scroll());
    if (page != page_) show_page(*target);
    if (anchor.isEmpty() || !body_->scroll_to_anchor(anchor))
        body_->verticalScrollBar()->setValue(0);
    history_.visit({page_, scroll()});
    update_controls();
    return true;
}

void ManualView::follow_link(const QUrl& href) {
    const ManualLink link = resolve_manual_link(href.toString(), manual_files());
    switch (link.kind) {
    case ManualLink::Kind::page:
        open(link.page, link.anchor);
        break;
    case ManualLink::Kind::anchor:
        open(page_, link.anchor);
        break;
    case ManualLink::Kind::external:
        QDesktopServices::openUrl(link.url);
        break;
    case ManualLink::Kind::unknown: // the link check in the tests keeps these out
        break;
    }
}

bool ManualView::go_back() {
    if (!history_.can_go_back()) return false;
    history_.remember_scroll(scroll());
    go_to(*history_.back());
    return true;
}

bool ManualView::go_forward() {
    if (!history_.can_go_forward()) return false;
    history_.remember_scroll(scroll());
    go_to(*history_.forward());
    return true;
}

QString ManualView::header_text() const {
    return header_->text();
}

void ManualView::keyPressEvent(QKeyEvent* event) {
    // The page and the contents list leave Esc alone, so it arrives here from either.
    if (!take_escape(event, [this] { emit close_requested(); })) QWidget::keyPressEvent(event);
}

const ManualPage* ManualView::find(const QString& file) const {
    for (const ManualPage& page : pages_)
        if (page.file == file) return &page;
    return nullptr;
}

void ManualView::show_page(const ManualPage& page) {
    page_ = page.file;
    body_->show_markdown(page.markdown);
    header_->set_text(tr("Manual — %1").arg(page.title));
    const QSignalBlocker quiet(contents_); // following the page, not asking for one
    for (std::size_t row = 0; row < pages_.size(); ++row)
        if (pages_[row].file == page.file) contents_->setCurrentRow(static_cast<int>(row));
}

void ManualView::go_to(const ManualPlace& place) {
    if (const ManualPage* target = find(place.page); target && place.page != page_)
        show_page(*target);
    body_->verticalScrollBar()->setValue(place.scroll);
    update_controls();
}

int ManualView::scroll() const {
    return body_->verticalScrollBar()->value();
}

void ManualView::update_controls() {
    back_->setEnabled(history_.can_go_back());
    forward_->setEnabled(history_.can_go_forward());
}

} // namespace rio::gui
