#include "gui/plan_view.hpp"

#include "client/trace_words.hpp"
#include "gui/escape_key.hpp"
#include "gui/markdown_view.hpp"
#include "gui/plan_decisions.hpp"
#include "gui/plan_link.hpp"
#include "gui/quote_lines.hpp"
#include "gui/revision_document.hpp"
#include "gui/view_header.hpp"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QScrollBar>
#include <QShortcut>
#include <QTextDocument>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

namespace rio::gui {
namespace {

// A passage as a field's placeholder names it: one line, the first 40 characters.
QString quote_shown(const QString& quote) {
    QString shown = quote.left(40).replace(QLatin1Char('\n'), QLatin1Char(' '));
    if (quote.size() > 40) shown += QStringLiteral("…");
    return shown;
}

// A comment's or a reply's text in a list row: line breaks as spaces, every other control
// character as its symbol (␛ for ESC), so what a model or a file wrote shows as written.
QString plain_text(const std::string& text) {
    QString out = QString::fromStdString(text);
    for (QChar& c : out) {
        const char16_t u = c.unicode();
        if (u == u'\n' || u == u'\r' || u == u'\t')
            c = QLatin1Char(' ');
        else if (u < 0x20)
            c = QChar(static_cast<char16_t>(0x2400 + u));
        else if (u == 0x7F)
            c = QChar(static_cast<char16_t>(0x2421));
    }
    return out;
}

constexpr int side_width = 260, side_height = 170;

} // namespace

PlanView::PlanView(QWidget* parent)
    : QWidget(parent), header_(new ViewHeader(tr("Close plan"), this)),
      body_(new MarkdownView(MarkdownView::Links::inactive, this)),
      header_decisions_(new PlanDecisions(this)), foot_decisions_(new PlanDecisions(this)),
      feedback_(
          new ReasonField(tr("What should change? (optional) — Enter sends, Esc puts this away"),
                          tr("What should change"), this)),
      foot_(new QWidget(this)), comment_field_(new QLineEdit(this)),
      comment_button_(new QPushButton(tr("Co&mment"), this)), side_(new QWidget(this)),
      comment_list_(new QListWidget(this)), steps_(new QListWidget(this)),
      edit_comment_(new QPushButton(tr("Ed&it comment"), this)),
      remove_comment_(new QPushButton(tr("Rem&ove comment"), this)),
      changes_(new QToolButton(this)), thread_list_(new QListWidget(this)),
      reply_field_(new QLineEdit(this)), resolve_button_(new QPushButton(tr("Reso&lve"), this)),
      threads_box_(new QWidget(this)), drafts_box_(new QWidget(this)), open_bar_(new QWidget(this)),
      open_label_(new QLabel(this)), approve_anyway_(new QPushButton(tr("Approve an&yway"), this)) {
    setObjectName(QStringLiteral("plan_view"));
    // A 300-line plan shows at once; the rest of it is painted while it is being read.
    body_->set_painting(MarkdownView::Painting::progressive);
    changes_->setText(tr("Changes since the previous plan"));
    changes_->setCheckable(true);
    changes_->setAutoRaise(true);
    changes_->hide();
    connect(changes_, &QToolButton::toggled, this, &PlanView::paint_body);
    header_->add_trailing(changes_);
    header_->add_trailing(header_decisions_);
    join(header_decisions_);
    join(foot_decisions_);

    connect(feedback_, &QLineEdit::returnPressed, this, &PlanView::request_changes);
    connect(feedback_, &ReasonField::escaped, this,
            [this] { body_->setFocus(Qt::OtherFocusReason); });

    comment_field_->setAccessibleName(tr("Comment on the selected passage"));
    comment_field_->installEventFilter(this);
    comment_field_->hide();
    connect(comment_field_, &QLineEdit::returnPressed, this, &PlanView::add_comment);
    comment_button_->setAutoDefault(false);
    comment_button_->setToolTip(tr("Comment on the selected passage (Ctrl+M)"));
    connect(comment_button_, &QPushButton::clicked, this, [this] { start_comment(); });

    body_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(body_, &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
        body_->finish_painting(); // its Select All and Copy take the whole plan
        QMenu* menu = body_->createStandardContextMenu(at);
        if (decidable_) {
            QAction* comment = menu->addAction(tr("Comment…\tCtrl+M"));
            comment->setEnabled(body_->textCursor().hasSelection());
            connect(comment, &QAction::triggered, this, [this] { start_comment(); });
        }
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(body_->viewport()->mapToGlobal(at));
    });

