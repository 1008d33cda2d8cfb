// What the gui tests share: a temporary project written byte for byte, the options that
// start the real rio-core for it, and a blocking request for a second client.
#pragma once

#include "gui/core_client.hpp"
#include "gui/main_window.hpp"
#include "protocol/wire.hpp"

#include <QByteArray>
#include <QString>
#include <QTemporaryDir>
#include <QWidget>
#include <functional>
#include <optional>

namespace rio::gui {
class CodeEditor;
}

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

// A private core on `project` with the echo provider, in build mode, also listening on the
// project's socket so a second client can attach.
CoreOptions private_core(const TempProject& project);
// A second client on that socket.
CoreOptions second_client(const TempProject& project);

// One window on a private core for `project`, shown; suites add what they look at.
struct WindowSession {
    explicit WindowSession(const TempProject& project);
    bool settle();                         // MainWindow::settled(), within 10 s
    CodeEditor* open(const QString& path); // the file's tab once it is open, else null
    // A round trip to the core through the window's own client (round_trip below).
    bool round_trip();

    CoreClient core;
    MainWindow window;
};

// A C++-looking file of `lines` lines, for the large-file test and benchmark.
QByteArray large_source(int lines);
// A Markdown plan of about `bytes` bytes, in sections as a long plan has them: headings,
// paragraphs with inline code, bold and links, numbered and bulleted lists, code blocks,
// a quote and a table now and then. For the plan view's benchmark.
QString large_plan(int bytes);

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

// A barrier, for a test about to check that something did not happen: a round trip to the
// core. session.hello (which changes nothing) is sent through `core` from the back of the
// event loop's queue, so whatever the program had already queued (an edit CodeEditor flushes
// from a zero timer, say) goes out first, and its answer is awaited with QTest::qWaitFor. The
// core answers one client's requests in order, on the one channel that also carries its
// events: by the time the answer is in, every request this client sent before has been
// handled, and every event the core sent it before has been delivered. On a client that lost
// its core the answer is the io_error it gives every request, after the ones queued before.
Reply round_trip(CoreClient& core, int timeout_ms = 5000);

// A barrier for work a widget defers to the event loop rather than to the core: runs the
// loop until a queued call and a zero-interval timer, both started now, have run. Posted
// events and queued calls run in the order they were posted, and timers fire in the order
// they fall due, so by then every posted event, queued call and zero timer from before this
// call has run. False if that did not happen within `timeout_ms`.
bool drain_events(int timeout_ms = 5000);

} // namespace rio::gui::test
