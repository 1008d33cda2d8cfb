#include "gui/working_indicator.hpp"

#include <QPainter>
#include <QStyle>
#include <QTimer>

namespace rio::gui {

WorkingIndicator::WorkingIndicator(QWidget* parent)
    : QLabel(parent), timer_(new QTimer(this)),
      clock_([] { return std::chrono::steady_clock::now(); }) {
    setObjectName(QStringLiteral("activity"));
    setStyleSheet(QStringLiteral("QLabel { color: palette(mid); }"));
    setTextFormat(Qt::PlainText);
    setAccessibleName(tr("What the agent is doing"));
    timer_->setInterval(1000);
    connect(timer_, &QTimer::timeout, this, &WorkingIndicator::tick);
}

void WorkingIndicator::follow(const client::CoreEvent& event, bool busy) {
    activity_.apply(event);
    if (busy && !running_) {
        running_ = true;
        began_ = clock_();
        timer_->start();
    } else if (!busy && running_) {
        running_ = false;
        timer_->stop();
    }
    tick();
}

void WorkingIndicator::set_offline(bool offline) {
    offline_ = offline;
    tick();
}

QString WorkingIndicator::activity() const {
    if (!running_) return {};
    QString words = QString::fromStdString(activity_.words());
    if (words.isEmpty()) words = tr("working");
    words[0] = words[0].toUpper();
    return words;
}

QString WorkingIndicator::elapsed() const {
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(clock_() - began_);
    return QString::fromStdString(client::elapsed_text(seconds));
}

QSize WorkingIndicator::minimumSizeHint() const {
    return {fontMetrics().averageCharWidth() * 6, QLabel::minimumSizeHint().height()};
}

void WorkingIndicator::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    const QRect room = contentsRect();
    const QString shown = fontMetrics().elidedText(text(), Qt::ElideMiddle, room.width());
    style()->drawItemText(&painter, room, static_cast<int>(alignment()), palette(), isEnabled(),
                          shown, foregroundRole());
}

void WorkingIndicator::tick() {
    if (offline_)
        setText(tr("Not connected to rio-core"));
    else if (running_)
        setText(QStringLiteral("%1 · %2").arg(activity(), elapsed()));
    else
        setText(QString()); // unlike clear(), no relayout when it was empty already
    setToolTip(text());     // whole, where the line is cut
}

} // namespace rio::gui