    auto* side = new QVBoxLayout(side_);
    side->setContentsMargins(6, 6, 6, 6);
    auto* threads = new QVBoxLayout(threads_box_);
    threads->setContentsMargins(0, 0, 0, 0);
    threads->addWidget(new QLabel(tr("Review comments"), threads_box_));
    thread_list_->setWordWrap(true);
    thread_list_->setSpacing(3);
    thread_list_->setAccessibleName(tr("Review comments on the plan, with their replies"));
    threads->addWidget(thread_list_, 1);
    reply_field_->setPlaceholderText(tr("Reply to the selected comment — Enter sends"));
    reply_field_->setAccessibleName(tr("Reply to the selected comment"));
    connect(reply_field_, &QLineEdit::returnPressed, this, &PlanView::send_reply);
    resolve_button_->setAutoDefault(false);
    resolve_button_->setToolTip(tr("Resolve the selected comment"));
    connect(resolve_button_, &QPushButton::clicked, this, [this] {
        if (const QString id = selected_thread(); !id.isEmpty()) emit resolve_requested(id);
    });
    auto* thread_row = new QHBoxLayout;
    thread_row->addWidget(reply_field_, 1);
    thread_row->addWidget(resolve_button_);
    threads->addLayout(thread_row);
    threads_box_->hide();
    side->addWidget(threads_box_, 1);
    // This decision's comments, under the threads; each part shows only when it has some.
    auto* drafts = new QVBoxLayout(drafts_box_);
    drafts->setContentsMargins(0, 0, 0, 0);
    drafts->addWidget(new QLabel(tr("Comments"), drafts_box_));
    comment_list_->setWordWrap(true);
    comment_list_->setSpacing(3); // one comment from the next, at a glance
    comment_list_->setAccessibleName(tr("Comments on the plan"));
    drafts->addWidget(comment_list_, 1);
    connect(comment_list_, &QListWidget::itemActivated, this,
            [this](QListWidgetItem* item) { start_edit(comment_list_->row(item)); });
    edit_comment_->setAutoDefault(false);
    edit_comment_->setToolTip(tr("Edit the selected comment (or double-click it)"));
    connect(edit_comment_, &QPushButton::clicked, this,
            [this] { start_edit(comment_list_->currentRow()); });
    remove_comment_->setAutoDefault(false);
    connect(remove_comment_, &QPushButton::clicked, this, &PlanView::remove_comment);
    auto* comment_buttons = new QHBoxLayout;
    comment_buttons->addWidget(edit_comment_);
    comment_buttons->addWidget(remove_comment_);
    drafts->addLayout(comment_buttons);
    drafts_box_->hide();
    side->addWidget(drafts_box_, 1);
    side_->setFixedWidth(side_width);
    side_->hide();

    auto* foot_row = new QHBoxLayout;
    foot_row->setSpacing(6);
    foot_row->addWidget(foot_decisions_);
    foot_row->addWidget(comment_button_);
    foot_row->addStretch(1);
    auto* open_row = new QHBoxLayout(open_bar_);
    open_row->setContentsMargins(0, 0, 0, 0);
    open_row->addWidget(open_label_);
    open_row->addWidget(approve_anyway_);
    auto* back = new QPushButton(tr("&Back"), open_bar_);
    back->setAutoDefault(false);
    open_row->addWidget(back);
    open_row->addStretch(1);
    open_bar_->setAccessibleName(tr("Comments are still open"));
    open_bar_->hide();
    approve_anyway_->setAutoDefault(false);
    connect(approve_anyway_, &QPushButton::clicked, this, [this] {
        open_bar_->hide();
        emit approve_confirmed(asked_policy_, asked_fresh_);
    });
    connect(back, &QPushButton::clicked, open_bar_, &QWidget::hide);
    auto* foot = new QVBoxLayout(foot_);
    foot->setContentsMargins(10, 6, 10, 8);
    foot->setSpacing(4);
    foot->addWidget(open_bar_);
    foot->addWidget(comment_field_);
    foot->addWidget(feedback_);
    foot->addLayout(foot_row);

