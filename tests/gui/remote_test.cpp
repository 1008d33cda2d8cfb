// The desktop on a core on another machine (DESIGN §22, issue 34), against a real OpenSSH
// server each test starts on a loopback port with host and user keys generated in a
// temporary folder. The far rio-core is this build's, started by the far shell through
// RIO_REMOTE_CORE; RIO_SSH gives ssh its own configuration, so nothing of the person's
// ~/.ssh is read or written.
#include "gui/approval_bar.hpp"
#include "gui/centre_area.hpp"
#include "gui/chat_dock.hpp"
#include "gui/code_editor.hpp"
#include "gui/composer.hpp"
#include "gui/core_client.hpp"
#include "gui/editor_area.hpp"
#include "gui/file_tree.hpp"
#include "gui/main_window.hpp"
#include "gui/plan_view.hpp"
#include "gui/remote_folder_dialog.hpp"
#include "gui/review_flow.hpp"
#include "tests/gui/agent_support.hpp"
#include "tests/gui/gui_support.hpp"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTest>
#include <csignal>
#include <memory>
#include <pwd.h>
#include <unistd.h>

using namespace rio;
using namespace rio::gui;
using namespace rio::gui::test;

namespace {

const char* const plan_title = "Friendlier greeting";
const QByteArray greet = "def greeting(name):\n    return f\"Hello, {name}!\"\n";

QString user_name() {
    const passwd* me = ::getpwuid(::getuid());
    return me ? QString::fromLocal8Bit(me->pw_name) : QString();
}

bool write_file(const QString& path, const QByteArray& text, bool executable = false) {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(text) != text.size())
        return false;
    file.close();
    return !executable || file.setPermissions(file.permissions() | QFileDevice::ExeOwner);
}

// sshd on 127.0.0.1:port, taking this user's login with user_key only.
class SshServer {
public:
    SshServer() {
        QTcpServer probe; // a free port: taken, then let go for sshd
        probe.listen(QHostAddress::LocalHost, 0);
        port_ = probe.serverPort();
        probe.close();
        const QString d = dir_.path();
        const QByteArray host_key = keygen(d + "/host_key");
        const QByteArray user_key = keygen(d + "/user_key");
        keygen(d + "/stranger_key");
        ready_ =
            !host_key.isEmpty() && !user_key.isEmpty() &&
            write_file(d + "/authorized_keys", user_key + "\n") &&
            write_file(d + "/known_hosts",
                       QStringLiteral("[127.0.0.1]:%1 ").arg(port_).toUtf8() + host_key + "\n") &&
            write_file(d + "/sshd_config",
                       QStringLiteral("Port %1\nListenAddress 127.0.0.1\nHostKey %2/host_key\n"
                                      "AuthorizedKeysFile %2/authorized_keys\n"
                                      "StrictModes no\nUsePAM no\nPidFile none\n"
                                      "PrintMotd no\nPrintLastLog no\n"
                                      "PasswordAuthentication no\n"
                                      "KbdInteractiveAuthentication no\n")
                           .arg(port_)
                           .arg(d)
                           .toUtf8());
        if (!ready_) return;
        if (::getuid() == 0) QDir().mkpath(QStringLiteral("/run/sshd")); // privilege separation
        sshd_.setProcessChannelMode(QProcess::SeparateChannels);
        sshd_.start(QStringLiteral("/usr/sbin/sshd"), {QStringLiteral("-D"), QStringLiteral("-e"),
                                                       QStringLiteral("-f"), d + "/sshd_config"});
        // Ready when it says it listens.
        ready_ = QTest::qWaitFor(
            [this] {
                log_ += sshd_.readAllStandardError();
                return log_.contains("Server listening on 127.0.0.1 port") ||
                       sshd_.state() == QProcess::NotRunning;
            },
            15000);
        ready_ = ready_ && sshd_.state() == QProcess::Running;
    }
    ~SshServer() {
        sshd_.terminate();
        sshd_.waitForFinished(5000);
    }

