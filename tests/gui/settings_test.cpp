// Settings ▸ MCP Servers against a real rio-core and real MCP servers (the tests' own
// misbehaving server, run by python3): what the list says before and after the project is
// trusted, why a server failed, its tools, and Restart.
#include "gui/core_client.hpp"
#include "gui/main_window.hpp"
#include "gui/mcp_servers_page.hpp"
#include "gui/servers_list.hpp"
#include "gui/settings_dialog.hpp"
#include "tests/gui/gui_support.hpp"

#include <QDir>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QTreeWidget>

using namespace rio;
using namespace rio::gui;
using namespace rio::gui::test;

namespace {

const QString odd_server = QStringLiteral(RIO_SOURCE_DIR "/tests/e2e/mcp_odd_server.py");

struct Session : WindowSession {
    using WindowSession::WindowSession;
    McpServersPage* open_page() {
        window.show_mcp_servers();
        return window.settings()->mcp_servers();
    }
};

QTreeWidgetItem* server_row(QTreeWidget* list, const QString& name) {
    for (int i = 0; i < list->topLevelItemCount(); ++i)
        if (list->topLevelItem(i)->text(0) == name) return list->topLevelItem(i);
    return nullptr;
}

QString state_of(QTreeWidget* list, const QString& name) {
    QTreeWidgetItem* row = server_row(list, name);
    return row ? row->text(2) : QString();
}

QByteArray read_marker(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class SettingsTest : public QObject {
    Q_OBJECT
private slots:
    void mcp_servers_wait_for_trust_then_show_state_tools_and_why_one_failed() {
        TempProject project;
        const std::string marker = project.beside(QStringLiteral("probe-marker")).toStdString();
        QDir().mkpath(QString::fromStdString(marker));
        const Json servers{
            {"mcpServers",
             {{"probe",
               {{"command", "python3"},
                {"args", {odd_server.toStdString(), "ok", marker}},
                {"rio", {{"plan", true}}}}},
              {"broken", {{"command", "python3"}, {"args", {odd_server.toStdString(), "nostart"}}}},
              {"writer", {{"command", "python3"}, {"args", {odd_server.toStdString(), "ok"}}}}}}};
        project.write(".mcp.json", QByteArray::fromStdString(servers.dump()));
        Session s(project);
        QVERIFY(s.settle());
        McpServersPage* page = s.open_page();
        QVERIFY(s.window.settings()->isVisible());
        QCOMPARE(s.window.settings()->pages()->currentWidget(), page);
        QTreeWidget* list = page->servers()->list();

        // A cloned project's servers are listed, and say why they have not started.
        QTRY_COMPARE(list->topLevelItemCount(), 3);
        QCOMPARE(state_of(list, QStringLiteral("probe")),
                 QStringLiteral("not started: trust the project to start it"));
        QCOMPARE(server_row(list, QStringLiteral("probe"))->text(1),
                 QStringLiteral("the project's .mcp.json"));
        QVERIFY(page->servers()->note()->isHidden());
        QVERIFY(read_marker(QString::fromStdString(marker) + QStringLiteral("/pid")).isEmpty());

        QVERIFY(!trust_project(s.core).error);
        QTRY_COMPARE(state_of(list, QStringLiteral("probe")), QStringLiteral("ready, 1 tool"));
        QTRY_VERIFY2(state_of(list, QStringLiteral("broken"))
                         .startsWith(QStringLiteral("failed: could not start: it exited with "
                                                    "code 2: odd server: refusing to start")),
                     qPrintable(state_of(list, QStringLiteral("broken"))));
        QTRY_COMPARE(state_of(list, QStringLiteral("writer")), QStringLiteral("ready, 1 tool"));
        QTreeWidgetItem* probe = server_row(list, QStringLiteral("probe"));
        QCOMPARE(probe->childCount(), 1);
        QCOMPARE(probe->child(0)->text(0), QStringLiteral("mcp__probe__probe"));
        QCOMPARE(probe->child(0)->text(2),
                 QStringLiteral("reads only; offered in plan mode too, run by the server outside "
                                "the sandbox, with the network"));
        // Without "plan": true the same read-only tool is gated and kept out of plan mode.
        QCOMPARE(server_row(list, QStringLiteral("writer"))->child(0)->text(2),
                 QStringLiteral("asks before each call; not in plan mode"));
    }

    void restart_starts_the_selected_server_again() {
        TempProject project;
        const QString marker = project.beside(QStringLiteral("restart-marker"));
        QDir().mkpath(marker);
        const Json servers{
            {"mcpServers",
             {{"probe",
               {{"command", "python3"},
                {"args", {odd_server.toStdString(), "ok", marker.toStdString()}}}}}}};
        project.write(".mcp.json", QByteArray::fromStdString(servers.dump()));
        Session s(project);
        QVERIFY(s.settle());
        QVERIFY(!trust_project(s.core).error);
        McpServersPage* page = s.open_page();
        QTreeWidget* list = page->servers()->list();
        QTRY_COMPARE(state_of(list, QStringLiteral("probe")), QStringLiteral("ready, 1 tool"));
        const QByteArray first = read_marker(marker + QStringLiteral("/pid"));
        QVERIFY(!first.isEmpty());
        QVERIFY(!page->servers()->restart_button()->isEnabled()); // nothing selected yet

        list->setCurrentItem(server_row(list, QStringLiteral("probe")));
        QVERIFY(page->servers()->restart_button()->isEnabled());
        QTest::mouseClick(page->servers()->restart_button(), Qt::LeftButton);
        // A new process, listed ready once it is up; the selection survives the new list.
        QTRY_VERIFY(!read_marker(marker + QStringLiteral("/pid")).isEmpty() &&
                    read_marker(marker + QStringLiteral("/pid")) != first);
        QTRY_COMPARE(state_of(list, QStringLiteral("probe")), QStringLiteral("ready, 1 tool"));
        QCOMPARE(list->currentItem()->text(0), QStringLiteral("probe"));
    }

    void without_servers_the_page_says_where_to_add_them() {
        TempProject project;
        Session s(project);
        QVERIFY(s.settle());
        McpServersPage* page = s.open_page();
        QSignalSpy listed(page, &McpServersPage::listed);
        QVERIFY(listed.wait(5000));
        QCOMPARE(page->servers()->list()->topLevelItemCount(), 0);
        QVERIFY(page->servers()->note()->isVisible());
        QVERIFY(page->servers()->note()->text().contains(QStringLiteral(".mcp.json")));
        QVERIFY(page->servers()->problems()->isHidden());
    }

    void a_broken_config_file_is_named_on_the_page() {
        TempProject project;
        project.write(".mcp.json", "{\"mcpServers\": [");
        Session s(project);
        QVERIFY(s.settle());
        QVERIFY(!trust_project(s.core).error);
        McpServersPage* page = s.open_page();
        QTRY_VERIFY(page->servers()->problems()->isVisible());
        QVERIFY2(page->servers()->problems()->text().contains(QStringLiteral(".mcp.json")),
                 qPrintable(page->servers()->problems()->text()));
    }
};

QTEST_MAIN(SettingsTest)
#include "settings_test.moc"
