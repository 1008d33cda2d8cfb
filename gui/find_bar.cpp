#include "gui/find_bar.hpp"

#include "gui/escape_key.hpp"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

namespace rio::gui {
namespace {

// Counting every match of "e" in a 100k-line file would cost more than the keystroke.
constexpr int count_cap = 999;

QCheckBox* toggle(const QString& text, QWidget* parent) {
    auto* box = new QCheckBox(text, parent);
    box->setFocusPolicy(Qt::TabFocus);
    return box;
}

QPushButton* button(const QString& text, const QString& tip, QWidget* parent) {
    auto* b = new QPushButton(text, parent);
    b->setAutoDefault(false);
    b->setToolTip(tip);
    b->setFocusPolicy(Qt::TabFocus);
    return b;
}

} // namespace

FindBar::FindBar(QWidget* parent)
    : QWidget(parent), find_field_(new QLineEdit(this)), replace_field_(new QLineEdit(this)),
      regex_(toggle(tr("Regex"), this)), case_(toggle(tr("Match case"), this)),
      word_(toggle(tr("Whole word"), this)), status_(new QLabel(this)),
      replace_row_(new QWidget(this)),
      replace_button_(
          button(tr("Replace"), tr("Replace this match and go to the next (Enter)"), this)),
      replace_all_button_(button(tr("Replace all"), tr("Replace every match"), this)) {
    setObjectName(QStringLiteral("find_bar"));
    setAutoFillBackground(true);
    find_field_->setPlaceholderText(tr("Find"));
    find_field_->setAccessibleName(tr("Find"));
    find_field_->setClearButtonEnabled(true);
    find_field_->installEventFilter(this);
    replace_field_->setPlaceholderText(tr("Replace with"));
    replace_field_->setAccessibleName(tr("Replace with"));
    replace_field_->installEventFilter(this);
    status_->setMinimumWidth(
        status_->fontMetrics().horizontalAdvance(QStringLiteral("999 of 999+")));
    status_->setAccessibleName(tr("Find result"));

    auto* previous =
        button(QStringLiteral("↑"), tr("Previous match (Shift+F3, Shift+Enter)"), this);
    previous->setAccessibleName(tr("Previous match"));
    auto* next = button(QStringLiteral("↓"), tr("Next match (F3, Enter)"), this);
    next->setAccessibleName(tr("Next match"));
    for (QPushButton* arrow : {previous, next}) // an arrow, not a word
        arrow->setFixedWidth(arrow->sizeHint().height() + 8);
    auto* close = new QToolButton(this);
    close->setText(QStringLiteral("×"));
    close->setAutoRaise(true);
    close->setToolTip(tr("Close (Esc)"));
    close->setAccessibleName(tr("Close find"));

    auto* find_row = new QHBoxLayout;
    find_row->setSpacing(6);
    find_row->addWidget(find_field_, 1);
    find_row->addWidget(previous);
    find_row->addWidget(next);
    find_row->addWidget(regex_);
    find_row->addWidget(case_);
    find_row->addWidget(word_);
    find_row->addWidget(status_);
    find_row->addWidget(close);
    auto* replace_row = new QHBoxLayout(replace_row_);
    replace_row->setContentsMargins(0, 0, 0, 0);
    replace_row->setSpacing(6);
    replace_row->addWidget(replace_field_, 1);
    replace_row->addWidget(replace_button_);
    replace_row->addWidget(replace_all_button_);
    auto* rows = new QVBoxLayout(this);
    rows->setContentsMargins(8, 5, 8, 5);
    rows->setSpacing(4);
    rows->addLayout(find_row);
    rows->addWidget(replace_row_);
    replace_row_->hide();
    hide();

    connect(find_field_, &QLineEdit::textEdited, this,
            [this] { run(FindTarget::Step::from_selection_start); });
    for (QAbstractButton* option : {regex_, case_, word_})
        connect(option, &QAbstractButton::toggled, this,
                [this] { run(FindTarget::Step::from_selection_start); });
    connect(previous, &QPushButton::clicked, this, &FindBar::find_previous);
    connect(next, &QPushButton::clicked, this, &FindBar::find_next);
    connect(replace_button_, &QPushButton::clicked, this, &FindBar::replace);
    connect(replace_all_button_, &QPushButton::clicked, this, &FindBar::replace_all);
    connect(close, &QToolButton::clicked, this, &FindBar::close_bar);
}

FindBar::~FindBar() = default;

QAbstractButton* FindBar::regex_toggle() const {
    return regex_;
}
QAbstractButton* FindBar::case_toggle() const {
    return case_;
}
QAbstractButton* FindBar::word_toggle() const {
    return word_;
}

void FindBar::open(std::unique_ptr<FindTarget> target, bool replace) {
    if (!target) return;
    target_ = std::move(target);
    watch(target_->escape_closes_bar() ? target_->widget() : nullptr);
    if (const QString selected = target_->selected_text(); !selected.isEmpty())
        find_field_->setText(selected);
    show_replace_row(replace);
    show();
    find_field_->setFocus(Qt::ShortcutFocusReason);
    find_field_->selectAll();
    run(FindTarget::Step::from_selection_start);
}

void FindBar::retarget(std::unique_ptr<FindTarget> target) {
    if (isHidden()) return;
    if (!target) {
        target_.reset();
        watch(nullptr);
        hide();
        return;
    }
    const bool replace = replace_row_->isVisibleTo(this);
    target_ = std::move(target);
    watch(target_->escape_closes_bar() ? target_->widget() : nullptr);
    show_replace_row(replace);
    status_->clear();
}

void FindBar::show_replace_row(bool replace) {
    const bool editable = target_ && target_->can_replace();
    replace_row_->setVisible(replace && editable);
}

void FindBar::close_bar() {
    hide();
    if (target_ && target_->widget()) target_->widget()->setFocus(Qt::OtherFocusReason);
    target_.reset();
    watch(nullptr);
}

FindOptions FindBar::options() const {
    return FindOptions{find_field_->text(), regex_->isChecked(), case_->isChecked(),
                       word_->isChecked()};
}

QString FindBar::status() const {
    return status_->text();
}

void FindBar::find_next() {
    run(FindTarget::Step::next);
}

void FindBar::find_previous() {
    run(FindTarget::Step::previous);
}

void FindBar::run(FindTarget::Step step) {
    if (!target_) return;
    if (find_field_->text().isEmpty()) {
        status_->clear();
        return;
    }
    show_result(target_->find(options(), step));
}

void FindBar::show_result(Found found) {
    switch (found) {
    case Found::bad_pattern:
        status_->setText(tr("Invalid pattern"));
        return;
    case Found::none:
        status_->setText(tr("No match"));
        return;
    case Found::match:
        break;
    }
    const FindCount counted = target_->count(options(), count_cap);
    const QString total =
        QString::number(counted.total) + (counted.capped ? QStringLiteral("+") : QString());
    status_->setText(counted.current > 0 ? tr("%1 of %2").arg(counted.current).arg(total)
                                         : tr("%1 matches").arg(total));
}

void FindBar::replace() {
    if (!target_ || !target_->can_replace() || find_field_->text().isEmpty()) return;
    show_result(target_->replace(options(), replace_field_->text()));
}

void FindBar::replace_all() {
    if (!target_ || !target_->can_replace() || find_field_->text().isEmpty()) return;
    const int replaced = target_->replace_all(options(), replace_field_->text());
    status_->setText(replaced == 0 ? tr("No match") : tr("Replaced %n", nullptr, replaced));
}

bool FindBar::eventFilter(QObject* watched, QEvent* event) {
    // Esc in the editor being searched closes the bar, as in VS Code.
    if (watched == watched_ && event->type() == QEvent::KeyPress && isVisible() &&
        take_escape(static_cast<QKeyEvent*>(event), [this] { close_bar(); }))
        return true;
    if (event->type() == QEvent::KeyPress &&
        (watched == find_field_ || watched == replace_field_)) {
        auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            if (watched == replace_field_)
                replace();
            else if (key->modifiers() & Qt::ShiftModifier)
                find_previous();
            else
                find_next();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void FindBar::keyPressEvent(QKeyEvent* event) {
    // The fields and buttons leave Esc alone, so it arrives here from any of them.
    if (!take_escape(event, [this] { close_bar(); })) QWidget::keyPressEvent(event);
}

void FindBar::watch(QWidget* view) {
    if (watched_ == view) return;
    if (watched_) watched_->removeEventFilter(this);
    watched_ = view;
    if (watched_) watched_->installEventFilter(this);
}

} // namespace rio::gui