    auto* middle = new QHBoxLayout;
    middle_ = middle;
    middle->setContentsMargins(0, 0, 0, 0);
    middle->setSpacing(0);
    middle->addWidget(body_, 1);
    middle->addWidget(side_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(header_);
    steps_->setAccessibleName(tr("Steps of the approved plan"));
    steps_->setFocusPolicy(Qt::NoFocus);
    steps_->setSelectionMode(QAbstractItemView::NoSelection);
    // Issue 43: a person runs a step's check again from the step (the core refuses a step
    // without one, in words).
    steps_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(steps_, &QListWidget::customContextMenuRequested, this, [this](const QPoint& at) {
        QListWidgetItem* item = steps_->itemAt(at);
        if (!item) return;
        const auto step = item->data(Qt::UserRole + 1).toULongLong();
        QMenu menu(this);
        QAction* run = menu.addAction(tr("Run step %1's check again").arg(step));
        if (menu.exec(steps_->viewport()->mapToGlobal(at)) == run) emit check_requested(step);
    });
    steps_->hide();
    layout->addWidget(steps_);
    layout->addLayout(middle, 1);
    layout->addWidget(foot_);
    setFocusProxy(body_);
    connect(header_, &ViewHeader::close_clicked, this, &PlanView::close_requested);
    connect(body_, &MarkdownView::link_activated, this, &PlanView::follow_link);
    // The marked changes are painted here, not by the body: a new theme repaints them here.
    connect(body_, &MarkdownView::repaint_needed, this, [this] {
        const int scroll = body_->verticalScrollBar()->value();
        paint_body();
        body_->verticalScrollBar()->setValue(scroll);
    });

    // Anywhere in the view, whatever has the focus inside it.
    const auto shortcut = [this](QKeyCombination keys, const QString& policy) {
        auto* s = new QShortcut(QKeySequence(keys), this);
        s->setContext(Qt::WidgetWithChildrenShortcut);
        connect(s, &QShortcut::activated, this, [this, policy] { approve_by_key(policy); });
    };
    shortcut(Qt::CTRL | Qt::Key_Return, QStringLiteral("review"));
    shortcut(Qt::CTRL | Qt::Key_Enter, QStringLiteral("review"));
    shortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_Return, QStringLiteral("auto"));
    shortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_Enter, QStringLiteral("auto"));
    auto* comment = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_M), this);
    comment->setContext(Qt::WidgetWithChildrenShortcut);
    connect(comment, &QShortcut::activated, this, [this] { start_comment(); });
}

void PlanView::join(PlanDecisions* decisions) {
    connect(decisions, &PlanDecisions::approve_requested, this, &PlanView::approve_requested);
    connect(decisions, &PlanDecisions::edit_plan_requested, this, &PlanView::edit_plan_requested);
    connect(decisions, &PlanDecisions::request_changes_requested, this, &PlanView::request_changes);
}

void PlanView::set_progress(const PlanProgressEvent& progress) {
    if (path_.isEmpty() || QString::fromStdString(progress.path) != path_) return;
    steps_->clear();
    for (const PlanStep& step : progress.steps) {
        QString text = QStringLiteral("%1. %2").arg(step.n).arg(QString::fromStdString(step.text));
        if (step.is(StepStatus::skipped)) text += tr(" (skipped)");
        if (step.verified) text += *step.verified ? tr(" (verified)") : tr(" (unverified)");
        if (step.is(StepStatus::failed))
            text += QStringLiteral(" (") + QString::fromStdString(client::step_check_text(step)) +
                    QStringLiteral(")");
        if (step.note) text += QStringLiteral(" — ") + QString::fromStdString(*step.note);
        auto* item = new QListWidgetItem(text, steps_);
        item->setFlags(Qt::ItemIsEnabled); // the agent ticks them, not the reader
        item->setCheckState(step.is(StepStatus::done)          ? Qt::Checked
                            : step.is(StepStatus::in_progress) ? Qt::PartiallyChecked
                                                               : Qt::Unchecked);
        item->setData(Qt::UserRole, QString::fromStdString(step.status));
        item->setData(Qt::UserRole + 1, QVariant::fromValue<qulonglong>(step.n));
    }
    const int rows = std::min<int>(steps_->count(), 8);
    steps_->setFixedHeight(rows * steps_->sizeHintForRow(0) + 2 * steps_->frameWidth() + 4);
    steps_->setVisible(steps_->count() > 0);
}

