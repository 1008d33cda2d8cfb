// Getting to a file and to the lines that say something, against a real rio-core on a real
// project folder: quick open (Ctrl+P, fuzzy over the files the core lists, .gitignore'd ones
// left out) and the Search panel (Ctrl+Shift+F, the core's fs.search).
#include "gui/centre_area.hpp"
#include "gui/code_editor.hpp"
#include "gui/core_client.hpp"
#include "gui/editor_area.hpp"
#include "gui/main_window.hpp"
#include "gui/quick_open.hpp"
#include "gui/search_panel.hpp"
#include "tests/gui/gui_support.hpp"

#include <QAbstractButton>
#include <QFile>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QSignalSpy>
#include <QTabBar>
#include <QTest>
#include <QTreeWidget>

using namespace rio;
using namespace rio::gui;
using namespace rio::gui::test;

namespace {

// One window on a private core for `project`, shown, settled and active (Ctrl+P and
// Ctrl+Shift+F are the window's shortcuts).
struct Session : WindowSession {
    using WindowSession::WindowSession;
    bool settle() { return WindowSession::settle() && activate(); }
    QuickOpen* box() const { return window.quick_open(); }
    SearchPanel* panel() const { return window.search(); }
    // Ctrl+P, then the core's file list in.
    bool open_box() {
        press(Qt::Key_P, Qt::ControlModifier);
        return box()->isVisible() &&
               spin_until([this] { return !box()->listing() && box()->file_count() > 0; });
    }
    // What the Search panel lists: "path" for a file, "  line text" beneath it.
    QStringList results() const {
        QStringList rows;
        QTreeWidget* tree = panel()->results();
        for (int f = 0; f < tree->topLevelItemCount(); ++f) {
            QTreeWidgetItem* file = tree->topLevelItem(f);
            rows << file->text(0);
            for (int l = 0; l < file->childCount(); ++l)
                rows << QStringLiteral("  ") + file->child(l)->text(0);
        }
        return rows;
    }
    // The tab in front among Files, Plans and Search.
    QString side_tab() const {
        for (QTabBar* tabs : window.findChildren<QTabBar*>())
            for (int i = 0; i < tabs->count(); ++i)
                if (tabs->tabText(i) == QStringLiteral("Search"))
                    return tabs->tabText(tabs->currentIndex());
        return QString();
    }
    // Types the pattern and Enter, then waits for the answer.
    bool search_for(const QString& pattern) {
        QLineEdit* field = panel()->pattern_field();
        field->clear();
        QTest::keyClicks(field, pattern);
        QSignalSpy answered(panel(), &SearchPanel::searched);
        QTest::keyClick(field, Qt::Key_Return);
        return answered.count() > 0 || answered.wait(5000);
    }
};

// The project every quick open test looks at: names that compete for "main", and files git
// would not show.
void write_named_files(const TempProject& project) {
    project.write("src/domain.txt", "d\n");
    project.write("src/main_window.cpp", "w\n");
    project.write("docs/manual/main.md", "m\n");
    project.write("gui/main.cpp", "int main() {}\n");
    project.write("readme.md", "r\n");
    project.write(".gitignore", "build/\n*.log\n");
    project.write("build/main.o", "o\n");
    project.write("main.log", "l\n");
    project.write(".git/main", "g\n");
}

std::pair<long, long> selection(CodeEditor* editor) {
    return {editor->SendScintilla(QsciScintillaBase::SCI_GETSELECTIONSTART),
            editor->SendScintilla(QsciScintillaBase::SCI_GETSELECTIONEND)};
}

} // namespace

class NavigateTest : public QObject {
    Q_OBJECT
private slots:
    void quick_open_ranks_fuzzy_matches_without_ignored_files() {
        TempProject project;
        write_named_files(project);
        Session s(project);
        QVERIFY(s.settle());
        QVERIFY(s.box()->isHidden());
        QVERIFY(s.open_box());
        QVERIFY(s.box()->field()->hasFocus());
        QStringList all = s.box()->shown();
        all.sort();
        QCOMPARE(all, (QStringList{".gitignore", "docs/manual/main.md", "gui/main.cpp", "readme.md",
                                   "src/domain.txt", "src/main_window.cpp"}));

        QTest::keyClicks(s.box()->field(), QStringLiteral("main"));
        QCOMPARE(s.box()->shown(), (QStringList{"gui/main.cpp", "docs/manual/main.md",
                                                "src/main_window.cpp", "src/domain.txt"}));
        QTest::keyClicks(s.box()->field(), QStringLiteral("w"));
        QCOMPARE(s.box()->shown(), (QStringList{"src/main_window.cpp"}));
        QTest::keyClicks(s.box()->field(), QStringLiteral("zz"));
        QVERIFY(s.box()->shown().isEmpty());
        QCOMPARE(s.box()->status(), QStringLiteral("No file matches “mainwzz”"));
    }

