// The `rio` program itself: options without a display, and a rendered window.
#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Run {
    int exit_code = -1;
    QByteArray out;
    QByteArray err;
};

Run run_rio(const QStringList& args, const QProcessEnvironment& env, int timeout_ms = 20000) {
    QProcess rio;
    rio.setProcessEnvironment(env);
    rio.start(QStringLiteral(RIO_BINARY), args);
    Run run;
    if (!rio.waitForFinished(timeout_ms)) {
        rio.kill();
        rio.waitForFinished();
        return run;
    }
    run.exit_code = rio.exitStatus() == QProcess::NormalExit ? rio.exitCode() : -1;
    run.out = rio.readAllStandardOutput();
    run.err = rio.readAllStandardError();
    return run;
}

// No display of any kind: neither X, Wayland nor an explicit Qt platform.
QProcessEnvironment headless() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
        env.remove(QString::fromLatin1(name));
    return env;
}

} // namespace

class AppTest : public QObject {
    Q_OBJECT
private slots:
    void help_and_version_without_display() {
        Run help = run_rio({QStringLiteral("--help")}, headless());
        QCOMPARE(help.exit_code, 0);
        QVERIFY2(help.out.contains("--connect") && help.out.contains("--provider"), help.out);
        QVERIFY2(!help.out.contains("--screenshot"), "a docs/tests option, hidden from --help");

        Run version = run_rio({QStringLiteral("--version")}, headless());
        QCOMPARE(version.exit_code, 0);
        QVERIFY2(version.out.startsWith("rio "), version.out);

        Run wrong = run_rio({QStringLiteral("--no-such-option")}, headless());
        QVERIFY(wrong.exit_code != 0);
    }

    // DESIGN §9 / issue 15: not Qt's abort about platform plugins, but what to do instead.
    void without_a_display_says_so_and_exits_1() {
        Run run = run_rio({}, headless());
        QCOMPARE(run.exit_code, 1);
        QVERIFY2(run.err.contains("rio: there is no display to open a window on") &&
                     run.err.contains("rio-cli"),
                 run.err);
        QVERIFY2(!run.err.contains("platform plugin"), run.err);
    }

    // Issue 34: a bad ssh:// address is explained before rio looks for a display or runs
    // ssh; a core's options go to a core rio starts, not to a running one.
    void a_bad_ssh_address_is_refused_before_ssh_runs() {
        Run option_as_host = run_rio(
            {QStringLiteral("--connect"), QStringLiteral("ssh://-oProxyCommand=touch%20x/srv")},
            headless());
        QCOMPARE(option_as_host.exit_code, 1);
        QVERIFY2(
            option_as_host.err.startsWith("rio: --connect ssh://-oProxyCommand=touch%20x/srv: "),
            option_as_host.err);
        QVERIFY2(option_as_host.err.contains("option"), option_as_host.err);
        Run relative = run_rio({QStringLiteral("--connect"), QStringLiteral("ssh://devbox/~/app")},
                               headless());
        QCOMPARE(relative.exit_code, 1);
        QVERIFY2(relative.err.contains("absolute"), relative.err);
        Run shared = run_rio({QStringLiteral("--connect"), QStringLiteral("unix:/tmp/none"),
                              QStringLiteral("--mode"), QStringLiteral("plan")},
                             headless());
        QCOMPARE(shared.exit_code, 1);
        QVERIFY2(shared.err.contains("a running core keeps its own"), shared.err);
    }

    void screenshot_renders_window() {
        QTemporaryDir scratch;
        QDir(scratch.path()).mkpath(QStringLiteral("demo/src"));
        QFile file(scratch.path() + QStringLiteral("/demo/src/main.cpp"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("#include <cstdio>\n\nint main() {\n    std::puts(\"hi\");\n}\n");
        file.close();

        QProcessEnvironment env = headless();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), scratch.path() + QStringLiteral("/config"));
        env.insert(QStringLiteral("RIO_PROVIDER"), QStringLiteral("echo"));
        const QString png = scratch.path() + QStringLiteral("/shot.png");
        Run run = run_rio({scratch.path() + QStringLiteral("/demo"), QStringLiteral("--open"),
                           QStringLiteral("src/main.cpp"), QStringLiteral("--screenshot"), png},
                          env);
        QVERIFY2(run.exit_code == 0, run.err);
        QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() >= 800 && image.height() >= 500);
        // Not a blank window: the editor's text and margins put many colours on it.
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 4)
            for (int x = 0; x < image.width(); x += 4)
                colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));
        // Screenshot runs do not touch the remembered folder.
        QVERIFY(!QFile::exists(scratch.path() + QStringLiteral("/config/rio/rio.conf")));
    }
};

QTEST_MAIN(AppTest)
#include "app_test.moc"