void PlanView::set_receipt(const QString& path, const QString& markdown) {
    if (path.isEmpty() || path != path_) return;
    const int scroll = body_->verticalScrollBar()->value();
    receipt_ = markdown;
    paint_body();
    body_->finish_painting(); // the place it was left may be further down than painted
    body_->verticalScrollBar()->setValue(scroll);
}

QString PlanView::appendix() const {
    QString out;
    for (const QString& part : {declared_, receipt_})
        if (!part.isEmpty()) out += QStringLiteral("\n\n") + part;
    return out;
}

void PlanView::show_plan(const QString& title, const QString& path, const QString& markdown,
                         bool decidable, const std::vector<DeclaredStep>& declared) {
    // The title is what a person reads; the file is in the tooltip and the approval bar.
    header_->set_text(tr("Plan — %1").arg(title), path);
    markdown_ = markdown;
    // The same plan shown again keeps its place; another starts at the top.
    const bool same = !path.isEmpty() && path == path_;
    const int scroll = body_->verticalScrollBar()->value();
    declared_ = QString::fromStdString(client::declared_steps_text(declared));
    if (!same) {
        receipt_.clear();
        steps_->clear();
        steps_->hide();
        revision_.clear();
        changes_->hide();
        changes_->setChecked(false); // paints the plan
    }
    paint_body();
    if (same) {
        body_->finish_painting(); // the place it was left may be further down than painted
        body_->verticalScrollBar()->setValue(scroll);
    }
    // A note half written, and the comments, stay while the same plan is shown again.
    if (decidable != decidable_ || !same) {
        feedback_->put_away();
        clear_comments();
        open_bar_->hide();
    }
    if (!same) {
        threads_.clear();
        show_threads();
    }
    decidable_ = decidable;
    path_ = path;
    header_decisions_->setVisible(decidable);
    foot_->setVisible(decidable);
    set_deciding(false);
}

void PlanView::set_deciding(bool deciding) {
    deciding_ = deciding;
    header_decisions_->set_deciding(deciding);
    foot_decisions_->set_deciding(deciding);
    feedback_->setEnabled(!deciding);
    comment_field_->setEnabled(!deciding);
    comment_button_->setEnabled(!deciding && !changes_->isChecked());
    edit_comment_->setEnabled(!deciding);
    remove_comment_->setEnabled(!deciding);
}

void PlanView::end_decision() {
    feedback_->put_away();
    clear_comments();
    open_bar_->hide();
    decidable_ = false;
    header_decisions_->hide();
    foot_->hide();
}

QString PlanView::header_text() const {
    return header_->text();
}

void PlanView::set_project_root(const QString& root) {
    root_ = root;
    if (root_.isEmpty()) {
        body_->set_followable(nullptr);
        return;
    }
    body_->set_followable([this](const QUrl& url) {
        return resolve_plan_link(url.toString(), root_).kind != PlanLink::Kind::inert;
    });
}

void PlanView::follow_link(const QUrl& url) {
    const PlanLink link = resolve_plan_link(url.toString(), root_);
    switch (link.kind) {
    case PlanLink::Kind::file:
        emit file_link_activated(link.path, link.line);
        return;
    case PlanLink::Kind::anchor:
        body_->scroll_to_anchor(link.anchor);
        return;
    case PlanLink::Kind::outside:
        emit link_refused(
            tr("%1 is outside the project: a plan opens only the project's files").arg(link.path));
        return;
    case PlanLink::Kind::inert:
        return;
    }
}

void PlanView::approve_by_key(const QString& policy) {
    if (decidable_ && !deciding_) emit approve_requested(policy, false);
}

void PlanView::request_changes() {
    if (!decidable_ || deciding_) return;
    // The first press asks for the note; the next (or Enter in it) sends.
    if (feedback_->isHidden()) return feedback_->open();
    emit reject_requested(feedback_->text().trimmed());
}

void PlanView::set_revision(std::vector<client::MarkedLine> marks) {
    revision_ = std::move(marks);
    changes_->setVisible(!revision_.empty());
    paint_body();
}

