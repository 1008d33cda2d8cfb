// Whole-window timings of the desktop editor on a 100k-line file, on the offscreen platform
// against a real rio-core: open to first paint, and a keystroke until the core has taken it
// (buffer.replace answered), at the top and at the end of the file. Medians of several runs,
// without a language server and with clangd attached (ready, the file open in it: each
// keystroke also goes to clangd as a didChange).
#include "gui/code_editor.hpp"
#include "gui/core_client.hpp"
#include "gui/editor_area.hpp"
#include "gui/main_window.hpp"
#include "tests/gui/gui_support.hpp"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

using namespace rio::gui;
using namespace rio::gui::test;
using rio::Json;

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

double elapsed_ms(const QElapsedTimer& clock) {
    return static_cast<double>(clock.nsecsElapsed()) / 1e6;
}

struct Run {
    double open_ms = -1;
    double key_top_ms = -1;
    double key_end_ms = -1;
};

// Median keystroke at `position`, each one until the core has answered it.
double keystrokes(EditorArea& editors, CodeEditor& editor, unsigned long position) {
    editor.SendScintilla(QsciScintillaBase::SCI_GOTOPOS, position);
    std::vector<double> ms;
    for (int i = 0; i < 20; ++i) {
        QElapsedTimer key;
        key.start();
        QTest::keyClick(&editor, Qt::Key_X);
        if (!spin_until([&] { return !editors.busy(); })) return -1;
        ms.push_back(elapsed_ms(key));
    }
    return median(ms);
}

bool clangd_ready(CoreClient& core) {
    Reply listed = call(core, QStringLiteral("lsp.list"), Json::object());
    for (const Json& server : listed.result.value("servers", Json::array()))
        if (server.value("name", "") == "clangd")
            return server.value("state", "") == "ready" && server.value("documents", 0) > 0;
    return false;
}

Run run_once(const QByteArray& text, bool with_server) {
    TempProject project;
    project.write("big.cpp", text);
    // The core's own config folder: clangd on or off, nothing else of the person's.
    QTemporaryDir home;
    const QString config = home.path() + QStringLiteral("/config");
    QDir().mkpath(config + QStringLiteral("/rio"));
    QFile lsp(config + QStringLiteral("/rio/lsp.json"));
    if (!lsp.open(QIODevice::WriteOnly)) return {};
    lsp.write(with_server ? "{}" : R"({"servers": {"clangd": {"disabled": true}}})");
    lsp.close();
    qputenv("XDG_CONFIG_HOME", config.toLocal8Bit());
    CoreClient core;
    MainWindow window(core);
    core.start(private_core(project));
    window.show();
    Run run;
    if (!spin_until([&] { return window.settled(); }, 10000)) return run;
    EditorArea& editors = *window.editors();
    QElapsedTimer clock;
    clock.start();
    window.open_file(QStringLiteral("big.cpp"));
    if (!spin_until([&] { return editors.editor(QStringLiteral("big.cpp")) != nullptr; }))
        return run;
    CodeEditor& editor = *editors.editor(QStringLiteral("big.cpp"));
    editor.repaint(); // lexing and painting the first screen count too
    run.open_ms = elapsed_ms(clock);
    if (with_server && !spin_until([&] { return clangd_ready(core); }, 60000)) return {};
    run.key_top_ms = keystrokes(editors, editor, 0);
    run.key_end_ms = keystrokes(editors, editor, static_cast<unsigned long>(editor.length()));
    return run;
}

} // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    qputenv("RIO_PROVIDER", "echo");
    QApplication app(argc, argv);
    const QByteArray text = large_source(100000);
    for (bool with_server : {false, true}) {
        std::vector<double> open, top, end;
        for (int i = 0; i < 5; ++i) {
            const Run run = run_once(text, with_server);
            if (run.open_ms < 0 || run.key_top_ms < 0 || run.key_end_ms < 0) {
                std::fprintf(stderr, "gui_editor_bench: run %d did not complete\n", i + 1);
                return 1;
            }
            open.push_back(run.open_ms);
            top.push_back(run.key_top_ms);
            end.push_back(run.key_end_ms);
        }
        std::printf("gui editor, 100k-line file (%lld bytes), %s, median of 5 runs:\n"
                    "  open to first paint        %8.1f ms\n"
                    "  keystroke → core, top      %8.2f ms\n"
                    "  keystroke → core, end      %8.2f ms\n",
                    static_cast<long long>(text.size()),
                    with_server ? "clangd attached" : "no language server", median(open),
                    median(top), median(end));
    }
    return 0;
}
