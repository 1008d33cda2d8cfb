// Following the disk in the desktop, against a real rio-core watching a real project folder:
// another program writes a file that is open — without unsaved edits the editor shows the new
// text; with them, the conflict bar asks (Reload, Keep mine, Compare). And `.git` stays out of
// the tree.
#include "gui/centre_area.hpp"
#include "gui/code_editor.hpp"
#include "gui/compare_view.hpp"
#include "gui/conflict_bar.hpp"
#include "gui/core_client.hpp"
#include "gui/editor_area.hpp"
#include "gui/file_tree.hpp"
#include "gui/main_window.hpp"
#include "tests/gui/gui_support.hpp"

#include <QAbstractButton>
#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

using namespace rio;
using namespace rio::gui;
using namespace rio::gui::test;

namespace {

const QByteArray original = "def greet(name):\n    return 'hello ' + name\n";
const QByteArray theirs = "def greet(name):\n    return 'Hello, ' + name + '!'\n";

struct Session : WindowSession {
    using WindowSession::WindowSession;
    // Settled, and the watch's first pass over: a change made now is reported.
    bool ready() { return settle() && activate() && watching(); }
    ConflictBar* bar() const { return window.conflict_bar(); }
    // greet.py open, with "# mine\n" typed at its top and taken by the core.
    CodeEditor* open_with_edits() {
        CodeEditor* editor = open(QStringLiteral("greet.py"));
        if (!editor) return nullptr;
        editor->setFocus();
        editor->setCursorPosition(0, 0);
        QTest::keyClicks(editor, QStringLiteral("# mine"));
        QTest::keyClick(editor, Qt::Key_Return);
        editor->flush_edits();
        if (!spin_until([this] {
                return !window.editors()->busy() &&
                       window.editors()->is_dirty(QStringLiteral("greet.py"));
            }))
            return nullptr;
        return editor;
    }
    QString text(CodeEditor* editor) const { return QString::fromStdString(editor->utf8_text()); }
};

// greet.py open with unsaved edits ("# mine" typed at its top) when another program rewrote
// it: the bar is up.
struct Conflicted {
    bool start(bool delete_it = false) {
        project.write("greet.py", original);
        if (!s.ready() || !(editor = s.open_with_edits())) return false;
        if (delete_it)
            QFile::remove(project.path() + QStringLiteral("/greet.py"));
        else
            project.write("greet.py", theirs);
        return spin_until([this] { return s.bar()->isVisible(); });
    }
    QString mine() const { return QStringLiteral("# mine\n") + QString::fromUtf8(original); }

    TempProject project;
    Session s{project};
    CodeEditor* editor = nullptr;
};

// Answers the next message box with `button`, keeping what it said.
struct MessageBoxAnswer : QObject {
    explicit MessageBoxAnswer(QMessageBox::StandardButton button) : button_(button) {
        qApp->installEventFilter(this);
    }
    bool eventFilter(QObject* watched, QEvent* event) override {
        auto* box = qobject_cast<QMessageBox*>(watched);
        if (box && event->type() == QEvent::Show && said.isEmpty()) {
            said = box->text();
            QMetaObject::invokeMethod(
                box, [box, button = button_] { box->button(button)->click(); },
                Qt::QueuedConnection);
        }
        return false;
    }
    QString said;

private:
    QMessageBox::StandardButton button_;
};

} // namespace

class DiskTest : public QObject {
    Q_OBJECT
private slots:
    void an_unmodified_open_file_shows_what_another_program_wrote() {
        TempProject project;
        project.write("greet.py", original);
        Session s(project);
        QVERIFY(s.ready());
        CodeEditor* editor = s.open(QStringLiteral("greet.py"));
        QVERIFY(editor);
        project.write("greet.py", theirs);
        QVERIFY(spin_until([&] { return s.text(editor) == QString::fromUtf8(theirs); }));
        QVERIFY(!s.window.editors()->is_dirty(QStringLiteral("greet.py")));
        QVERIFY(s.round_trip());
        QVERIFY(s.bar()->isHidden());
    }

    void unsaved_edits_under_a_disk_change_show_the_bar_and_reload_takes_the_disk() {
        Conflicted c;
        QVERIFY(c.start());
        Session& s = c.s;
        TempProject& project = c.project;
        CodeEditor* editor = c.editor;
        QCOMPARE(s.bar()->text()->text(),
                 QStringLiteral("greet.py changed on disk since you started editing it."));
        QCOMPARE(s.bar()->path(), QStringLiteral("greet.py"));
        QVERIFY(s.bar()->reload_button()->isVisible());
        QVERIFY(s.bar()->compare_button()->isVisible());
        QCOMPARE(s.text(editor), c.mine());

        // The bar belongs to that file: another tab hides it, coming back shows it.
        project.write("other.txt", "o\n");
        QVERIFY(s.open(QStringLiteral("other.txt")));
        QVERIFY(s.bar()->isHidden());
        s.window.editors()->setCurrentWidget(editor);
        QVERIFY(s.bar()->isVisible());

        s.bar()->reload_button()->click();
        QVERIFY(spin_until([&] { return s.text(editor) == QString::fromUtf8(theirs); }));
        QVERIFY(spin_until([&] { return s.bar()->isHidden(); }));
        QVERIFY(!s.window.editors()->is_dirty(QStringLiteral("greet.py")));
        QCOMPARE(project.read("greet.py"), theirs);
    }

