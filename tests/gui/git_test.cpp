// Git changes beside the code (issue 47), in the window against a real rio-core and a real
// repository the git command made: the margin's marks for a buffer's unsaved edits, a change
// reverted from the margin as one undo step, and the Changes panel opening the compare view
// of HEAD and now.
#include "gui/centre_area.hpp"
#include "gui/changes_panel.hpp"
#include "gui/code_editor.hpp"
#include "gui/compare_view.hpp"
#include "gui/editor_area.hpp"
#include "gui/git_margin.hpp"
#include "gui/main_window.hpp"
#include "tests/gui/gui_support.hpp"

#include <QProcess>
#include <QSignalSpy>
#include <QTest>
#include <QTreeWidget>

using namespace rio;
using namespace rio::gui;
using namespace rio::gui::test;

namespace {

const QByteArray notes = "one\ntwo\nthree\nfour\nfive\n";

bool git(const TempProject& project, const QStringList& args) {
    QProcess run;
    run.setWorkingDirectory(project.path());
    run.start(QStringLiteral("git"),
              QStringList{QStringLiteral("-c"), QStringLiteral("user.name=t"), QStringLiteral("-c"),
                          QStringLiteral("user.email=t@example.com")} +
                  args);
    return run.waitForFinished(10000) && run.exitCode() == 0;
}

// A project whose notes.txt is committed on main.
bool committed(const TempProject& project) {
    project.write("notes.txt", notes);
    return git(project, {QStringLiteral("init"), QStringLiteral("-q"), QStringLiteral("-b"),
                         QStringLiteral("main")}) &&
           git(project, {QStringLiteral("add"), QStringLiteral("-A")}) &&
           git(project, {QStringLiteral("commit"), QStringLiteral("-q"), QStringLiteral("-m"),
                         QStringLiteral("first")});
}

struct Session : WindowSession {
    using WindowSession::WindowSession;
    GitMargin& margin() { return *window.git_margin(); }
    // The marks once they are those of the text the editor shows.
    const GitMarksResult* current_marks(const QString& path) {
        const GitMarksResult* marks = nullptr;
        const bool current = QTest::qWaitFor(
            [&] {
                marks = margin().marks(path);
                const auto shown = window.editors()->settled_version(path);
                return marks && marks->version && shown &&
                       static_cast<long long>(*marks->version) == *shown;
            },
            5000);
        return current ? marks : nullptr;
    }
};

// The git markers on each line: "+" added, "~" changed, "-" a deletion, "." none.
QString marker_column(QsciScintilla& editor) {
    QString out;
    for (int line = 0; line < editor.lines(); ++line) {
        const unsigned mask = editor.markersAtLine(line);
        out += mask & (1u << git_added_marker)     ? QLatin1Char('+')
               : mask & (1u << git_changed_marker) ? QLatin1Char('~')
               : mask & (1u << git_deleted_marker) ? QLatin1Char('-')
                                                   : QLatin1Char('.');
    }
    return out;
}

long text_x(QsciScintilla& editor) {
    return editor.SendScintilla(QsciScintilla::SCI_POINTXFROMPOSITION, 0UL, 0L);
}

} // namespace

class GitTest : public QObject {
    Q_OBJECT
private slots:
    void the_margin_marks_unsaved_edits_against_head_and_the_text_never_shifts() {
        TempProject project;
        QVERIFY(committed(project));
        Session s(project);
        QVERIFY(s.settle());
        const QString path = QStringLiteral("notes.txt");
        CodeEditor* editor = s.open(path);
        QVERIFY(editor);
        QVERIFY(s.current_marks(path));
        QCOMPARE(marker_column(*editor), QStringLiteral("......"));
        const long x = text_x(*editor);

        // two → TWO, a line after three, five deleted: typed, never saved.
        editor->setSelection(1, 0, 1, 3);
        QTest::keyClicks(editor, QStringLiteral("TWO"));
        editor->setCursorPosition(2, 5);
        QTest::keyClick(editor, Qt::Key_Return);
        QTest::keyClicks(editor, QStringLiteral("new"));
        editor->setSelection(5, 0, 6, 0);
        QTest::keyClick(editor, Qt::Key_Delete);
        QCOMPARE(QByteArray::fromStdString(editor->utf8_text()),
                 QByteArray("one\nTWO\nthree\nnew\nfour\n"));
        QVERIFY(s.current_marks(path));
        QCOMPARE(marker_column(*editor), QStringLiteral(".~.+.-"));
        QCOMPARE(text_x(*editor), x);
        QCOMPARE(project.read(path), notes);
    }

