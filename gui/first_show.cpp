#include "gui/first_show.hpp"

#include "gui/core_client.hpp"
#include "gui/main_window.hpp"

#include <QDeadlineTimer>
#include <QTimer>

namespace rio::gui {

void show_when_settled(MainWindow& window, int wait_ms) {
    auto* poll = new QTimer(&window);
    // A few milliseconds is below a frame: the window shows in the frame its answers came.
    poll->setInterval(4);
    const QDeadlineTimer deadline(wait_ms);
    QObject::connect(poll, &QTimer::timeout, &window, [&window, poll, deadline] {
        const bool answered = window.core().is_connected() && window.settled();
        if (!answered && !window.core().is_lost() && !deadline.hasExpired()) return;
        poll->stop();
        poll->deleteLater();
        window.show();
    });
    poll->start();
}

} // namespace rio::gui
