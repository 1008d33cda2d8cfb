#include "tests/gui/gui_support.hpp"

#include "gui/code_editor.hpp"
#include "gui/editor_area.hpp"
#include "gui/file_tree_model.hpp"
#include "gui/markdown_view.hpp"

#include <QAbstractButton>
#include <QApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QInputMethodEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMouseEvent>
#include <QScrollBar>
#include <QTest>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTimer>
#include <memory>

namespace rio::gui::test {

QString core_binary() {
    return QStringLiteral(RIO_CORE_BINARY);
}

QStringList child_names(const FileTreeModel& model, const QModelIndex& parent) {
    QStringList names;
    for (int row = 0; row < model.rowCount(parent); ++row)
        names << model.index(row, 0, parent).data().toString();
    return names;
}

TempProject::TempProject() : scratch_(QDir::tempPath() + QStringLiteral("/rio-gui-XXXXXX")) {
    QDir(scratch_.path()).mkpath(QStringLiteral("project"));
}

QString TempProject::path() const {
    return scratch_.path() + QStringLiteral("/project");
}

QString TempProject::name() const {
    return QStringLiteral("project");
}

QString TempProject::socket_path() const {
    return beside(QStringLiteral("core.sock"));
}

QString TempProject::beside(const QString& name) const {
    return scratch_.path() + QLatin1Char('/') + name;
}

void TempProject::write(const QString& relative, const QByteArray& bytes) const {
    const QString file = path() + QLatin1Char('/') + relative;
    QDir().mkpath(QFileInfo(file).path());
    QFile out(file);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate) || out.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(file));
}

QByteArray TempProject::read(const QString& relative) const {
    QFile in(path() + QLatin1Char('/') + relative);
    if (!in.open(QIODevice::ReadOnly)) return {};
    return in.readAll();
}

bool language_servers(const QString& config_home, const QStringList& enabled) {
    Json servers = Json::object();
    for (const char* name : {"clangd", "pylsp", "typescript", "rust-analyzer", "gopls"})
        if (!enabled.contains(QLatin1String(name))) servers[name] = {{"disabled", true}};
    const QString folder = config_home + QStringLiteral("/rio");
    QFile file(folder + QStringLiteral("/lsp.json"));
    if (!QDir().mkpath(folder) || !file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    const std::string text = Json{{"servers", servers}}.dump(2);
    return file.write(text.data(), static_cast<qint64>(text.size())) ==
           static_cast<qint64>(text.size());
}

CoreOptions private_core(const TempProject& project) {
    CoreOptions options;
    options.core_program = core_binary();
    options.project = project.path();
    options.provider = QStringLiteral("echo");
    // The suites were written for a core in build mode; a new core starts in the user's
    // default_mode (plan), so they say which they rely on, here, once.
    options.extra_args = {QStringLiteral("--mode"), QStringLiteral("build"),
                          QStringLiteral("--listen"), "unix:" + project.socket_path()};
    return options;
}

CoreOptions second_client(const TempProject& project) {
    CoreOptions options;
    options.connect = "unix:" + project.socket_path();
    return options;
}

QByteArray large_source(int lines) {
    QByteArray text;
    for (int i = 0; i < lines; ++i)
        text += "    int value_" + QByteArray::number(i) + " = compute(" + QByteArray::number(i) +
                ", \"text\"); // line\n";
    return text;
}

QString large_plan(int bytes) {
    QString text = QStringLiteral("# Move the settings store to SQLite\n\n");
    for (int n = 1; text.size() < bytes; ++n) {
        const QString i = QString::number(n);
        text += QStringLiteral("## Step %1: the `store_%1` module\n\n").arg(i);
        text += QStringLiteral(
                    "Read **every** caller of `load_settings()` in `src/settings/store_%1.cpp` "
                    "and the tests beside it, then replace the JSON file with a table. See "
                    "[the schema notes](docs/schema.md#part-%1) for the columns; keep the "
                    "*old* reader until the migration has run once on a real profile.\n\n")
                    .arg(i);
        text += QStringLiteral("1. Add `migrate_%1()` that reads the old file\n"
                               "2. Write the rows in **one** transaction\n"
                               "3. Rename the old file to `settings_%1.json.bak`\n"
                               "   - keep it for one release\n"
                               "   - log where it went\n\n")
                    .arg(i);
        text += QStringLiteral("```cpp\nbool migrate_%1(Database& db, const Path& old) {\n"
                               "    auto rows = read_json(old);\n"
                               "    return db.insert_all(\"settings\", rows);\n}\n```\n\n")
                    .arg(i);
        if (n % 4 == 0)
            text += QStringLiteral("> A profile written by version %1 has no `theme` key: "
                                   "the default applies.\n\n")
                        .arg(i);
        if (n % 5 == 0)
            text += QStringLiteral("| file | change |\n| --- | --- |\n| `store_%1.cpp` | new "
                                   "table |\n| `store_%1_test.cpp` | migration test |\n\n")
                        .arg(i);
    }
    return text;
}

bool spin_until(const std::function<bool()>& done, int timeout_ms) {
    QDeadlineTimer deadline(timeout_ms);
    QTimer tick; // wakes the blocking wait now and then to look at the clock
    tick.start(20);
    QEventLoop loop;
    while (!done()) {
        if (deadline.hasExpired()) return false;
        loop.processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
    }
    return true;
}

void answer_next_box(const QString& button) {
    auto* poll = new QTimer;
    QObject::connect(poll, &QTimer::timeout, poll, [poll, button] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box) return;
        for (QAbstractButton* b : box->buttons())
            if (b->text() == button) {
                poll->deleteLater();
                b->click();
                return;
            }
    });
    poll->start(10);
}

