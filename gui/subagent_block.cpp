#include "gui/subagent_block.hpp"

#include "client/trace_words.hpp"

#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

namespace rio::gui {

SubagentBlock::SubagentBlock(const SubagentEvent& first)
    : toggle_(new QToolButton), trace_(new QLabel),
      task_(QString::fromStdString(first.task.empty() ? first.agent : first.task)) {
    toggle_->setAutoRaise(true);
    toggle_->setCheckable(true);
    toggle_->setToolButtonStyle(Qt::ToolButtonTextOnly);
    toggle_->setToolTip(tr("Show or hide what this subagent did"));
    toggle_->setStyleSheet(QStringLiteral("QToolButton { color: palette(mid); border: none; "
                                          "text-align: left; padding: 0; }"));
    trace_->setTextFormat(Qt::PlainText);
    trace_->setWordWrap(true);
    trace_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    trace_->setStyleSheet(QStringLiteral("QLabel { color: palette(mid); padding-left: 14px; }"));
    trace_->hide();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 0, 0, 0); // under its task line
    layout->setSpacing(2);
    layout->addWidget(toggle_, 0, Qt::AlignLeft);
    layout->addWidget(trace_);
    connect(toggle_, &QToolButton::toggled, this, [this](bool open) {
        trace_->setVisible(open);
        update_header();
    });
    add(first);
}

void SubagentBlock::add(const SubagentEvent& event) {
    if (event.state == SubagentState::tool) ++steps_;
    if (event.state == SubagentState::started)
        state_ = tr("working");
    else if (event.state == SubagentState::done)
        state_ = tr("answered");
    else if (event.state == SubagentState::failed)
        state_ = tr("failed");
    else if (event.state == SubagentState::stopped)
        state_ = tr("stopped");
    if (std::string line = client::subagent_text(event); !line.empty())
        lines_ << QString::fromStdString(line);
    trace_->setText(lines_.join(QLatin1Char('\n')));
    update_header();
}

void SubagentBlock::update_header() {
    const QString arrow = toggle_->isChecked() ? QStringLiteral("▾ ") : QStringLiteral("▸ ");
    const QString steps = steps_ == 1 ? tr("1 step") : tr("%1 steps").arg(steps_);
    toggle_->setText(arrow + tr("Subagent \"%1\" · %2 · %3").arg(task_, steps, state_));
}

QString SubagentBlock::text() const {
    QString header = toggle_->text().mid(2);
    return lines_.isEmpty() ? header : header + QLatin1Char('\n') + lines_.join(QLatin1Char('\n'));
}

bool SubagentBlock::open() const {
    return toggle_->isChecked();
}

} // namespace rio::gui