void PlanView::paint_body() {
    // A comment quotes the plan as painted, not the marked changes.
    comment_button_->setEnabled(!deciding_ && !changes_->isChecked());
    if (!changes_->isChecked() || revision_.empty()) {
        body_->show_markdown(markdown_ + appendix());
        return;
    }
    auto* painted = new QTextDocument(body_);
    paint_revision(*painted, revision_);
    body_->show_document(painted);
}

bool PlanView::start_comment() {
    // A comment quotes the plan as painted, not the marked changes.
    if (!decidable_ || deciding_ || changes_->isChecked()) return false;
    QString quote = body_->textCursor().selectedText();
    quote.replace(QChar(0x2029), QLatin1Char('\n')).replace(QChar(0x2028), QLatin1Char('\n'));
    if (quote.trimmed().isEmpty()) return false;
    comment_quote_ = quote.trimmed();
    editing_ = -1;
    comment_field_->setPlaceholderText(
        tr("Comment on “%1” — Enter adds, Esc drops").arg(quote_shown(comment_quote_)));
    comment_field_->clear();
    comment_field_->show();
    comment_field_->setFocus(Qt::ShortcutFocusReason);
    return true;
}

bool PlanView::start_edit(int row) {
    if (!decidable_ || deciding_ || row < 0 || row >= static_cast<int>(comments_.size()))
        return false;
    const PlanComment& comment = comments_[static_cast<std::size_t>(row)];
    editing_ = row;
    comment_quote_ = QString::fromStdString(comment.quote);
    comment_field_->setPlaceholderText(
        tr("Comment on “%1” — Enter keeps the change, Esc leaves it as it was")
            .arg(quote_shown(comment_quote_)));
    comment_field_->setText(QString::fromStdString(comment.text));
    comment_field_->selectAll();
    comment_field_->show();
    comment_field_->setFocus(Qt::ShortcutFocusReason);
    return true;
}

void PlanView::add_comment() {
    const QString text = comment_field_->text().trimmed();
    if (text.isEmpty() || comment_quote_.isEmpty()) return;
    if (editing_ >= 0 && editing_ < static_cast<int>(comments_.size())) {
        // Only the words change: the passage, and so its lines, stay.
        const int row = editing_;
        comments_[static_cast<std::size_t>(row)].text = text.toStdString();
        put_comment_away();
        show_comments();
        comment_list_->setCurrentRow(row);
        return;
    }
    PlanComment comment;
    comment.quote = comment_quote_.toStdString();
    comment.text = text.toStdString();
    if (const std::optional<QuoteLines> lines = quote_lines(markdown_, comment_quote_)) {
        comment.line = static_cast<std::uint64_t>(lines->line);
        comment.end_line = static_cast<std::uint64_t>(lines->end_line);
    }
    comments_.push_back(std::move(comment));
    put_comment_away();
    show_comments();
}

void PlanView::put_comment_away() {
    const bool had_focus = comment_field_->hasFocus();
    comment_quote_.clear();
    editing_ = -1;
    comment_field_->clear();
    comment_field_->hide();
    if (had_focus) body_->setFocus(Qt::OtherFocusReason);
}

void PlanView::remove_comment() {
    const int row = comment_list_->currentRow();
    if (row < 0 || row >= static_cast<int>(comments_.size()) || deciding_) return;
    if (editing_ >= 0) put_comment_away(); // the row it held may be another one now
    comments_.erase(comments_.begin() + row);
    show_comments();
}

void PlanView::clear_comments() {
    comments_.clear();
    put_comment_away();
    show_comments();
}

void PlanView::show_comments() {
    comment_list_->clear();
    for (const PlanComment& comment : comments_) {
        QString quote = QString::fromStdString(comment.quote);
        quote.replace(QLatin1Char('\n'), QLatin1Char(' '));
        QString where;
        if (comment.line)
            where = comment.end_line && *comment.end_line != *comment.line
                        ? tr("lines %1–%2: ").arg(*comment.line).arg(*comment.end_line)
                        : tr("line %1: ").arg(*comment.line);
        comment_list_->addItem(
            QStringLiteral("%1“%2”\n%3")
                .arg(where, quote.left(60), QString::fromStdString(comment.text)));
    }
    if (!comments_.empty()) comment_list_->setCurrentRow(static_cast<int>(comments_.size()) - 1);
    drafts_box_->setVisible(!comments_.empty());
    show_side();
}

