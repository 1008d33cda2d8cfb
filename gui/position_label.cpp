#include "gui/position_label.hpp"

#include <QTimer>
#include <algorithm>

namespace rio::gui {
namespace {

// Longer than the label's own paint takes to reach the X server, shorter than the time
// between two keys of a fast typist.
constexpr int idle_ms = 20;

} // namespace

PositionLabel::PositionLabel(QWidget* parent) : QLabel(parent), idle_(new QTimer(this)) {
    setTextFormat(Qt::PlainText);
    idle_->setSingleShot(true);
    idle_->setInterval(idle_ms);
    connect(idle_, &QTimer::timeout, this, &PositionLabel::confirm_frame);
}

void PositionLabel::show_position(int line, int index) {
    setText(tr("Ln %1, Col %2").arg(line + 1).arg(index + 1));
    hold_size();
    idle_->start();
}

void PositionLabel::forget() {
    setText(QString());
    idle_->stop();
}

void PositionLabel::hold_size() {
    const QSize wanted = sizeHint();
    if (minimumSize() == maximumSize() && wanted.width() <= width() && wanted.height() == height())
        return;
    setFixedSize(std::max(wanted.width(), minimumWidth()), wanted.height());
}

// Qt's X11 backing store hands painted pixels to the X server in shared memory, and before it
// paints over pixels it handed over it waits for the server to have read them: a round trip
// (~0.3 ms, three context switches) that sat between every typed letter and its pixels, as
// each letter repaints the line of the one before. One pixel of this label, painted after
// every caret move and never by the editor, repainted while idle makes the backing store take
// that wait now; the next letter's line then has none to take. Elsewhere a 1-pixel repaint.
void PositionLabel::confirm_frame() {
    repaint(0, 0, 1, 1);
}

} // namespace rio::gui