    void quick_open_enter_opens_the_chosen_file_and_escape_closes() {
        TempProject project;
        write_named_files(project);
        Session s(project);
        QVERIFY(s.settle());
        QVERIFY(s.open_box());
        QTest::keyClicks(s.box()->field(), QStringLiteral("main"));
        s.press(Qt::Key_Down);
        QCOMPARE(s.box()->list()->currentItem()->text(), QStringLiteral("docs/manual/main.md"));
        s.press(Qt::Key_Down);
        s.press(Qt::Key_Up);
        s.press(Qt::Key_Return);
        QVERIFY(s.box()->isHidden());
        QTRY_COMPARE(s.window.editors()->current_path(), QStringLiteral("docs/manual/main.md"));
        CodeEditor* editor = s.window.editors()->current_editor();
        QVERIFY(editor->hasFocus());

        // Esc puts the box away and gives the focus back; nothing is opened.
        QVERIFY(s.open_box());
        QVERIFY(s.box()->field()->text().isEmpty()); // a fresh query each time
        QTest::keyClicks(s.box()->field(), QStringLiteral("gui"));
        s.press(Qt::Key_Escape);
        QVERIFY(s.box()->isHidden());
        QVERIFY(editor->hasFocus());
        QVERIFY(s.round_trip());
        QCOMPARE(s.window.editors()->count(), 1);
    }

    void quick_open_follows_files_made_and_removed_outside() {
        TempProject project;
        write_named_files(project);
        Session s(project);
        QVERIFY(s.settle());
        QVERIFY(s.watching());
        QVERIFY(s.open_box());
        QTest::keyClicks(s.box()->field(), QStringLiteral("fresh"));
        QVERIFY(s.box()->shown().isEmpty());
        // Another program makes a file while the box is open: it is listed by itself.
        project.write("src/fresh_idea.cpp", "new\n");
        QVERIFY(spin_until([&] { return s.box()->shown() == QStringList{"src/fresh_idea.cpp"}; }));
        QVERIFY(QFile::remove(project.path() + QStringLiteral("/src/fresh_idea.cpp")));
        QVERIFY(spin_until([&] { return s.box()->shown().isEmpty(); }));
        // Closed, it lists again the next time it opens.
        s.press(Qt::Key_Escape);
        bool announced = false;
        QObject::connect(&s.core, &CoreClient::core_event, s.box(),
                         [&announced](const client::CoreEvent& event) {
                             if (auto* changed = std::get_if<FsChangedEvent>(&event))
                                 for (const std::string& path : changed->paths)
                                     announced = announced || path == "later.txt";
                         });
        project.write("later.txt", "l\n");
        QVERIFY(spin_until([&] { return announced; }));
        QVERIFY(s.open_box());
        QTest::keyClicks(s.box()->field(), QStringLiteral("later"));
        QVERIFY(spin_until([&] { return s.box()->shown() == QStringList{"later.txt"}; }));
    }