// Beside the plan each part takes what it needs of the height; under it, the panel grows
// when both threads and new comments are listed.
void PlanView::show_side() {
    side_->setVisible(!comments_.empty() || !threads_.empty());
    if (!comments_beside())
        side_->setFixedHeight(!comments_.empty() && !threads_.empty() ? 2 * side_height
                                                                      : side_height);
}

void PlanView::set_threads(const QString& path, std::vector<ReviewComment> threads) {
    if (path.isEmpty() || path != path_) return;
    threads_ = std::move(threads);
    show_threads();
}

std::size_t PlanView::open_threads() const {
    return static_cast<std::size_t>(
        std::count_if(threads_.begin(), threads_.end(),
                      [](const ReviewComment& c) { return c.is(CommentState::open); }));
}

// Each thread: its id and state, where, the passage and the comment, then its replies. Text
// from the model or the file is shown as plain text, control characters as symbols.
void PlanView::show_threads() {
    const QString selected = selected_thread();
    thread_list_->clear();
    for (const ReviewComment& c : threads_) {
        QString state = QString::fromStdString(c.state.name());
        if (c.detached) state += tr(", passage gone");
        QString where;
        if (c.line)
            where = c.end_line && *c.end_line != *c.line
                        ? tr("lines %1–%2 ").arg(*c.line).arg(*c.end_line)
                        : tr("line %1 ").arg(*c.line);
        QString text = QStringLiteral("%1 · %2 · %3“%4”\n%5")
                           .arg(QString::fromStdString(c.id), state, where,
                                quote_shown(plain_text(c.quote)), plain_text(c.text));
        for (const CommentReply& r : c.replies)
            text += QStringLiteral("\n  %1: %2")
                        .arg(r.author == CommentAuthor::model ? tr("model") : tr("you"),
                             plain_text(r.text));
        auto* item = new QListWidgetItem(text, thread_list_);
        item->setData(Qt::UserRole, QString::fromStdString(c.id));
        if (QString::fromStdString(c.id) == selected) thread_list_->setCurrentItem(item);
    }
    if (!thread_list_->currentItem() && thread_list_->count() > 0) thread_list_->setCurrentRow(0);
    threads_box_->setVisible(!threads_.empty());
    show_side();
}

QString PlanView::selected_thread() const {
    const QListWidgetItem* item = thread_list_->currentItem();
    return item ? item->data(Qt::UserRole).toString() : QString();
}

void PlanView::send_reply() {
    const QString text = reply_field_->text().trimmed();
    const QString id = selected_thread();
    if (text.isEmpty() || id.isEmpty()) return;
    reply_field_->clear();
    emit reply_requested(id, text);
}

void PlanView::ask_to_approve(const QString& policy, bool fresh) {
    const std::size_t open = open_threads();
    asked_policy_ = policy;
    asked_fresh_ = fresh;
    open_label_->setText(open == 1 ? tr("1 comment is still open — approve anyway?")
                                   : tr("%1 comments are still open — approve anyway?").arg(open));
    open_bar_->show();
    approve_anyway_->setFocus(Qt::OtherFocusReason);
}

bool PlanView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == comment_field_ && event->type() == QEvent::KeyPress &&
        static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape) {
        put_comment_away();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

// Comments take 260 pixels beside the plan while the plan keeps some 64 characters a line;
// narrower, they go under it (issue 32 item 5).
void PlanView::arrange_comments() {
    const bool beside = width() - side_width >= body_->fontMetrics().averageCharWidth() * 64;
    if (beside == comments_beside()) return;
    middle_->setDirection(beside ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom);
    if (beside) {
        side_->setMinimumHeight(0);
        side_->setMaximumHeight(QWIDGETSIZE_MAX);
        side_->setFixedWidth(side_width);
    } else {
        side_->setMinimumWidth(0);
        side_->setMaximumWidth(QWIDGETSIZE_MAX);
    }
    show_side();
}

bool PlanView::comments_beside() const {
    return middle_->direction() == QBoxLayout::LeftToRight;
}

void PlanView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    arrange_comments();
}

void PlanView::keyPressEvent(QKeyEvent* event) {
    // The body ignores Esc, so it arrives here wherever the focus is in the view.
    if (!take_escape(event, [this] { emit close_requested(); })) QWidget::keyPressEvent(event);
}

} // namespace rio::gui
