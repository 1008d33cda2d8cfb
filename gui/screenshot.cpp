#include "gui/screenshot.hpp"

#include "gui/core_client.hpp"
#include "gui/main_window.hpp"

#include <QElapsedTimer>
#include <QPixmap>
#include <QTimer>
#include <memory>

namespace rio::gui {
namespace {

struct Wait {
    QString file;
    int timeout_ms = 0;
    std::function<void(bool, const QString&)> done;
    QElapsedTimer clock;
    int calm = 0; // polls in a row that found the window settled
    bool over = false;
};

} // namespace

void screenshot_when_settled(MainWindow& window, const QString& file, int timeout_ms,
                             std::function<void(bool ok, const QString& why)> done) {
    auto wait = std::make_shared<Wait>();
    wait->file = file;
    wait->timeout_ms = timeout_ms;
    wait->done = std::move(done);
    wait->clock.start();
    auto* poll = new QTimer(&window);
    poll->setInterval(20);

    auto finish = [wait, poll](bool ok, const QString& why) {
        if (wait->over) return;
        wait->over = true;
        poll->stop();
        poll->deleteLater();
        wait->done(ok, why);
    };
    QObject::connect(&window.core(), &CoreClient::disconnected, poll,
                     [finish](const QString& why) { finish(false, why); });
    QObject::connect(poll, &QTimer::timeout, poll, [&window, wait, finish] {
        if (window.core().is_lost()) return finish(false, window.core().lost_reason());
        wait->calm = window.settled() ? wait->calm + 1 : 0;
        if (wait->calm >= 2) {
            const QPixmap picture = window.grab();
            if (picture.isNull() || !picture.save(wait->file, "PNG"))
                return finish(false, "cannot write " + wait->file);
            return finish(true, {});
        }
        if (wait->clock.elapsed() > wait->timeout_ms)
            finish(false, QStringLiteral("the window did not settle in time"));
    });
    poll->start();
}

} // namespace rio::gui