void type_text(QWidget* widget, const QString& text) {
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text.at(i).isHighSurrogate() && i + 1 < text.size()) {
            // Beyond the BMP (emoji): what an input method commits.
            QInputMethodEvent commit;
            commit.setCommitString(text.mid(i, 2));
            QApplication::sendEvent(widget, &commit);
            ++i;
            continue;
        }
        QKeyEvent press(QEvent::KeyPress, 0, Qt::NoModifier, text.mid(i, 1));
        QKeyEvent release(QEvent::KeyRelease, 0, Qt::NoModifier, text.mid(i, 1));
        QApplication::sendEvent(widget, &press);
        QApplication::sendEvent(widget, &release);
    }
}

Reply call(CoreClient& core, const QString& op, Json params, int timeout_ms) {
    auto reply = std::make_shared<std::optional<Reply>>(); // outlives a timed-out wait
    core.request(op.toStdString(), std::move(params),
                 [reply](const Json& result, const std::optional<Error>& error) {
                     *reply = Reply{result, error};
                 });
    if (!spin_until([&reply] { return reply->has_value(); }, timeout_ms))
        return Reply{Json(), Error{ErrorCode::io_error, "no answer to " + op.toStdString()}};
    return **reply;
}

Reply trust_project(CoreClient& core) {
    Reply shown = call(core, QStringLiteral("project.trust.get"), Json::object());
    if (shown.error) return shown;
    Json files = Json::array();
    for (const Json& f : shown.result.value("files", Json::array()))
        files.push_back({{"path", f.value("path", "")}, {"sha256", f.value("sha256", "")}});
    return call(core, QStringLiteral("project.trust.set"), Json{{"trust", true}, {"files", files}});
}

Reply round_trip(CoreClient& core, int timeout_ms) {
    auto reply = std::make_shared<std::optional<Reply>>(); // outlives a timed-out wait
    QMetaObject::invokeMethod(
        &core,
        [&core, reply] {
            core.request(op::session_hello, Json{{"client", "rio-gui-test"}},
                         [reply](const Json& result, const std::optional<Error>& error) {
                             *reply = Reply{result, error};
                         });
        },
        Qt::QueuedConnection);
    if (!QTest::qWaitFor([&reply] { return reply->has_value(); }, timeout_ms))
        return Reply{Json(), Error{ErrorCode::io_error, "no answer to the round trip"}};
    return **reply;
}

