// Files as a person handles them in the window, against a real rio-core: the modified mark
// after undo, File ▸ New File, Save As and Save All, File ▸ Open Recent, and a plan's links
// to the project's files. A second client reads what the core holds.
#include "gui/centre_area.hpp"
#include "gui/chat_dock.hpp"
#include "gui/code_editor.hpp"
#include "gui/editor_area.hpp"
#include "gui/file_commands.hpp"
#include "gui/main_window.hpp"
#include "gui/markdown_view.hpp"
#include "gui/plan_view.hpp"
#include "gui/review_flow.hpp"
#include "tests/gui/gui_support.hpp"

#include <QApplication>
#include <QFileInfo>
#include <QInputDialog>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTest>
#include <QTimer>

using namespace rio;
using namespace rio::gui;
using namespace rio::gui::test;

namespace {

struct Session : WindowSession {
    using WindowSession::WindowSession;
    // A File menu item, by its text, triggered as a click on it would.
    bool file_menu(const QString& text) {
        QAction* action = menu_action(window, QStringLiteral("&File"), text);
        if (action) action->trigger();
        return action;
    }
    // Types `name` into the box asking for a file name and presses its button.
    bool give_name(const QString& name) {
        QInputDialog* prompt = window.file_commands()->name_prompt();
        if (!prompt || !QTest::qWaitForWindowExposed(prompt)) return false;
        prompt->setTextValue(name);
        prompt->accept();
        return true;
    }
    QString status() const { return window.statusBar()->currentMessage(); }
    bool dirty_in_core(const QString& path) {
        const Reply list = call(core, QStringLiteral("buffer.list"), Json::object());
        for (const Json& buffer : list.result.value("buffers", Json::array()))
            if (buffer.value("path", "") == path.toStdString()) return buffer.value("dirty", true);
        return false;
    }
};

} // namespace

class FilesTest : public QObject {
    Q_OBJECT
private slots:
    // Issue 15 item 10: undo back to the saved text is not a change; the core agrees.
    void undo_back_to_the_saved_text_clears_the_modified_mark() {
        TempProject project;
        project.write("u.txt", "hello\n");
        Session s(project);
        QVERIFY(s.settle());
        CodeEditor* editor = s.open(QStringLiteral("u.txt"));
        QVERIFY(editor);
        const QString path = QStringLiteral("u.txt");

        editor->setCursorPosition(0, 5);
        QTest::keyClicks(editor, QStringLiteral("a"));
        QTRY_COMPARE(s.tab_title(path), QStringLiteral("u.txt •"));
        editor->undo();
        QTRY_COMPARE(s.tab_title(path), QStringLiteral("u.txt"));
        QVERIFY(!s.window.editors()->is_dirty(path));
        QVERIFY(!s.dirty_in_core(path));

        editor->redo();
        QTRY_COMPARE(s.tab_title(path), QStringLiteral("u.txt •"));
        s.window.editors()->save(path);
        QTRY_COMPARE(s.tab_title(path), QStringLiteral("u.txt"));
        QCOMPARE(project.read(path), QByteArray("helloa\n"));

        // Apart from the first insertion, so the two are separate undo steps.
        editor->setCursorPosition(0, 0);
        QTest::keyClicks(editor, QStringLiteral("b"));
        QTRY_COMPARE(s.tab_title(path), QStringLiteral("u.txt •"));
        editor->undo(); // back to what was saved
        QTRY_COMPARE(s.tab_title(path), QStringLiteral("u.txt"));
        QVERIFY(!s.dirty_in_core(path));
        editor->undo(); // before the save: a change again
        QTRY_COMPARE(s.tab_title(path), QStringLiteral("u.txt •"));
        QVERIFY(s.dirty_in_core(path));
        QCOMPARE(QByteArray::fromStdString(editor->utf8_text()), QByteArray("hello\n"));
    }

    void new_file_is_made_by_the_core_and_opened() {
        TempProject project;
        project.write("src/app.py", "print('hi')\n");
        Session s(project);
        QVERIFY(s.settle());
        QVERIFY(s.open(QStringLiteral("src/app.py")));
        QVERIFY(s.file_menu(QStringLiteral("&New File…")));
        QInputDialog* prompt = s.window.file_commands()->name_prompt();
        QVERIFY(prompt);
        QCOMPARE(prompt->textValue(), QStringLiteral("src/")); // the current file's folder
        QVERIFY(s.give_name(QStringLiteral("src/util/strings.py")));

        const QString path = QStringLiteral("src/util/strings.py");
        QTRY_VERIFY(s.window.editors()->editor(path));
        QCOMPARE(s.window.editors()->current_path(), path);
        QVERIFY(QFileInfo::exists(project.path() + QStringLiteral("/src/util/strings.py")));
        QCOMPARE(s.tab_title(path), QStringLiteral("strings.py"));
        CodeEditor* editor = s.window.editors()->editor(path);
        QTest::keyClicks(editor, QStringLiteral("x = 1"));
        s.window.editors()->save(path);
        QTRY_COMPARE(project.read(path), QByteArray("x = 1"));
    }

