// The desktop on a far core (DESIGN §22), one run: the window connects to ADDRESS
// (ssh://…, with RIO_SSH and RIO_REMOTE_CORE set by bench/remote_latency_bench.py, which
// puts a delaying proxy between ssh and sshd), opens FILE, and times 20 keystrokes twice:
// until the editor shows the key (the typing path, which must not wait on the core) and
// until the far core has answered it (buffer.replace); then one plan turn, from Enter in
// the composer until the plan is shown for review. Prints one JSON line of milliseconds.
//
//   rio_gui_remote_bench ADDRESS PROVIDER FILE
#include "gui/approval_bar.hpp"
#include "gui/chat_dock.hpp"
#include "gui/code_editor.hpp"
#include "gui/composer.hpp"
#include "gui/core_client.hpp"
#include "gui/editor_area.hpp"
#include "gui/main_window.hpp"
#include "gui/review_flow.hpp"
#include "tests/gui/gui_support.hpp"

#include <QApplication>
#include <QElapsedTimer>
#include <QPlainTextEdit>
#include <QTest>
#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

using namespace rio::gui;
using namespace rio::gui::test;

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

double elapsed_ms(const QElapsedTimer& clock) {
    return static_cast<double>(clock.nsecsElapsed()) / 1e6;
}

int fail(const char* what) {
    std::fprintf(stderr, "gui_remote_bench: %s\n", what);
    return 1;
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 4) return fail("usage: rio_gui_remote_bench ADDRESS PROVIDER FILE");
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    CoreClient core;
    MainWindow window(core);
    CoreOptions options;
    options.connect = QString::fromLocal8Bit(argv[1]);
    options.provider = QString::fromLocal8Bit(argv[2]);
    options.mode = QStringLiteral("plan");
    QElapsedTimer clock;
    clock.start();
    core.start(options);
    window.show();
    if (!spin_until([&] { return window.settled(); }, 30000)) return fail("no connection");
    const double connect_ms = elapsed_ms(clock);

    const QString file = QString::fromLocal8Bit(argv[3]);
    EditorArea& editors = *window.editors();
    window.open_file(file);
    if (!spin_until([&] { return editors.editor(file) != nullptr && !editors.busy(); }))
        return fail("the file did not open");
    CodeEditor& editor = *editors.editor(file);
    std::vector<double> shown, answered;
    for (int i = 0; i < 20; ++i) {
        QElapsedTimer key;
        key.start();
        QTest::keyClick(&editor, Qt::Key_X);
        editor.repaint();
        shown.push_back(elapsed_ms(key));
        if (!spin_until([&] { return !editors.busy(); })) return fail("a key was not answered");
        answered.push_back(elapsed_ms(key));
    }

    ApprovalBar& bar = *window.chat()->review()->bar();
    Composer& composer = *window.chat()->composer();
    composer.input()->setFocus();
    composer.set_text(QStringLiteral("make it friendlier"));
    QElapsedTimer turn;
    turn.start();
    QTest::keyClick(composer.input(), Qt::Key_Return);
    if (!spin_until([&] { return bar.showing(); }, 30000)) return fail("no plan was shown");
    const double plan_ms = elapsed_ms(turn);

    std::printf("{\"connect_ms\": %.2f, \"key_shown_ms\": %.3f, \"key_answered_ms\": %.2f, "
                "\"plan_turn_ms\": %.2f}\n",
                connect_ms, median(shown), median(answered), plan_ms);
    return 0;
}
