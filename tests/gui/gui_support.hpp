// What the gui tests share: a temporary project written byte for byte, the options that
// start the real rio-core for it, and a blocking request for a second client.
#pragma once

#include "gui/core_client.hpp"
#include "gui/main_window.hpp"
#include "protocol/wire.hpp"

#include <QByteArray>
#include <QPoint>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QWidget>
#include <functional>
#include <optional>

class QModelIndex;

namespace rio::gui {
class CodeEditor;
class FileTreeModel;
class MarkdownView;
} // namespace rio::gui

namespace rio::gui::test {

QString core_binary();
// The names the file tree shows under `parent` (the root: an invalid index), in order.
QStringList child_names(const FileTreeModel& model, const QModelIndex& parent);

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

// Writes CONFIG_HOME/rio/lsp.json so that the cores started with XDG_CONFIG_HOME=CONFIG_HOME
// run only the built-in language servers named in `enabled` (clangd, pylsp, typescript,
// rust-analyzer, gopls): a test about something else would otherwise start pylsp for the
// demo's greet.py. The suites' shared folder gets one with none (tests/gui/CMakeLists.txt).
bool language_servers(const QString& config_home, const QStringList& enabled = {});

// A private core on `project` with the echo provider, in build mode, also listening on the
// project's socket so a second client can attach.
CoreOptions private_core(const TempProject& project);
// A second client on that socket.
CoreOptions second_client(const TempProject& project);

// One window on a private core for `project`, shown; suites add what they look at.
struct WindowSession {
    explicit WindowSession(const TempProject& project);
    bool settle(); // MainWindow::settled(), within 10 s
    // Makes the window the active one, as it is for a person at it: the menus' shortcuts
    // are the window's and reach it only then.
    bool activate();
    // The core's watch has made its first pass over the project (project.info says so):
    // what another program changes from now on is reported.
    bool watching();
    // A key as a person presses it: to whatever has the focus.
    void press(int key, Qt::KeyboardModifiers modifiers = Qt::NoModifier);
    CodeEditor* open(const QString& path);        // the file's tab once it is open, else null
    QString tab_title(const QString& path) const; // "notes.txt •" while it has unsaved changes
    // A round trip to the core through the window's own client (round_trip below).
    bool round_trip();

    CoreClient core;
    MainWindow window;
};

// A point on the link to `href` in the view's viewport, scrolled into sight first; nothing
// when the page has no such link.
std::optional<QPoint> link_point(MarkdownView& view, const QString& href);
// The mouse moved to `at` over `widget`, no button held.
void hover(QWidget* widget, QPoint at);

// The item of the window's menu `menu` (as the menu bar spells it, "&File") with `text`.
QAction* menu_action(MainWindow& window, const QString& menu, const QString& text);

// A second client on the same core, to read what it holds and to edit as someone else would.
struct Observer {
    explicit Observer(const TempProject& project);
    bool ready();                          // connected, within 5 s
    Json buffer(const QString& path);      // buffer.text's result, null on an error
    std::string text(const QString& path); // the buffer's text, "<error>" on an error

    CoreClient core;
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

// Presses the button labelled `button` in the next box rio asks a question with, once it is
// up (it runs its own event loop, so the answer has to come from inside that loop).
void answer_next_box(const QString& button);

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
// Trusts the open project as project.trust.get shows it now (what a person answering the
// trust bar would be shown).
Reply trust_project(CoreClient& core);

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