    void project_search_lists_results_by_file_and_opens_the_match() {
        TempProject project;
        project.write("a.txt", "alpha\n    needle one\n");
        project.write("src/b.cpp", "int x;\nint needle = 2; // Needle\n");
        project.write(".gitignore", "build/\n");
        project.write("build/out.txt", "needle\n");
        Session s(project);
        QVERIFY(s.settle());
        QCOMPARE(s.side_tab(), QStringLiteral("Files"));
        s.press(Qt::Key_F, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(s.side_tab(), QStringLiteral("Search")); // brought to the front
        QVERIFY(s.panel()->pattern_field()->hasFocus());

        QVERIFY(s.search_for(QStringLiteral("needle")));
        // Case is ignored until Match case: both needles of b.cpp, one line.
        QCOMPARE(s.results(), (QStringList{"a.txt", "  2: needle one", "src/b.cpp",
                                           "  2: int needle = 2; // Needle"}));
        QCOMPARE(s.panel()->status(), QStringLiteral("2 matches in 2 files"));

        QSignalSpy answered(s.panel(), &SearchPanel::searched);
        s.panel()->case_toggle()->click();
        QVERIFY(answered.wait(5000));
        QCOMPARE(s.results().size(), 4);
        answered.clear();
        s.panel()->regex_toggle()->click();
        QVERIFY(answered.wait(5000));
        s.panel()->glob_field()->setText(QStringLiteral("*.cpp"));
        QVERIFY(s.search_for(QStringLiteral("N[e]+dle")));
        QCOMPARE(s.results(), (QStringList{"src/b.cpp", "  2: int needle = 2; // Needle"}));
        QCOMPARE(s.panel()->status(), QStringLiteral("1 match in 1 file"));

        // A click on the line opens the file there, the match selected.
        QTreeWidget* tree = s.panel()->results();
        QTreeWidgetItem* line = tree->topLevelItem(0)->child(0);
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, {},
                          tree->visualItemRect(line).center());
        QTRY_COMPARE(s.window.editors()->current_path(), QStringLiteral("src/b.cpp"));
        CodeEditor* editor = s.window.editors()->current_editor();
        QTRY_COMPARE(editor->selectedText(), QStringLiteral("Needle"));
        QCOMPARE(selection(editor), std::make_pair(26L, 32L)); // "int x;\n" is 7 bytes
        int at_line = -1, index = -1;
        editor->getCursorPosition(&at_line, &index);
        QCOMPARE(at_line, 1);

        // Clicking again in the open file selects again without opening anything.
        editor->setCursorPosition(0, 0);
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, {},
                          tree->visualItemRect(line).center());
        QCOMPARE(editor->selectedText(), QStringLiteral("Needle"));
        QCOMPARE(s.window.editors()->count(), 1);
    }

    void project_search_starts_from_the_selection_and_searches_unsaved_text() {
        TempProject project;
        project.write("notes.txt", "find the marker here\n");
        project.write("other.txt", "nothing\n");
        Session s(project);
        QVERIFY(s.settle());
        CodeEditor* editor = s.open(QStringLiteral("other.txt"));
        QVERIFY(editor);
        editor->setFocus();
        QTest::keyClicks(editor, QStringLiteral("marker "));
        editor->setSelection(0, 0, 0, 6);
        QSignalSpy answered(s.panel(), &SearchPanel::searched);
        s.press(Qt::Key_F, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(s.panel()->pattern_field()->text(), QStringLiteral("marker"));
        QVERIFY(answered.wait(5000));
        // The open file as the editor has it, not as it is on disk.
        QCOMPARE(s.results(), (QStringList{"notes.txt", "  1: find the marker here", "other.txt",
                                           "  1: marker nothing"}));
    }

    void project_search_says_why_it_cannot_and_when_there_is_more() {
        TempProject project;
        QByteArray many;
        for (int i = 0; i < 2100; ++i)
            many += "hit\n";
        project.write("many.txt", many);
        Session s(project);
        QVERIFY(s.settle());
        s.press(Qt::Key_F, Qt::ControlModifier | Qt::ShiftModifier);
        QVERIFY(s.search_for(QStringLiteral("hit")));
        QCOMPARE(s.panel()->status(), QStringLiteral("Showing the first 2,000 matches, in 1 file "
                                                     "— narrow the search to see the rest"));
        QCOMPARE(s.panel()->results()->topLevelItem(0)->childCount(), 2000);

        QSignalSpy answered(s.panel(), &SearchPanel::searched);
        s.panel()->regex_toggle()->click();
        QVERIFY(answered.wait(5000));
        QVERIFY(s.search_for(QStringLiteral("hit(")));
        QVERIFY(s.results().isEmpty());
        const QString said = s.panel()->status();
        QVERIFY2(said.startsWith(QStringLiteral("Invalid regular expression")), qPrintable(said));
        QVERIFY2(said.contains(QStringLiteral("missing )")), qPrintable(said));

        QVERIFY(s.search_for(QStringLiteral("absent")));
        QCOMPARE(s.panel()->status(), QStringLiteral("No results for “absent”"));
    }

    void edit_menu_has_go_to_file_and_find_in_project() {
        TempProject project;
        Session s(project);
        QVERIFY(s.settle());
        QStringList shortcuts;
        for (QAction* top : s.window.menuBar()->actions())
            if (top->menu() && top->text() == QStringLiteral("E&dit"))
                for (QAction* action : top->menu()->actions())
                    if (!action->isSeparator())
                        shortcuts << action->text() + QLatin1Char('=') +
                                         action->shortcut().toString();
        QVERIFY2(shortcuts.contains(QStringLiteral("Go to F&ile…=Ctrl+P")),
                 qPrintable(shortcuts.join(QLatin1Char(','))));
        QVERIFY2(shortcuts.contains(QStringLiteral("Find in Pro&ject…=Ctrl+Shift+F")),
                 qPrintable(shortcuts.join(QLatin1Char(','))));
    }
};

QTEST_MAIN(NavigateTest)
#include "navigate_test.moc"