    void new_file_outside_the_project_or_over_a_file_is_refused_in_words() {
        TempProject project;
        project.write("a.txt", "a\n");
        Session s(project);
        QVERIFY(s.settle());
        QVERIFY(s.file_menu(QStringLiteral("&New File…")));
        QVERIFY(s.give_name(QStringLiteral("../escape.txt")));
        QTRY_VERIFY2(s.status().contains(QStringLiteral("outside the project")),
                     qPrintable(s.status()));
        QVERIFY(!QFileInfo::exists(project.beside(QStringLiteral("escape.txt"))));

        QVERIFY(s.file_menu(QStringLiteral("&New File…")));
        QVERIFY(s.give_name(QStringLiteral("a.txt")));
        QTRY_COMPARE(s.status(), QStringLiteral("Cannot create a.txt: a.txt already exists"));
        QCOMPARE(project.read(QStringLiteral("a.txt")), QByteArray("a\n"));
        QVERIFY(!s.window.editors()->editor(QStringLiteral("a.txt")));
    }

    // The new file gets the tab's text; the tab becomes the new file's; the old file is as it
    // was on disk, and no buffer of it is left behind.
    void save_as_writes_the_new_file_and_leaves_the_original_on_disk() {
        TempProject project;
        project.write("a.txt", "one\n");
        project.write("z.txt", "z\n");
        Session s(project);
        QVERIFY(s.settle());
        QVERIFY(s.open(QStringLiteral("z.txt")));
        CodeEditor* editor = s.open(QStringLiteral("a.txt"));
        QVERIFY(editor);
        QTest::keyClicks(editor, QStringLiteral("two "));
        QTRY_COMPARE(s.tab_title(QStringLiteral("a.txt")), QStringLiteral("a.txt •"));
        const int index = s.window.editors()->indexOf(editor);

        QVERIFY(s.file_menu(QStringLiteral("Save &As…")));
        QCOMPARE(s.window.file_commands()->name_prompt()->textValue(), QStringLiteral("a.txt"));
        QVERIFY(s.give_name(QStringLiteral("notes/b.txt")));
        QTRY_VERIFY(!s.window.editors()->editor(QStringLiteral("a.txt")));
        const QString saved = QStringLiteral("notes/b.txt");
        QVERIFY(s.window.editors()->editor(saved));
        QCOMPARE(s.window.editors()->current_path(), saved);
        QCOMPARE(s.window.editors()->indexOf(s.window.editors()->editor(saved)), index);
        QCOMPARE(s.tab_title(saved), QStringLiteral("b.txt"));
        QCOMPARE(project.read(saved), QByteArray("two one\n"));
        QCOMPARE(project.read(QStringLiteral("a.txt")), QByteArray("one\n"));
        const Reply list = call(s.core, QStringLiteral("buffer.list"), Json::object());
        for (const Json& buffer : list.result["buffers"])
            QVERIFY(buffer["path"] != "a.txt");
    }

    void save_as_onto_a_file_that_exists_asks_first() {
        TempProject project;
        project.write("a.txt", "mine\n");
        project.write("c.txt", "theirs\n");
        Session s(project);
        QVERIFY(s.settle());
        QVERIFY(s.open(QStringLiteral("a.txt")));

        answer_next_box(QStringLiteral("&Cancel"));
        QVERIFY(s.file_menu(QStringLiteral("Save &As…")));
        QVERIFY(s.give_name(QStringLiteral("c.txt")));
        QTRY_VERIFY(s.status().contains(QStringLiteral("already exists")));
        QCOMPARE(project.read(QStringLiteral("c.txt")), QByteArray("theirs\n"));
        QVERIFY(s.window.editors()->editor(QStringLiteral("a.txt")));

        answer_next_box(QStringLiteral("&Replace"));
        QVERIFY(s.file_menu(QStringLiteral("Save &As…")));
        QVERIFY(s.give_name(QStringLiteral("c.txt")));
        QTRY_VERIFY(s.window.editors()->editor(QStringLiteral("c.txt")));
        QTRY_VERIFY(!s.window.editors()->editor(QStringLiteral("a.txt")));
        QCOMPARE(project.read(QStringLiteral("c.txt")), QByteArray("mine\n"));
        QCOMPARE(project.read(QStringLiteral("a.txt")), QByteArray("mine\n"));
    }

    void save_all_saves_every_modified_file() {
        TempProject project;
        project.write("x.txt", "x\n");
        project.write("y.txt", "y\n");
        project.write("z.txt", "z\n");
        Session s(project);
        QVERIFY(s.settle());
        for (const char* name : {"x.txt", "y.txt"}) {
            CodeEditor* editor = s.open(QString::fromLatin1(name));
            QVERIFY(editor);
            QTest::keyClicks(editor, QStringLiteral("more "));
        }
        QVERIFY(s.open(QStringLiteral("z.txt"))); // unchanged: left alone
        QTRY_COMPARE(s.window.editors()->dirty_paths().size(), 2);
        QVERIFY(s.file_menu(QStringLiteral("Save A&ll")));
        QTRY_VERIFY(s.window.editors()->dirty_paths().isEmpty());
        QCOMPARE(project.read(QStringLiteral("x.txt")), QByteArray("more x\n"));
        QCOMPARE(project.read(QStringLiteral("y.txt")), QByteArray("more y\n"));
        QCOMPARE(project.read(QStringLiteral("z.txt")), QByteArray("z\n"));
        QCOMPARE(s.tab_title(QStringLiteral("x.txt")), QStringLiteral("x.txt"));
    }

