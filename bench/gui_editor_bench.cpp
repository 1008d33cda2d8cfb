// Whole-window timings of the desktop editor on a 100k-line file, on the offscreen platform
// against a real rio-core: open to first paint, and a keystroke until the core has taken it
// (buffer.replace answered), at the top and at the end of the file. Medians of several runs,
// without a language server and with clangd attached: ready, the file open in it, its first
// diagnostics published and clangd idle again (its own work after a parse, such as indexing
// the file, is not the editor's), then once more at the end of the file while clangd parses
// what was typed (sent at once by a request, as a pause in typing would send it).
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
    double key_parsing_ms = 0; // with a server: at the end while it parses
};

// The CPU time (user + system, in clock ticks) of the core's child named clangd…, or -1.
long long clangd_cpu(qint64 core) {
    const QDir proc(QStringLiteral("/proc"));
    for (const QString& pid : proc.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile file(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!file.open(QIODevice::ReadOnly)) continue;
        const QByteArray stat = file.readAll();
        const qsizetype open = stat.indexOf('('), close = stat.lastIndexOf(')');
        if (open < 0 || close < 0 || !stat.mid(open + 1, close - open - 1).startsWith("clangd"))
            continue;
        // After ")": state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime
        // stime
        const QList<QByteArray> fields = stat.mid(close + 2).split(' ');
        if (fields.size() > 12 && fields[1].toLongLong() == core)
            return fields[11].toLongLong() + fields[12].toLongLong();
    }
    return -1;
}

// Until clangd used no CPU for half a second (at most a minute).
bool clangd_idle(qint64 core) {
    QElapsedTimer clock;
    clock.start();
    long long before = clangd_cpu(core);
    while (clock.elapsed() < 60000) {
        QElapsedTimer pause;
        pause.start();
        spin_until([&] { return pause.elapsed() >= 500; }, 1000);
        const long long now = clangd_cpu(core);
        if (now < 0) return false;
        if (now == before) return true;
        before = now;
    }
    return false;
}

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
    // clangd may take longer than the usual 10 s wait to report on 5.4 MB.
    lsp.write(with_server ? R"({"servers": {"clangd": {"diagnostics_wait_s": 300}}})"
                          : R"({"servers": {"clangd": {"disabled": true}}})");
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
    if (with_server &&
        (call(core, QStringLiteral("lsp.diagnostics"), Json{{"path", "big.cpp"}}, 300000).error ||
         !clangd_idle(core.core_pid())))
        return {};
    run.key_top_ms = keystrokes(editors, editor, 0);
    run.key_end_ms = keystrokes(editors, editor, static_cast<unsigned long>(editor.length()));
    if (with_server) {
        if (!clangd_idle(core.core_pid())) return {};
        // A key, and a request, which sends it at once: clangd parses the file again while
        // the keys after it are timed (the answer is not awaited: it waits for the parse).
        editor.SendScintilla(QsciScintillaBase::SCI_GOTOPOS,
                             static_cast<unsigned long>(editor.length()));
        QTest::keyClick(&editor, Qt::Key_X);
        if (!spin_until([&] { return !editors.busy(); })) return {};
        core.request("lsp.hover", Json{{"path", "big.cpp"}, {"line", 1}, {"column", 4}});
        run.key_parsing_ms =
            keystrokes(editors, editor, static_cast<unsigned long>(editor.length()));
    }
    return run;
}

} // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    qputenv("RIO_PROVIDER", "echo");
    QApplication app(argc, argv);
    const QByteArray text = large_source(100000);
    for (bool with_server : {false, true}) {
        std::vector<double> open, top, end, parsing;
        for (int i = 0; i < 5; ++i) {
            const Run run = run_once(text, with_server);
            if (run.open_ms < 0 || run.key_top_ms < 0 || run.key_end_ms < 0) {
                std::fprintf(stderr, "gui_editor_bench: run %d did not complete\n", i + 1);
                return 1;
            }
            open.push_back(run.open_ms);
            top.push_back(run.key_top_ms);
            end.push_back(run.key_end_ms);
            parsing.push_back(run.key_parsing_ms);
        }
        std::printf("gui editor, 100k-line file (%lld bytes), %s, median of 5 runs:\n"
                    "  open to first paint        %8.1f ms\n"
                    "  keystroke → core, top      %8.2f ms\n"
                    "  keystroke → core, end      %8.2f ms\n",
                    static_cast<long long>(text.size()),
                    with_server ? "clangd attached" : "no language server", median(open),
                    median(top), median(end));
        if (with_server)
            std::printf("  keystroke → core, end, while clangd parses %8.2f ms\n", median(parsing));
    }
    return 0;
}
