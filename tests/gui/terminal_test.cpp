// The terminal panel (issue 47) in the window, against a real rio-core running /bin/sh on a
// pty: Ctrl+` opens it with the shell in the project, typed keys reach the shell and its
// colours land in the screen, Ctrl+C stops a flood that never held up the core or the editor,
// and a shell that cannot start says why in the panel.
#include "gui/code_editor.hpp"
#include "gui/main_window.hpp"
#include "gui/terminal_panel.hpp"
#include "gui/terminal_view.hpp"
#include "tests/gui/gui_support.hpp"

#include <QApplication>
#include <QDir>
#include <QTabWidget>
#include <QTest>

using namespace rio;
using namespace rio::gui;
using namespace rio::gui::test;

namespace {

// A row of the screen that `matches`, once output made one; -1 when none did in 10 s.
int row_where(TerminalView& view, const std::function<bool(const std::string&)>& matches) {
    int found = -1;
    [[maybe_unused]] const bool seen = QTest::qWaitFor(
        [&] {
            for (int row = 0; row < view.screen().rows(); ++row)
                if (matches(view.screen().row_text(row))) {
                    found = row;
                    return true;
                }
            return false;
        },
        10000);
    if (found < 0)
        for (int row = 0; row < view.screen().rows(); ++row)
            qWarning("row %d: %s", row, view.screen().row_text(row).c_str());
    return found;
}

TerminalView* opened_terminal(WindowSession& s) {
    if (!s.settle() || !s.activate()) return nullptr;
    s.press(Qt::Key_QuoteLeft, Qt::ControlModifier);
    TerminalView* view = s.window.terminals()->current();
    if (!view || !QTest::qWaitFor([&] { return view->running(); }, 5000)) return nullptr;
    return view;
}

} // namespace

class TerminalTest : public QObject {
    Q_OBJECT
private slots:
    void init() {
        qputenv("SHELL", "/bin/sh");
        qputenv("PS1", "$ ");
        qputenv("ENV", "");
    }

    void ctrl_backtick_opens_a_shell_in_the_project_that_gets_the_keys_typed() {
        TempProject project;
        project.write("a.txt", "a\n");
        WindowSession s(project);
        TerminalView* view = opened_terminal(s);
        QVERIFY(view);
        QVERIFY(s.window.terminals()->isVisible());
        QCOMPARE(QApplication::focusWidget(), view);
        QCOMPARE(view->shell(), QStringLiteral("/bin/sh"));

        QTest::keyClicks(view, QStringLiteral("printf '\\033[32mok\\033[0m %s\\n' \"$PWD\""));
        s.press(Qt::Key_Return);
        const std::string expected = "ok " + QDir(project.path()).canonicalPath().toStdString();
        const int row = row_where(*view, [&](const std::string& text) { return text == expected; });
        QVERIFY(row >= 0);
        const client::TerminalCell o = view->screen().cell(row, 0);
        QCOMPARE(o.text, std::string("o"));
        QVERIFY(!o.fg.is_default);
        QVERIFY(o.fg.green > o.fg.red);
        QVERIFY(view->screen().cell(row, 3).fg.is_default);

        // The panel goes with Ctrl+` from the terminal, and comes back with the same shell.
        s.press(Qt::Key_QuoteLeft, Qt::ControlModifier);
        QVERIFY(!s.window.terminals()->isVisible());
        s.press(Qt::Key_QuoteLeft, Qt::ControlModifier);
        QVERIFY(s.window.terminals()->isVisible());
        QCOMPARE(s.window.terminals()->current(), view);
        QCOMPARE(s.window.terminals()->tabs()->count(), 1);
    }

    void a_flood_holds_up_nothing_and_ctrl_c_reaches_the_shell() {
        TempProject project;
        project.write("a.txt", "a\n");
        WindowSession s(project);
        TerminalView* view = opened_terminal(s);
        QVERIFY(view);
        QTest::keyClicks(view, QStringLiteral("yes flood"));
        s.press(Qt::Key_Return);
        QVERIFY(row_where(*view, [](const std::string& text) { return text == "flood"; }) >= 0);
        // While it floods: the core answers, and a file opens in the editor.
        QVERIFY(s.round_trip());
        QVERIFY(s.open(QStringLiteral("a.txt")));
        view->setFocus();
        s.press(Qt::Key_C, Qt::ControlModifier); // the shell's, not the Edit menu's Copy
        QTest::keyClicks(view, QStringLiteral("echo stopped"));
        s.press(Qt::Key_Return);
        // (Typed ahead, the command's output may follow the shell's prompt on its row.)
        QVERIFY(row_where(*view, [](const std::string& text) {
                    return text == "stopped" || text == "$ stopped";
                }) >= 0);
        QVERIFY(view->screen().scrollback().size() <= 10'000u);
    }

    void a_shell_that_cannot_start_says_why_in_the_panel() {
        qputenv("SHELL", "/nonexistent/shell");
        TempProject project;
        WindowSession s(project);
        QVERIFY(s.settle());
        s.window.terminals()->open_terminal();
        TerminalView* view = s.window.terminals()->current();
        QVERIFY(view);
        const std::string why = "[no terminal: cannot start /nonexistent/shell in " +
                                QDir(project.path()).canonicalPath().toStdString() +
                                ": No such file or directory]";
        // A long line wraps: the rows together hold it.
        QVERIFY(QTest::qWaitFor(
            [&] {
                std::string all;
                for (int row = 0; row < view->screen().rows(); ++row)
                    all += view->screen().row_text(row);
                return all.find(why) != std::string::npos;
            },
            10000));
        QVERIFY(!view->running());
        QVERIFY(s.window.terminals()->tabs()->tabText(0).endsWith(QStringLiteral("(ended)")));
    }
};

QTEST_MAIN(TerminalTest)
#include "terminal_test.moc"