    void a_change_reverted_from_the_margin_is_one_undo_step() {
        TempProject project;
        QVERIFY(committed(project));
        Session s(project);
        QVERIFY(s.settle());
        const QString path = QStringLiteral("notes.txt");
        CodeEditor* editor = s.open(path);
        QVERIFY(editor);
        editor->setSelection(1, 0, 1, 3);
        QTest::keyClicks(editor, QStringLiteral("TWO"));
        editor->setSelection(3, 0, 4, 0);
        QTest::keyClick(editor, Qt::Key_Delete);
        QVERIFY(s.current_marks(path));
        QCOMPARE(marker_column(*editor), QStringLiteral(".~.-."));

        QVERIFY(s.margin().revert(path, 1));
        QCOMPARE(QByteArray::fromStdString(editor->utf8_text()),
                 QByteArray("one\ntwo\nthree\nfive\n"));
        QVERIFY(s.current_marks(path));
        QCOMPARE(marker_column(*editor), QStringLiteral("...-."));
        QVERIFY(!s.margin().revert(path, 0)); // no mark there
        QVERIFY(s.margin().revert(path, 3));  // the deletion's triangle
        QCOMPARE(QByteArray::fromStdString(editor->utf8_text()), notes);
        QVERIFY(s.current_marks(path));
        QCOMPARE(marker_column(*editor), QStringLiteral("......"));
        QCOMPARE(s.tab_title(path), path); // the text is the saved one again

        editor->undo(); // the deletion is back, in one step
        QCOMPARE(QByteArray::fromStdString(editor->utf8_text()),
                 QByteArray("one\ntwo\nthree\nfive\n"));
        QVERIFY(s.current_marks(path));
        QCOMPARE(marker_column(*editor), QStringLiteral("...-."));
        QVERIFY(s.round_trip());
        Observer other(project);
        QVERIFY(other.ready());
        QCOMPARE(other.text(path), std::string("one\ntwo\nthree\nfive\n"));
    }

    void the_changes_panel_lists_the_files_and_compares_one_with_head() {
        TempProject project;
        QVERIFY(committed(project));
        project.write("notes.txt", "one\nTWO\nthree\nfour\nfive\n");
        project.write("fresh.txt", "new file\n");
        Session s(project);
        QVERIFY(s.settle());
        ChangesPanel& changes = *s.window.changes();
        QTRY_COMPARE(changes.list()->topLevelItemCount(), 2);
        QCOMPARE(changes.list()->topLevelItem(0)->text(0), QStringLiteral("U  fresh.txt"));
        QCOMPARE(changes.list()->topLevelItem(1)->text(0), QStringLiteral("M  notes.txt"));
        QVERIFY(changes.summary().startsWith(QStringLiteral("main · ")));
        QVERIFY(changes.summary().endsWith(QStringLiteral(" — 2 files changed")));
        QCOMPARE(changes.windowTitle(), QStringLiteral("Changes (2)"));

        QSignalSpy compared(&changes, &ChangesPanel::compared);
        changes.list()->itemClicked(changes.list()->topLevelItem(1), 0);
        QTRY_COMPARE(compared.count(), 1);
        CompareView* view = changes.compare_view();
        QCOMPARE(s.window.centre()->current_view(), view);
        QCOMPARE(view->header_text(), QStringLiteral("Changes — notes.txt · HEAD | now"));
        QCOMPARE(view->left_lines(), QStringList({"one", "two", "three", "four", "five"}));
        QCOMPARE(view->right_lines(), QStringList({"one", "TWO", "three", "four", "five"}));

        // A file saved back to HEAD's text leaves the list.
        project.write("notes.txt", notes);
        QTRY_COMPARE(changes.list()->topLevelItemCount(), 1);
    }

    void a_folder_without_git_says_so_and_marks_nothing() {
        TempProject project;
        project.write("plain.txt", "a\n");
        Session s(project);
        QVERIFY(s.settle());
        QTRY_COMPARE(s.window.changes()->summary(),
                     QStringLiteral("This folder is not in a git repository."));
        CodeEditor* editor = s.open(QStringLiteral("plain.txt"));
        QVERIFY(editor);
        QTest::keyClicks(editor, QStringLiteral("b"));
        QTRY_VERIFY(s.margin().marks(QStringLiteral("plain.txt")));
        QCOMPARE(s.margin().marks(QStringLiteral("plain.txt"))->repository, false);
        QCOMPARE(marker_column(*editor), QStringLiteral(".."));
    }
};

QTEST_MAIN(GitTest)
#include "git_test.moc"
