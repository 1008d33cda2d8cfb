#include "gui/command_card.hpp"

#include "client/trace_words.hpp"
#include "gui/editor_style.hpp"
#include "gui/theme.hpp"
#include "text/command_output.hpp"

#include <QApplication>
#include <QClipboard>
#include <QEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace rio::gui {
namespace {

// Lines shown before the output scrolls in its own view.
constexpr int max_output_lines = 16;

// The output as read-only text; a wheel turn it has no use for scrolls the chat instead.
class OutputView : public QPlainTextEdit {
public:
    OutputView() {
        setReadOnly(true);
        setLineWrapMode(QPlainTextEdit::NoWrap);
        setFrameShape(QFrame::NoFrame);
        setFont(editor_font());
        setAccessibleName(QObject::tr("Command output"));
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
        setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    }
    int line_height() const { return fontMetrics().lineSpacing(); }

protected:
    void wheelEvent(QWheelEvent* event) override {
        if (verticalScrollBar()->maximum() == 0) return event->ignore();
        QPlainTextEdit::wheelEvent(event);
    }
};

QToolButton* small_button(const QString& text, const QString& tip) {
    auto* button = new QToolButton;
    button->setText(text);
    button->setToolTip(tip);
    button->setAutoRaise(true);
    button->setToolButtonStyle(Qt::ToolButtonTextOnly);
    button->setFocusPolicy(Qt::StrongFocus);
    button->setCursor(Qt::PointingHandCursor);
    return button;
}

} // namespace

CommandCard::CommandCard(const ToolEvent& call, const ToolResultEvent& result, QWidget* parent)
    : QFrame(parent), toggle_(new QPushButton), outcome_label_(new QLabel),
      copy_(small_button(tr("Copy"), tr("Copy what the command printed"))), where_(new QLabel),
      view_(new OutputView) {
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

    toggle_->setCheckable(true);
    toggle_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    toggle_->setMinimumWidth(toggle_->fontMetrics().horizontalAdvance(QStringLiteral("▸ $ mm…m")));
    toggle_->setFont(editor_font());
    toggle_->setFlat(true);
    toggle_->setAutoDefault(false);
    toggle_->setToolTip(tr("%1 — show or hide what it printed (Space)").arg(line_));
    toggle_->setAccessibleName(tr("Command %1").arg(line_));
    toggle_->setFocusPolicy(Qt::StrongFocus);
    toggle_->setCursor(Qt::PointingHandCursor);
    toggle_->installEventFilter(this);
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
    show_line();
}

void CommandCard::paint() {
    const ThemeColours colours = theme_colours();
    toggle_->setStyleSheet(
        QStringLiteral("QPushButton { border: none; text-align: left; padding: 2px 4px; }"
                       "QPushButton:focus { background: %1; border-radius: 3px; }")
            .arg(colours.user_background.name()));
    outcome_label_->setStyleSheet(
        QStringLiteral("QLabel { color: %1; }")
            .arg((failed_ ? colours.error_text : colours.muted_text).name()));
    where_->setStyleSheet(QStringLiteral("QLabel { color: %1; }").arg(colours.muted_text.name()));
}

void CommandCard::show_line() {
    const QString arrow = expanded() ? QStringLiteral("▾ ") : QStringLiteral("▸ ");
    const QFontMetrics metrics(toggle_->font());
    const int room = toggle_->width() - metrics.horizontalAdvance(arrow) - 12;
    // The program and its first arguments are what a person reads the line for.
    toggle_->setText(arrow + metrics.elidedText(line_, Qt::ElideRight, room));
}

QString CommandCard::summary() const {
    return line_ + QStringLiteral(" · ") + outcome_;
}

void CommandCard::set_expanded(bool expanded) {
    if (expanded) fill();
    if (toggle_->isChecked() != expanded) toggle_->setChecked(expanded); // comes back here
    show_line();
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
    const int lines = std::max(1, static_cast<int>(view_->document()->blockCount()));
    const int visible = std::min(lines, max_output_lines);
    if (lines <= max_output_lines) view_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    const int margins = static_cast<int>(std::ceil(2 * view_->document()->documentMargin())) +
                        2 * view_->frameWidth() + view_->horizontalScrollBar()->sizeHint().height();
    view_->setFixedHeight(visible * static_cast<OutputView*>(view_)->line_height() + margins + 2);
    // The end first: where a failing command says why.
    view_->moveCursor(QTextCursor::End);
    view_->ensureCursorVisible();
}

bool CommandCard::eventFilter(QObject* watched, QEvent* event) {
    if (watched == toggle_ && event->type() == QEvent::Resize) show_line();
    if (watched == toggle_ && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if (key == Qt::Key_Return || key == Qt::Key_Enter) {
            toggle_->toggle();
            return true;
        }
    }
    return QFrame::eventFilter(watched, event);
}

} // namespace rio::gui