    void keep_mine_keeps_the_edits_and_the_save_asks_before_replacing_the_disk() {
        Conflicted c;
        QVERIFY(c.start());
        Session& s = c.s;
        CodeEditor* editor = c.editor;
        s.bar()->keep_button()->click();
        QVERIFY(s.bar()->isHidden());
        QCOMPARE(s.text(editor), c.mine());
        QVERIFY(s.window.editors()->is_dirty(QStringLiteral("greet.py")));

        {
            MessageBoxAnswer cancel(QMessageBox::Cancel);
            editor->setFocus();
            QTest::keyClick(editor, Qt::Key_S, Qt::ControlModifier);
            QVERIFY(spin_until([&] { return !cancel.said.isEmpty(); }));
            QVERIFY2(cancel.said.contains(QStringLiteral("changed on disk")),
                     qPrintable(cancel.said));
            QVERIFY(s.round_trip());
        }
        QCOMPARE(c.project.read("greet.py"), theirs); // not clobbered
        QVERIFY(s.activate());                        // the message box had it
        {
            MessageBoxAnswer overwrite(QMessageBox::Save);
            QTest::keyClick(editor, Qt::Key_S, Qt::ControlModifier);
            QVERIFY(spin_until([&] { return !overwrite.said.isEmpty(); }));
            QVERIFY(spin_until([&] { return c.project.read("greet.py") == c.mine().toUtf8(); }));
        }
        QVERIFY(
            spin_until([&] { return !s.window.editors()->is_dirty(QStringLiteral("greet.py")); }));
        QVERIFY(s.bar()->isHidden());
    }

    void compare_shows_the_disk_text_beside_yours_under_the_bar() {
        Conflicted c;
        QVERIFY(c.start());
        Session& s = c.s;

        QSignalSpy compared(s.bar(), &ConflictBar::compared);
        s.bar()->compare_button()->click();
        QVERIFY(compared.count() > 0 || compared.wait(5000));
        CompareView* view = s.bar()->compare_view();
        QCOMPARE(s.window.centre()->current_view(), view);
        QVERIFY(view->header_text().contains(QStringLiteral("greet.py · on disk | yours")));
        // Aligned: "# mine" has no line on the disk's side; the changed return lines pair up.
        QCOMPARE(view->left_lines(),
                 (QStringList{"", "def greet(name):", "    return 'Hello, ' + name + '!'"}));
        QCOMPARE(view->right_lines(),
                 (QStringList{"# mine", "def greet(name):", "    return 'hello ' + name"}));
        QVERIFY(s.bar()->isVisible()); // still there to decide with

        // Keep mine from there: the bar and the compare view go, the editor is back.
        s.bar()->keep_button()->click();
        QCOMPARE(s.window.centre()->current_view(), s.window.editors());
        QVERIFY(s.bar()->isHidden());
        QCOMPARE(s.text(c.editor), c.mine());
    }

    void a_file_deleted_under_edits_says_so_without_reload() {
        Conflicted c;
        QVERIFY(c.start(/*delete_it=*/true));
        Session& s = c.s;
        QCOMPARE(s.bar()->text()->text(),
                 QStringLiteral("greet.py was deleted on disk. Saving will write your text back."));
        QVERIFY(s.bar()->reload_button()->isHidden());
        QVERIFY(s.bar()->compare_button()->isHidden());
        QVERIFY(s.bar()->keep_button()->isVisible());
    }

    void git_folder_is_not_in_the_tree() {
        TempProject project;
        project.write(".git/config", "[core]\n");
        project.write(".gitignore", "build/\n");
        project.write("src/.git", "gitdir: ../.git/modules/src\n"); // a submodule's
        project.write("src/a.txt", "a\n");
        Session s(project);
        QVERIFY(s.settle());
        FileTreeModel& files = s.window.file_tree()->files();
        QStringList root;
        for (int row = 0; row < files.rowCount(); ++row)
            root << files.index(row, 0).data().toString();
        QCOMPARE(root, (QStringList{"src", ".gitignore"}));
        files.fetchMore(files.index_of(QStringLiteral("src")));
        QTRY_VERIFY(files.is_loaded(QStringLiteral("src")));
        QVERIFY(files.index_of(QStringLiteral("src/a.txt")).isValid());
        QVERIFY(!files.index_of(QStringLiteral("src/.git")).isValid());
    }
};

QTEST_MAIN(DiskTest)
#include "disk_test.moc"