    bool ready() const { return ready_; }
    QByteArray log() { return log_ + sshd_.readAllStandardError(); }
    // RIO_SSH: ssh with a configuration of its own (its file name has a space in it).
    QString ssh_command(const QString& key = QStringLiteral("user_key")) const {
        const QString config = dir_.path() + "/ssh config " + key;
        write_file(config, QStringLiteral("Host *\n  IdentityFile %1/%2\n  IdentitiesOnly yes\n"
                                          "  UserKnownHostsFile %1/known_hosts\n"
                                          "  GlobalKnownHostsFile /dev/null\n"
                                          "  StrictHostKeyChecking yes\n")
                               .arg(dir_.path(), key)
                               .toUtf8());
        return "ssh -F '" + config + "'";
    }
    QString url(const QString& path) const {
        return QStringLiteral("ssh://%1@127.0.0.1:%2%3").arg(user_name()).arg(port_).arg(path);
    }

private:
    static QByteArray keygen(const QString& path) {
        QProcess::execute(QStringLiteral("ssh-keygen"),
                          {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"),
                           QStringLiteral("-N"), QString(), QStringLiteral("-f"), path});
        QFile pub(path + ".pub");
        return pub.open(QIODevice::ReadOnly) ? pub.readAll().trimmed() : QByteArray();
    }

    QTemporaryDir dir_;
    quint16 port_ = 0;
    QProcess sshd_;
    QByteArray log_;
    bool ready_ = false;
};

// The far side: a project, a script for the far core's provider, and the far rio-core (this
// build's, with rio's folders in the test's home: ssh passes no environment).
struct FarSide {
    // `banner`: what the far login prints on stdout before rio-core starts (.bashrc noise).
    explicit FarSide(const Json& steps, const QByteArray& banner = {}) {
        project.write("greet.py", greet);
        const QString script = project.beside(QStringLiteral("script.json"));
        write_file(script, QByteArray::fromStdString(
                               Json{{"log", "calls.jsonl"}, {"steps", steps}}.dump(2)));
        provider = QStringLiteral("script:") + script;
        QByteArray exports;
        for (const char* name :
             {"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR"})
            exports += QByteArray(" ") + name + "='" + qgetenv(name) + "'";
        core = project.beside(QStringLiteral("far-rio-core"));
        write_file(core,
                   "#!/bin/sh\nexport" + exports + "\n" + banner + "\nexec '" +
                       core_binary().toUtf8() + "' \"$@\"\n",
                   true);
    }
    QStringList plans() const {
        return QDir(project.path() + "/.rio/plans").entryList(QDir::Files);
    }

    TempProject project;
    QString provider;
    QString core;
};

// A window on the far core, as `rio --connect ssh://… --provider … --mode plan` makes it.
struct RemoteWindow {
    RemoteWindow(const SshServer& sshd, const FarSide& far, const QString& key = "user_key")
        : window(core) {
        qputenv("RIO_SSH", sshd.ssh_command(key).toUtf8());
        qputenv("RIO_REMOTE_CORE", far.core.toUtf8());
        options.connect = sshd.url(far.project.path());
        options.provider = far.provider;
        options.mode = QStringLiteral("plan");
        core.start(options);
        window.show();
    }

    ChatDock& chat() const { return *window.chat(); }
    ApprovalBar& bar() const { return *chat().review()->bar(); }
    bool settled() {
        return QTest::qWaitFor([this] { return window.settled() && core.pending() == 0; }, 15000);
    }
    bool plan_shown() {
        return QTest::qWaitFor(
            [this] {
                return bar().showing() && window.centre()->current_view() != window.editors() &&
                       core.pending() == 0;
            },
            15000);
    }
    void send(const QString& text) {
        Composer& composer = *chat().composer();
        composer.input()->setFocus();
        composer.set_text(text);
        QTest::keyClick(composer.input(), Qt::Key_Return);
    }
    // Why the window could not start its core, once it says so.
    QString failure() {
        if (!QTest::qWaitFor([this] { return core.is_lost(); }, 15000)) return {};
        return window.centre()->notice();
    }

    CoreOptions options;
    CoreClient core;
    MainWindow window;
};

} // namespace

class RemoteTest : public QObject {
    Q_OBJECT
private slots:
    void init() {
        sshd = std::make_unique<SshServer>();
        QVERIFY2(sshd->ready(), sshd->log().constData());
    }
    void cleanup() { sshd.reset(); }