    void open_recent_lists_folders_newest_first_and_opens_one() {
        TempProject first, second;
        const QString gone = first.beside(QStringLiteral("gone"));
        Session s(first);
        // What the app hands in from the last run, before the first project shows.
        s.window.set_recent_projects({second.path(), gone});
        QSignalSpy changed(&s.window, &MainWindow::recent_projects_changed);
        QVERIFY(s.settle());
        QTRY_COMPARE(s.window.recent_projects(), (QStringList{first.path(), second.path(), gone}));
        QCOMPARE(changed.count(), 1);

        QMenu* menu = s.window.recent_projects_menu();
        emit menu->aboutToShow();
        const QList<QAction*> items = menu->actions();
        QVERIFY(items.size() >= 4);
        QVERIFY(items[0]->text().endsWith(first.path()));
        QVERIFY(items[1]->text().endsWith(second.path()));
        QVERIFY(items[1]->isEnabled());
        QCOMPARE(items[2]->text(),
                 QStringLiteral("gone — ") + gone + QStringLiteral(" (not found)"));
        QVERIFY(!items[2]->isEnabled());

        items[1]->trigger();
        QTRY_COMPARE(s.window.project_root(), second.path());
        QCOMPARE(s.window.recent_projects(), (QStringList{second.path(), first.path(), gone}));
        QCOMPARE(changed.count(), 2);

        emit menu->aboutToShow();
        QAction* clear = menu->actions().last();
        QCOMPARE(clear->text(), QStringLiteral("&Clear Recent"));
        clear->trigger();
        QVERIFY(s.window.recent_projects().isEmpty());
        QCOMPARE(changed.last().at(0).toStringList(), QStringList());
    }

    // A plan's link to a project file opens it at its line; web links stay inert; a path
    // leaving the project is refused, in words.
    void plan_links_open_project_files_and_nothing_else() {
        TempProject project;
        project.write("src/greet.py", "import sys\n\n\ndef greeting(name):\n    return name\n");
        Session s(project);
        QVERIFY(s.settle());
        PlanView* view = s.window.chat()->review()->plan_view();
        const QString plan = QStringLiteral(
            "Change [greeting](src/greet.py:4), see [the docs](https://example.com/docs), "
            "not [the password file](/etc/passwd) or [a sibling](../elsewhere.txt).\n");
        view->show_plan(QStringLiteral("Links"), QString(), plan, false);
        s.window.centre()->show_view(view);
        MarkdownView* body = view->body();
        QVERIFY(QTest::qWaitForWindowExposed(&s.window));
        QSignalSpy activated(body, &MarkdownView::link_activated);

        const std::optional<QPoint> web =
            link_point(*body, QStringLiteral("https://example.com/docs"));
        QVERIFY(web);
        hover(body->viewport(), *web);
        QVERIFY(body->viewport()->cursor().shape() != Qt::PointingHandCursor);
        QTest::mouseClick(body->viewport(), Qt::LeftButton, {}, *web);
        QVERIFY(drain_events());
        QCOMPARE(activated.count(), 0);

        const std::optional<QPoint> outside = link_point(*body, QStringLiteral("/etc/passwd"));
        QVERIFY(outside);
        QTest::mouseClick(body->viewport(), Qt::LeftButton, {}, *outside);
        QTRY_COMPARE(s.status(), QStringLiteral("/etc/passwd is outside the project: a plan opens "
                                                "only the project's files"));
        const std::optional<QPoint> sibling = link_point(*body, QStringLiteral("../elsewhere.txt"));
        QVERIFY(sibling);
        QTest::mouseClick(body->viewport(), Qt::LeftButton, {}, *sibling);
        QTRY_VERIFY(s.status().startsWith(QStringLiteral("../elsewhere.txt is outside")));
        QVERIFY(s.window.editors()->count() == 0);

        const std::optional<QPoint> file = link_point(*body, QStringLiteral("src/greet.py:4"));
        QVERIFY(file);
        hover(body->viewport(), *file);
        QCOMPARE(body->viewport()->cursor().shape(), Qt::PointingHandCursor);
        QTest::mouseClick(body->viewport(), Qt::LeftButton, {}, *file);
        QTRY_VERIFY(s.window.editors()->editor(QStringLiteral("src/greet.py")));
        QCOMPARE(s.window.centre()->current_view(), s.window.editors());
        int line = -1, index = -1;
        s.window.editors()
            ->editor(QStringLiteral("src/greet.py"))
            ->getCursorPosition(&line, &index);
        QCOMPARE(line, 3); // the fourth line, counted from 0
    }
};

QTEST_MAIN(FilesTest)
#include "files_test.moc"
