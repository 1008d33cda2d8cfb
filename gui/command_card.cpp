#include "gui/command_card.hpp"

#include "client/trace_words.hpp"
#include "gui/card_parts.hpp"
#include "gui/editor_style.hpp"
#include "gui/theme.hpp"
#include "text/command_output.hpp"

#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QToolButton>
#include <QVBoxLayout>

namespace rio::gui {
namespace {

// Lines shown before the output scrolls in its own view.
constexpr int max_output_lines = 16;

} // namespace

CommandCard::CommandCard(const ToolEvent& call, const ToolResultEvent& result, QWidget* parent)
    : QFrame(parent), toggle_(new CardToggle(QStringLiteral("▸ $ mm…m"))),
      outcome_label_(new QLabel),
      copy_(card_button(tr("Copy"), tr("Copy what the command printed"))), where_(new QLabel),
      view_(new CardText(tr("Command output"))) {
    setFrameShape(QFrame::StyledPanel);
    const Json argv = call.input.is_object() ? call.input.value("argv", Json::array()) : Json();
    line_ = QStringLiteral("$ ") + QString::fromStdString(client::argv_text(argv));
    // One row: a program given as an argument (python3 -c '…') keeps its line breaks as ↵.
    line_.replace(QLatin1Char('\n'), QStringLiteral(" ↵ "));
    if (call.input.is_object())
        cwd_ = QString::fromStdString(call.input.value("cwd", std::string()));
    if (cwd_ == QStringLiteral(".")) cwd_.clear();
    const client::ToolOutcome outcome = client::tool_outcome(result);
    failed_ = outcome.failed;
    outcome_ = (failed_ ? QStringLiteral("✗ ") : QStringLiteral("✓ ")) +
               QString::fromStdString(outcome.text);
    output_ = QString::fromStdString(plain_output(result.output.value_or(std::string())));

    toggle_->setFont(editor_font());
    toggle_->setToolTip(tr("%1 — show or hide what it printed (Space)").arg(line_));
    toggle_->setAccessibleName(tr("Command %1").arg(line_));
    outcome_label_->setText(outcome_);
    copy_->setEnabled(!output_.isEmpty());
    where_->setText(cwd_.isEmpty() ? tr("in the project's folder") : tr("in %1").arg(cwd_));
    where_->hide();
    view_->hide();
    follow_theme(this, [this] { paint(); });

    // The command has its row, the outcome the next (issue 46): beside it, a long outcome
    // ("✓ exit code 0 · 0.2 s · sandboxed: workspace-write, no network") left the command
    // "$ …-v" and held the whole chat wider than its column.
    outcome_label_->setWordWrap(true);
    outcome_label_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto* top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->setSpacing(6);
    top->addWidget(toggle_, 1);
    top->addWidget(copy_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->setSpacing(4);
    layout->addLayout(top);
    layout->addWidget(outcome_label_);
    layout->addWidget(where_);
    layout->addWidget(view_);

    connect(toggle_, &QPushButton::toggled, this, [this](bool open) {
        set_expanded(open);
        if (open) emit unfolded();
    });
    connect(copy_, &QToolButton::clicked, this,
            [this] { QApplication::clipboard()->setText(output_); });
    // The end in view however the view is laid out (it is sized when it is first shown).
    connect(view_->verticalScrollBar(), &QScrollBar::rangeChanged, this,
            [this](int, int max) { view_->verticalScrollBar()->setValue(max); });
    // The program and its first arguments are what a person reads the line for.
    toggle_->set_label(line_, Qt::ElideRight);
}

void CommandCard::paint() {
    const ThemeColours colours = theme_colours();
    toggle_->paint(colours);
    outcome_label_->setStyleSheet(
        QStringLiteral("QLabel { color: %1; }")
            .arg((failed_ ? colours.error_text : colours.muted_text).name()));
    where_->setStyleSheet(QStringLiteral("QLabel { color: %1; }").arg(colours.muted_text.name()));
}

QString CommandCard::summary() const {
    return line_ + QStringLiteral(" · ") + outcome_;
}

void CommandCard::set_expanded(bool expanded) {
    if (expanded) fill();
    if (toggle_->isChecked() != expanded) toggle_->setChecked(expanded); // comes back here
    where_->setVisible(expanded);
    view_->setVisible(expanded && !output_.isEmpty());
}

bool CommandCard::expanded() const {
    return toggle_->isChecked();
}

void CommandCard::fill() {
    if (filled_) return;
    filled_ = true;
    QString text = output_;
    if (text.endsWith(QLatin1Char('\n'))) text.chop(1);
    view_->setPlainText(text);
    view_->fit(max_output_lines);
    // The end first: where a failing command says why.
    view_->moveCursor(QTextCursor::End);
    view_->ensureCursorVisible();
}

} // namespace rio::gui