    // The window lists the far folder (past the far login's banner), saves there, the
    // model's plan is filed there and shown for review, and approving it carries it out there.
    void opens_a_remote_folder_shows_the_tree_and_reviews_a_plan() {
        FarSide far(Json::array({plan_step(plan_title, "1. Say hi\n"),
                                 edit_step("greet.py", "Hello", "Hi"), text_step("Done.")}),
                    "echo 'Welcome to devbox'; echo '{not rio}'");
        RemoteWindow w(*sshd, far);
        QVERIFY2(w.settled(), qPrintable(w.window.centre()->notice()));
        QVERIFY(w.core.is_remote());
        QCOMPARE(w.window.project_root(), far.project.path());
        QCOMPARE(w.window.windowTitle(), QStringLiteral("project on 127.0.0.1 — rio"));
        QCOMPARE(child_names(w.window.file_tree()->files(), {}), QStringList{"greet.py"});

        far.project.write("notes.txt", "far\n");
        w.window.open_file(QStringLiteral("notes.txt"));
        QTRY_VERIFY(w.window.editors()->editor(QStringLiteral("notes.txt")));
        CodeEditor* notes = w.window.editors()->editor(QStringLiteral("notes.txt"));
        QTest::keyClicks(notes, QStringLiteral("near "));
        w.window.editors()->save_current();
        QTRY_COMPARE(far.project.read("notes.txt"), QByteArray("near far\n"));

        w.send(QStringLiteral("make it friendlier"));
        QVERIFY(w.plan_shown());
        QCOMPARE(w.bar().heading()->text(), QStringLiteral("Plan: Friendlier greeting"));
        QCOMPARE(far.plans().size(), 1);
        QCOMPARE(far.project.read("greet.py"), greet); // nothing changed before the approval

        click(w.bar().approve_button());
        click_menu(w.bar().approve_menu(), w.bar().approve_auto_action());
        QTRY_VERIFY_WITH_TIMEOUT(far.project.read("greet.py").contains("Hi, {name}"), 15000);
    }

    // The ssh process dies mid-turn (a plan waiting for its decision, a file edited and not
    // saved): the window says so and keeps the text; Reconnect starts the far core again,
    // which resumes the conversation with its plan, and the unsaved text is still unsaved.
    void a_lost_connection_offers_reconnect_and_resumes() {
        FarSide far(Json::array({plan_step(plan_title, "1. Say hi\n"),
                                 edit_step("greet.py", "Hello", "Hi"), text_step("Done.")}));
        RemoteWindow w(*sshd, far);
        QVERIFY2(w.settled(), qPrintable(w.window.centre()->notice()));
        w.window.open_file(QStringLiteral("greet.py"));
        QTRY_VERIFY(w.window.editors()->editor(QStringLiteral("greet.py")));
        CodeEditor* editor = w.window.editors()->editor(QStringLiteral("greet.py"));
        QTest::keyClicks(editor, QStringLiteral("# note"));
        QTest::keyClick(editor, Qt::Key_Return);
        QTRY_VERIFY(w.window.editors()->is_dirty(QStringLiteral("greet.py")));
        w.send(QStringLiteral("make it friendlier"));
        QVERIFY(w.plan_shown());

        QVERIFY(w.core.core_pid() > 0); // ssh's
        ::kill(static_cast<pid_t>(w.core.core_pid()), SIGKILL);
        QTRY_VERIFY_WITH_TIMEOUT(w.core.is_lost(), 10000);
        const QString notice = w.window.centre()->notice();
        QVERIFY2(notice.contains(QStringLiteral("The connection to 127.0.0.1 is lost")),
                 qPrintable(notice));
        QVERIFY(w.window.windowTitle().endsWith(QStringLiteral("(disconnected)")));
        QVERIFY(editor->isReadOnly());
        const std::string unsaved = editor->utf8_text();
        QVERIFY(unsaved.starts_with("# note\n"));
        QPushButton* reconnect = w.window.centre()->notice_button();
        QCOMPARE(reconnect->text(), QStringLiteral("Reconnect"));

        click(reconnect);
        QVERIFY2(w.plan_shown(), qPrintable(w.window.centre()->notice()));
        QVERIFY(w.window.centre()->notice().isEmpty());
        QCOMPARE(w.bar().heading()->text(), QStringLiteral("Plan: Friendlier greeting"));
        QTRY_VERIFY(!editor->isReadOnly());
        QCOMPARE(editor->utf8_text(), unsaved);
        QVERIFY(w.window.editors()->is_dirty(QStringLiteral("greet.py")));
        QCOMPARE(far.project.read("greet.py"), greet); // unsaved stays unsaved
        QCOMPARE(far.plans().size(), 1);               // the same plan, not a second one
    }

