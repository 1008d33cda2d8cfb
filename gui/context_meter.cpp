#include "gui/context_meter.hpp"

#include "client/trace_words.hpp"

#include <QHBoxLayout>
#include <QProgressBar>
#include <QToolButton>

namespace rio::gui {

ContextMeter::ContextMeter(QWidget* parent)
    : QWidget(parent), bar_(new QProgressBar), compact_(new QToolButton) {
    bar_->setRange(0, 100);
    bar_->setTextVisible(true);
    // Its number and a little bar either side: the model's name beside it needs the room.
    bar_->setFixedWidth(fontMetrics().horizontalAdvance(QStringLiteral("≈100%")) * 3 / 2);
    bar_->setMaximumHeight(fontMetrics().height());
    bar_->setAccessibleName(tr("Context used"));
    compact_->setText(tr("Compact"));
    compact_->setAutoRaise(true);
    compact_->setToolTip(tr("Make the conversation smaller: old tool outputs are cleared and "
                            "older turns summarized"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(bar_);
    layout->addWidget(compact_);
    connect(compact_, &QToolButton::clicked, this, &ContextMeter::compact_requested);
    setVisible(false);
}

void ContextMeter::show_context(const std::optional<ContextInfo>& context, bool busy) {
    setVisible(context.has_value() && context->window > 0);
    compact_->setEnabled(!busy);
    if (!context) return;
    const int percent = client::context_percent(*context);
    bar_->setValue(percent);
    bar_->setFormat((context->estimated ? QStringLiteral("≈") : QString()) +
                    QString::number(percent) + QStringLiteral("%"));
    const QString tip =
        tr("Context: %1%2")
            .arg(QString::fromStdString(client::context_text(*context)))
            .arg(context->estimated ? tr(" — rio's estimate; no count from the provider yet")
                                    : QString());
    bar_->setToolTip(tip);
    setToolTip(tip);
}

QString ContextMeter::text() const {
    return bar_->format().replace(QStringLiteral("%p"), QString::number(bar_->value()));
}

QString ContextMeter::figures() const {
    return bar_->toolTip();
}

} // namespace rio::gui
