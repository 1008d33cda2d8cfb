// `make screenshots`: the pictures in docs/screenshots/, rendered on the offscreen platform
// from a copy of examples/demo with the script provider playing the model, so they show
// what rio really draws and can be made again after any change to it.
//
//   rio_screenshots OUTDIR
//
// main-window.png  a file open, the chat after a short exchange
// manual.png       the manual (F1)
// plan-view.png    the demo's plan in the centre, its approval bar in the chat
// compare-view.png the demo's first edit, side by side
#include "gui/approval_bar.hpp"
#include "gui/centre_area.hpp"
#include "gui/chat_dock.hpp"
#include "gui/chat_transcript.hpp"
#include "gui/compare_view.hpp"
#include "gui/composer.hpp"
#include "gui/core_client.hpp"
#include "gui/editor_area.hpp"
#include "gui/main_window.hpp"
#include "gui/plan_view.hpp"
#include "gui/review_flow.hpp"
#include "gui/screenshot.hpp"
#include "tests/gui/gui_support.hpp"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QStatusBar>
#include <cstdio>
#include <memory>

using namespace rio;
using namespace rio::gui;
using namespace rio::gui::test;

namespace {

constexpr int wait_ms = 15000;

const QString demo_dir = QStringLiteral(RIO_SOURCE_DIR "/examples/demo");
const QString demo_script = QStringLiteral(RIO_SOURCE_DIR "/examples/demo.script.json");

// The model's side of the main window's exchange.
const char* const question_script = R"({"steps": [
  {"text": "I'll read it first.", "tools": [{"name": "read_file", "input": {"path": "greet.py"}}]},
  {"text": "`greet.py` prints a greeting for the name given on the command line:\n\n- `greeting(name)` builds the text, `Hello, <name>!`\n- `main(argv)` takes the first argument, or `world` when there is none\n\n`test_greet.py` checks `greeting` with **unittest**."}
]})";

bool fail(const QString& what) {
    std::fprintf(stderr, "rio_screenshots: %s\n", qPrintable(what));
    return false;
}

bool copy_demo(const TempProject& project) {
    const QDir demo(demo_dir);
    const QStringList names = demo.entryList(QDir::Files);
    if (names.isEmpty()) return fail("no files in " + demo_dir);
    for (const QString& name : names) {
        QFile file(demo.filePath(name));
        if (!file.open(QIODevice::ReadOnly)) return fail("cannot read " + file.fileName());
        project.write(name, file.readAll());
    }
    return true;
}

// A window on a private core whose model plays `script`, at the size the docs show.
struct Scene {
    Scene(const TempProject& project, const QString& script) : window(core) {
        CoreOptions options = private_core(project);
        options.provider = QStringLiteral("script:") + script;
        core.start(options);
        window.resize(1440, 900);
        window.show();
    }

    bool wait(const std::function<bool()>& done, const char* what) {
        return spin_until(done, wait_ms) || fail(QStringLiteral("timed out waiting for ") + what);
    }
    // Saves the window once it has settled, without the passing status message (it names
    // the temporary folder the demo was copied to).
    bool save(const QString& file) {
        window.statusBar()->clearMessage();
        auto result = std::make_shared<std::optional<QString>>();
        screenshot_when_settled(window, file, wait_ms, [result](bool ok, const QString& why) {
            *result = ok ? QString() : why;
        });
        if (!spin_until([&] { return result->has_value(); }, 2 * wait_ms))
            return fail("no picture for " + file);
        if (!(*result)->isEmpty()) return fail(file + ": " + **result);
        std::printf("wrote %s\n", qPrintable(file));
        return true;
    }
    bool request(const char* op, Json params) {
        Reply reply = call(core, QString::fromLatin1(op), std::move(params));
        return !reply.error ||
               fail(QString::fromLatin1(op) + ": " + QString::fromStdString(reply.error->message));
    }

    ChatDock& chat() const { return *window.chat(); }
    ReviewFlow& review() const { return *chat().review(); }

    CoreClient core;
    MainWindow window;
};

bool main_window_and_manual(const QDir& out) {
    TempProject project;
    if (!copy_demo(project)) return false;
    const QString script = project.beside(QStringLiteral("question.json"));
    {
        QFile file(script);
        if (!file.open(QIODevice::WriteOnly) || file.write(question_script) < 0)
            return fail("cannot write " + script);
    }
    Scene s(project, script);
    if (!s.wait([&] { return s.window.settled(); }, "the window")) return false;
    s.window.open_file(QStringLiteral("greet.py"));
    if (!s.wait([&] { return s.window.editors()->editor(QStringLiteral("greet.py")) != nullptr; },
                "greet.py"))
        return false;
    s.chat().send_message(QStringLiteral("What does greet.py do?"));
    const auto answered = [&] {
        return !s.chat().composer()->busy() &&
               !s.chat().transcript()->texts_of(ChatTranscript::Entry::message).isEmpty();
    };
    if (!s.wait(answered, "the answer")) return false;
    if (!s.save(out.filePath(QStringLiteral("main-window.png")))) return false;

    s.window.show_manual();
    if (!s.wait([&] { return s.window.centre()->current_view() != s.window.editors(); },
                "the manual"))
        return false;
    return s.save(out.filePath(QStringLiteral("manual.png")));
}

bool plan_and_compare(const QDir& out) {
    TempProject project;
    if (!copy_demo(project)) return false;
    Scene s(project, demo_script);
    if (!s.wait([&] { return s.window.settled(); }, "the window")) return false;
    if (!s.request("agent.mode.set", Json{{"mode", "plan"}})) return false;
    s.chat().send_message(QStringLiteral("Add a --shout flag to greet.py"));
    const auto plan_shown = [&] {
        return s.window.centre()->current_view() == s.review().plan_view() &&
               s.review().bar()->showing();
    };
    if (!s.wait(plan_shown, "the plan")) return false;
    if (!s.save(out.filePath(QStringLiteral("plan-view.png")))) return false;

    s.review().approve(QStringLiteral("review"));
    const auto edit_shown = [&] {
        return s.review().bar()->showing() &&
               s.review().bar()->heading()->text() == QStringLiteral("Edit greet.py");
    };
    if (!s.wait(edit_shown, "the first edit")) return false;
    s.review().compare();
    if (!s.wait([&] { return s.window.centre()->current_view() == s.review().compare_view(); },
                "the compare view"))
        return false;
    return s.save(out.filePath(QStringLiteral("compare-view.png")));
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    if (argc != 2) {
        std::fprintf(stderr, "usage: rio_screenshots OUTDIR\n");
        return 2;
    }
    const QDir out(QString::fromLocal8Bit(argv[1]));
    if (!QDir().mkpath(out.path())) {
        fail("cannot make " + out.path());
        return 1;
    }
    // The person's own prompts, allow-list and provider settings stay out of the pictures.
    QTemporaryDir home;
    qputenv("XDG_CONFIG_HOME", (home.path() + QStringLiteral("/config")).toLocal8Bit());
    qputenv("XDG_DATA_HOME", (home.path() + QStringLiteral("/data")).toLocal8Bit());
    // The manual as in the source tree: this program is not beside build/share/rio.
    qputenv("RIO_SHARE_DIR", RIO_SOURCE_DIR "/share/rio");
    return main_window_and_manual(out) && plan_and_compare(out) ? 0 : 1;
}