    // What stops a connection is said in its own words, within seconds, with Try Again.
    void a_missing_far_core_a_refused_login_and_another_version_each_say_so() {
        FarSide far(Json::array({text_step("unused")}));
        {
            FarSide none(Json::array({text_step("unused")}));
            none.core = far.project.beside(QStringLiteral("no-such-core"));
            RemoteWindow w(*sshd, none);
            const QString why = w.failure();
            QVERIFY2(why.contains(QStringLiteral("not found on 127.0.0.1; install rio there or "
                                                 "set RIO_REMOTE_CORE")),
                     qPrintable(why));
            QCOMPARE(w.window.centre()->notice_button()->text(), QStringLiteral("Try Again"));
        }
        {
            RemoteWindow w(*sshd, far, QStringLiteral("stranger_key"));
            const QString why = w.failure();
            QVERIFY2(why.contains(QStringLiteral("127.0.0.1 refused the login")), qPrintable(why));
        }
        {
            FarSide other(Json::array({text_step("unused")}));
            write_file(other.core,
                       "#!/usr/bin/env python3\nimport json, sys\n"
                       "hello = json.loads(sys.stdin.readline())\n"
                       "print(json.dumps({'id': hello['id'], 'ok': True, 'result': {'protocol': "
                       "99, 'name': 'rio-core', 'version': '9.0.0', 'ops': []}}), flush=True)\n"
                       "sys.stdin.read()\n",
                       true);
            RemoteWindow w(*sshd, other);
            const QString why = w.failure();
            QVERIFY2(why.contains(QStringLiteral("speaks protocol 99 (rio-core 9.0.0); this rio "
                                                 "speaks protocol 1")),
                     qPrintable(why));
        }
    }

    // File ▸ Open Remote Folder… offers the recent remotes and explains a bad address before
    // anything runs; a good one is asked for (the app opens it in a window of its own).
    void open_remote_folder_checks_the_address_and_offers_recent_ones() {
        FarSide far(Json::array({text_step("unused")}));
        RemoteWindow w(*sshd, far);
        w.window.set_recent_remotes({QStringLiteral("ssh://devbox/srv/app")});
        QSignalSpy asked(&w.window, &MainWindow::remote_folder_requested);
        w.window.choose_remote_folder();
        RemoteFolderDialog* dialog = nullptr;
        QTRY_VERIFY((dialog = w.window.findChild<RemoteFolderDialog*>()));
        QCOMPARE(dialog->field()->itemText(0), QStringLiteral("ssh://devbox/srv/app"));
        QVERIFY(dialog->open_button()->isEnabled());
        dialog->field()->setEditText(QStringLiteral("ssh://-oProxyCommand=x/srv"));
        QVERIFY(!dialog->open_button()->isEnabled());
        QVERIFY2(dialog->problem()->text().contains(QStringLiteral("option")),
                 qPrintable(dialog->problem()->text()));
        dialog->field()->setEditText(QStringLiteral("ssh://devbox/srv/'odd dir'"));
        QVERIFY(dialog->open_button()->isEnabled());
        click(dialog->open_button());
        QCOMPARE(asked.size(), 1);
        QCOMPARE(asked.at(0).at(0).toString(), QStringLiteral("ssh://devbox/srv/'odd dir'"));
        QCOMPARE(w.window.recent_remotes().first(), QStringLiteral("ssh://devbox/srv/'odd dir'"));
    }

private:
    std::unique_ptr<SshServer> sshd;
};

QTEST_MAIN(RemoteTest)
#include "remote_test.moc"
