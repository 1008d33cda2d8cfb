// What the gui tests share: a temporary project written byte for byte, the options that
// start the real rio-core for it, and a blocking request for a second client.
#pragma once

#include "protocol/wire.hpp"
#include "gui/core_client.hpp"

#include <QByteArray>
#include <QString>
#include <QTemporaryDir>
#include <QWidget>
#include <functional>
#include <optional>

namespace rio::gui::test {

QString core_binary();

class TempProject {
public:
    TempProject();
    QString path() const;                      // the project folder
    QString name() const;                      // its folder name, what the window title shows
    QString socket_path() const;               // beside the project, not in it
    QString beside(const QString& name) const; // a file beside the project, not in it
    void write(const QString& relative, const QByteArray& bytes) const;
    QByteArray read(const QString& relative) const;

private:
    QTemporaryDir scratch_;
};

// A private core on `project` with the echo provider, also listening on the project's
// socket so a second client can attach.
CoreOptions private_core(const TempProject& project);
// A second client on that socket.
CoreOptions second_client(const TempProject& project);

// A C++-looking file of `lines` lines, for the large-file test and benchmark.
QByteArray large_source(int lines);

// Runs the event loop until `done()` or the timeout, without QTest::qWaitFor's 10 ms sleeps
// between rounds (which would dominate any timing taken around it).
bool spin_until(const std::function<bool()>& done, int timeout_ms = 5000);

// Types text as a keyboard layout or an input method delivers it: key events carrying each
// character, an input method commit for characters beyond the BMP (QTest::keyClicks takes
// Latin-1 only).
void type_text(QWidget* widget, const QString& text);

struct Reply {
    Json result;
    std::optional<Error> error;
};
// Sends a request and runs the event loop until its answer (an io_error reply on timeout).
Reply call(CoreClient& core, const QString& op, Json params, int timeout_ms = 5000);

} // namespace rio::gui::test
