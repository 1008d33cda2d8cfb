#include "gui/first_show.hpp"

#include "gui/core_client.hpp"
#include "gui/main_window.hpp"

#include <QElapsedTimer>
#include <QTimer>

namespace rio::gui {

void show_when_settled(MainWindow& window, int wait_ms) {
    auto* poll = new QTimer(&window);
    // A few milliseconds is below a frame: the window shows in the frame its answers came.
    poll->setInterval(4);
    auto* clock = new QElapsedTimer;
    clock->start();
    QObject::connect(poll, &QTimer::timeout, &window, [&window, poll, clock, wait_ms] {
        const bool answered = window.core().is_connected() && window.settled();
        if (!answered && !window.core().is_lost() && clock->elapsed() < wait_ms) return;
        poll->stop();
        poll->deleteLater();
        delete clock;
        window.show();
    });
    poll->start();
}

} // namespace rio::gui
