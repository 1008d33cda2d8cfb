#include "tests/gui/agent_support.hpp"

#include "gui/agent_mode.hpp"
#include "gui/mode_control.hpp"

#include <QFile>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTest>

namespace rio::gui::test {

bool keep_home_private(const QTemporaryDir& home) {
    if (!home.isValid()) return false;
    qputenv("XDG_CONFIG_HOME", (home.path() + QStringLiteral("/config")).toLocal8Bit());
    qputenv("XDG_DATA_HOME", (home.path() + QStringLiteral("/data")).toLocal8Bit());
    return language_servers(home.path() + QStringLiteral("/config"));
}

Json tool(const char* name, Json input) {
    return {{"name", name}, {"input", std::move(input)}};
}
Json step(std::vector<Json> tools, const char* text) {
    return {{"text", text}, {"tools", std::move(tools)}};
}
Json text_step(const char* text) {
    return {{"text", text}};
}
Json plan_step(const char* title, const char* plan) {
    return step({tool("present_plan", {{"title", title}, {"plan", plan}})});
}
Json edit_step(const char* path, const char* old_string, const char* new_string) {
    return step({tool("edit_file",
                      {{"path", path}, {"old_string", old_string}, {"new_string", new_string}})});
}

QString pending_diff(const std::optional<Proposal>& pending) {
    const EditProposal* edit = pending ? pending->edit() : nullptr;
    return edit ? QString::fromStdString(edit->diff) : QString();
}

QString qstr(const Json& json, const char* key) {
    auto it = json.find(key);
    return it != json.end() && it->is_string() ? QString::fromStdString(it->get<std::string>())
                                               : QString();
}

Agent::Agent(const TempProject& project, const Json& steps) : project_(project), window(core) {
    const QString script = project.beside(QStringLiteral("script.json"));
    QFile file(script);
    if (!file.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(script));
    const Json content{{"log", "calls.jsonl"}, {"steps", steps}};
    file.write(QByteArray::fromStdString(content.dump(2)));
    file.close();
    CoreOptions options = private_core(project);
    options.provider = QStringLiteral("script:") + script;
    core.start(options);
    window.show();
}

bool Agent::start() {
    if (!QTest::qWaitFor([this] { return window.settled(); }, 10000)) return false;
    other.start(second_client(project_));
    return QTest::qWaitFor([this] { return other.is_connected(); }, 5000);
}

bool Agent::activate() {
    window.activateWindow();
    return QTest::qWaitForWindowActive(&window);
}

void Agent::send(const QString& text) {
    composer().input()->setFocus();
    composer().set_text(text);
    QTest::keyClick(composer().input(), Qt::Key_Return);
}

bool Agent::plan_shown() {
    return QTest::qWaitFor([this] { return centre_view() == plan_view(); }, 5000);
}

bool Agent::up_to_plan_shown(bool auto_accept, const QString& text) {
    if (!start() || !set_mode("plan", auto_accept)) return false;
    send(text);
    return plan_shown();
}

bool Agent::proposal_shown(const QString& heading) {
    return QTest::qWaitFor(
        [&] {
            return bar().showing() && bar().heading()->text() == heading && core.pending() == 0;
        },
        5000);
}

bool Agent::dismissed() {
    return QTest::qWaitFor([this] { return !bar().showing() && shows_editors(); }, 5000);
}

Json Agent::ask(const char* op, Json params) {
    Reply reply = call(other, QString::fromLatin1(op), std::move(params));
    if (reply.error) qWarning("%s failed: %s", op, reply.error->message.c_str());
    return reply.error ? Json() : reply.result;
}

std::vector<Json> Agent::provider_calls() const {
    std::vector<Json> calls;
    QFile log(project_.beside(QStringLiteral("calls.jsonl")));
    if (!log.open(QIODevice::ReadOnly)) return calls;
    for (const QByteArray& line : log.readAll().split('\n'))
        if (!line.trimmed().isEmpty()) calls.push_back(Json::parse(line.toStdString()));
    return calls;
}

bool Agent::set_mode(const char* mode, bool auto_accept) {
    ask("agent.autoaccept.set", Json{{"on", auto_accept}});
    ask("agent.mode.set", Json{{"mode", mode}});
    const ModeChoice expected = mode_choice(mode, auto_accept);
    return QTest::qWaitFor(
        [&] { return chat().mode_control()->shown() == expected && core.pending() == 0; }, 5000);
}

bool LateWindow::attach(const TempProject& project) {
    core.start(second_client(project));
    window.show();
    return QTest::qWaitFor([this] { return window.settled() && core.pending() == 0; }, 10000);
}

void click(QAbstractButton* button) {
    QVERIFY(button->isVisible() && button->isEnabled());
    QTest::mouseClick(button, Qt::LeftButton);
}

void click_menu(QMenu* menu, QAction* action) {
    QTRY_VERIFY(menu->isVisible());
    QTest::mouseClick(menu, Qt::LeftButton, {}, menu->actionGeometry(action).center());
}

} // namespace rio::gui::test
