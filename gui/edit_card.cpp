#include "gui/edit_card.hpp"

#include "gui/theme.hpp"
#include "gui/unified_lines.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QTextCursor>
#include <QToolButton>
#include <QVBoxLayout>

namespace rio::gui {
namespace {

// Enough to read a change in place; Compare shows the rest.
constexpr int max_diff_lines = 400;
constexpr int max_visible_lines = 18;

QColor background_of(UnifiedLine::Kind kind, const ThemeColours& colours) {
    switch (kind) {
    case UnifiedLine::Kind::removed:
        return colours.removed;
    case UnifiedLine::Kind::added:
        return colours.added;
    case UnifiedLine::Kind::hunk:
    case UnifiedLine::Kind::more:
        return colours.padding;
    case UnifiedLine::Kind::same:
        break;
    }
    return {};
}

// Each line's background by its kind; `lines` are the view's blocks, in order.
void colour_lines(QPlainTextEdit* view, const std::vector<UnifiedLine>& lines,
                  const ThemeColours& colours) {
    QTextBlock block = view->document()->begin();
    for (const UnifiedLine& line : lines) {
        QTextCursor cursor(block);
        QTextBlockFormat format = block.blockFormat();
        if (const QColor colour = background_of(line.kind, colours); colour.isValid())
            format.setBackground(colour);
        else
            format.clearBackground();
        cursor.setBlockFormat(format);
        block = block.next();
    }
}

QString card_file_name(const std::string& path) {
    return QString::fromStdString(path).section(QLatin1Char('/'), -1);
}

} // namespace

EditCard::EditCard(const EditAppliedEvent& applied, QWidget* parent)
    : QFrame(parent), applied_(applied), toggle_(new CardToggle(QStringLiteral("▸ mmmm…m"))),
      counts_(new QLabel), state_(new QLabel),
      compare_(card_button(tr("Compare"), tr("Show the whole file before and after this change"))),
      undo_button_(card_button(tr("Undo"), QString())), diff_(new CardText(tr("Changes"))) {
    setFrameShape(QFrame::StyledPanel);
    const QString path = QString::fromStdString(applied.path);
    QFont bold = toggle_->font();
    bold.setBold(true);
    toggle_->setFont(bold);
    toggle_->setToolTip(tr("%1 — show or hide the change (Space)").arg(path));
    toggle_->setAccessibleName(tr("Change to %1").arg(path));
    counts_->setTextFormat(Qt::RichText);
    diff_->hide();
    follow_theme(this, [this] { paint(theme_colours()); });

    auto* top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->setSpacing(6);
    top->addWidget(toggle_, 1);
    top->addWidget(counts_);
    top->addWidget(state_);
    top->addWidget(compare_);
    top->addWidget(undo_button_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->setSpacing(4);
    layout->addLayout(top);
    layout->addWidget(diff_);

    connect(toggle_, &QPushButton::toggled, this, &EditCard::set_expanded);
    connect(compare_, &QToolButton::clicked, this, &EditCard::compare_requested);
    connect(undo_button_, &QToolButton::clicked, this, &EditCard::undo_requested);
    show_state();
    // A long name is cut in the middle: its end says what the file is.
    toggle_->set_label(card_file_name(applied_.path), Qt::ElideMiddle);
}

void EditCard::set_undo(Undo undo, const QString& why) {
    undo_ = undo;
    undo_button_->setToolTip(undo == Undo::impossible ? why : QString());
    show_state();
}

void EditCard::show_state() {
    const QString path = QString::fromStdString(applied_.path);
    QString state = applied_.created ? tr("new file") : tr("edited");
    if (undo_ == Undo::done) state = tr("undone");
    state_->setText(state);
    state_->setVisible(state != tr("edited")); // the usual case goes without saying
    undo_button_->setVisible(undo_ != Undo::done);
    undo_button_->setEnabled(undo_ == Undo::possible);
    if (undo_ == Undo::possible)
        undo_button_->setToolTip(applied_.created
                                     ? tr("Delete %1, which this turn created").arg(path)
                                     : tr("Put back %1 as it was before this turn").arg(path));
    QFont font = toggle_->font();
    font.setStrikeOut(undo_ == Undo::done);
    toggle_->setFont(font);
    toggle_->show_label();
}

QString EditCard::summary() const {
    return QStringLiteral("%1 · +%2 −%3 · %4")
        .arg(QString::fromStdString(applied_.path))
        .arg(applied_.added)
        .arg(applied_.removed)
        .arg(state_->text());
}

void EditCard::paint(const ThemeColours& colours) {
    toggle_->paint(colours);
    counts_->setText(QStringLiteral("<span style=\"color:%1\">+%2</span> "
                                    "<span style=\"color:%3\">−%4</span>")
                         .arg(colours.added_text.name())
                         .arg(applied_.added)
                         .arg(colours.error_text.name())
                         .arg(applied_.removed));
    state_->setStyleSheet(QStringLiteral("QLabel { color: %1; }").arg(colours.muted_text.name()));
    if (filled_)
        colour_lines(diff_, unified_lines(QString::fromStdString(applied_.diff), max_diff_lines),
                     colours);
}

void EditCard::set_expanded(bool expanded) {
    if (expanded) fill_diff();
    if (toggle_->isChecked() != expanded) toggle_->setChecked(expanded); // comes back here
    diff_->setVisible(expanded);
}

bool EditCard::expanded() const {
    return toggle_->isChecked();
}

void EditCard::fill_diff() {
    if (filled_) return;
    filled_ = true;
    const std::vector<UnifiedLine> lines =
        unified_lines(QString::fromStdString(applied_.diff), max_diff_lines);
    QStringList text;
    for (const UnifiedLine& line : lines)
        text << line.text;
    diff_->setPlainText(text.join(QLatin1Char('\n')));
    colour_lines(diff_, lines, theme_colours());
    diff_->fit(max_visible_lines);
}

QStringList EditCard::diff_lines() const {
    if (!filled_) return {};
    return diff_->toPlainText().split(QLatin1Char('\n'));
}

} // namespace rio::gui