bool drain_events(int timeout_ms) {
    auto queued = std::make_shared<bool>(false);
    auto timed = std::make_shared<bool>(false);
    QMetaObject::invokeMethod(
        qApp, [queued] { *queued = true; }, Qt::QueuedConnection);
    // A QTimer object started with 0 is a real timer (QTimer::singleShot(0, …) would be a
    // queued call again).
    QTimer timer;
    timer.setSingleShot(true);
    timer.setInterval(0);
    QObject::connect(&timer, &QTimer::timeout, [timed] { *timed = true; });
    timer.start();
    return QTest::qWaitFor([&] { return *queued && *timed; }, timeout_ms);
}

WindowSession::WindowSession(const TempProject& project) : window(core) {
    core.start(private_core(project));
    window.show();
}

bool WindowSession::settle() {
    return QTest::qWaitFor([this] { return window.settled(); }, 10000);
}

bool WindowSession::activate() {
    window.activateWindow();
    return QTest::qWaitForWindowActive(&window);
}

bool WindowSession::watching() {
    return spin_until([this] {
        Reply info = call(core, QStringLiteral("project.info"), Json::object());
        return !info.error && info.result["watch"].value("complete", false);
    });
}

void WindowSession::press(int key, Qt::KeyboardModifiers modifiers) {
    QWidget* focus = QApplication::focusWidget();
    QTest::keyClick(focus ? focus : &window, static_cast<Qt::Key>(key), modifiers);
}

CodeEditor* WindowSession::open(const QString& path) {
    window.open_file(path);
    if (!QTest::qWaitFor([&] { return window.editors()->editor(path) != nullptr; }, 5000))
        return nullptr;
    return window.editors()->editor(path);
}

QString WindowSession::tab_title(const QString& path) const {
    EditorArea* editors = window.editors();
    return editors->tabText(editors->indexOf(editors->editor(path)));
}

bool WindowSession::round_trip() {
    return !test::round_trip(core).error;
}

QAction* menu_action(MainWindow& window, const QString& menu, const QString& text) {
    for (QAction* top : window.menuBar()->actions())
        if (top->menu() && top->text() == menu)
            for (QAction* action : top->menu()->actions())
                if (action->text() == text) return action;
    return nullptr;
}

std::optional<QPoint> link_point(MarkdownView& view, const QString& href) {
    const QTextDocument& document = *view.document();
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            if (fragment.charFormat().anchorHref() != href) continue;
            QTextCursor at(view.document());
            at.setPosition(fragment.position() + fragment.length() / 2);
            QRect rect = view.cursorRect(at);
            if (!view.viewport()->rect().contains(rect.center())) {
                QScrollBar* bar = view.verticalScrollBar();
                bar->setValue(bar->value() + rect.center().y() - view.viewport()->height() / 2);
                rect = view.cursorRect(at);
            }
            return rect.center();
        }
    return std::nullopt;
}

void hover(QWidget* widget, QPoint at) {
    QMouseEvent move(QEvent::MouseMove, QPointF(at), widget->mapToGlobal(QPointF(at)), Qt::NoButton,
                     Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(widget, &move);
}

Observer::Observer(const TempProject& project) {
    core.start(second_client(project));
}

bool Observer::ready() {
    return QTest::qWaitFor([this] { return core.is_connected(); }, 5000);
}

Json Observer::buffer(const QString& path) {
    Reply reply = call(core, QStringLiteral("buffer.text"), Json{{"path", path.toStdString()}});
    return reply.error ? Json() : reply.result;
}

std::string Observer::text(const QString& path) {
    const Json state = buffer(path);
    return state.contains("text") ? state["text"].get<std::string>() : std::string("<error>");
}

} // namespace rio::gui::test
