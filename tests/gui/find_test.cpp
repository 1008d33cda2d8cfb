// Find, replace and go to line (Edit menu, Ctrl+F, Ctrl+H, Ctrl+G) against a real rio-core:
// in the code editor, where replacing is an edit the core receives like typing, and in the
// plan and manual views, which are found in but not changed.
#include "gui/centre_area.hpp"
#include "gui/code_editor.hpp"
#include "gui/core_client.hpp"
#include "gui/editor_area.hpp"
#include "gui/find_bar.hpp"
#include "gui/go_to_line.hpp"
#include "gui/main_window.hpp"
#include "gui/manual_view.hpp"
#include "gui/markdown_view.hpp"
#include "gui/plan_view.hpp"
#include "tests/gui/gui_support.hpp"

#include <QAbstractButton>
#include <QApplication>
#include <QClipboard>
#include <QLineEdit>
#include <QPushButton>
#include <QTest>
#include <QTextCursor>

using namespace rio;
using namespace rio::gui;
using namespace rio::gui::test;

namespace {

// One window on a private core for `project`, shown, settled and active (the Edit menu's
// shortcuts are the window's).
struct Session : WindowSession {
    using WindowSession::WindowSession;
    bool settle() { return WindowSession::settle() && activate(); }
    CodeEditor* open(const QString& path) {
        CodeEditor* editor = WindowSession::open(path);
        if (editor) editor->setFocus();
        return editor;
    }
    FindBar* bar() const { return window.centre()->find_bar(); }
};

// The editor's selection as byte offsets, [start, end).
std::pair<long, long> selection(CodeEditor* editor) {
    return {editor->SendScintilla(QsciScintillaBase::SCI_GETSELECTIONSTART),
            editor->SendScintilla(QsciScintillaBase::SCI_GETSELECTIONEND)};
}

} // namespace

class FindTest : public QObject {
    Q_OBJECT
private slots:
    void find_selects_first_match_and_f3_wraps() {
        TempProject project;
        project.write("a.txt", "alpha beta\nbeta gamma\nBeta\n");
        Session s(project);
        QVERIFY(s.settle());
        CodeEditor* editor = s.open(QStringLiteral("a.txt"));
        QVERIFY(editor);
        editor->setCursorPosition(0, 0);

        QVERIFY(s.bar()->isHidden());
        s.press(Qt::Key_F, Qt::ControlModifier);
        QVERIFY(s.bar()->isVisible());
        QVERIFY(s.bar()->find_field()->hasFocus());
        // Found as it is typed: "b" already selects the first b.
        QTest::keyClicks(s.bar()->find_field(), QStringLiteral("b"));
        QCOMPARE(selection(editor), std::make_pair(6L, 7L));
        QTest::keyClicks(s.bar()->find_field(), QStringLiteral("eta"));
        QCOMPARE(selection(editor), std::make_pair(6L, 10L));
        QCOMPARE(s.bar()->status(), QStringLiteral("1 of 3")); // "Beta" too: case ignored

        s.press(Qt::Key_F3);
        QCOMPARE(selection(editor), std::make_pair(11L, 15L));
        QCOMPARE(s.bar()->status(), QStringLiteral("2 of 3"));
        s.press(Qt::Key_Return); // Enter in the field is F3 too
        QCOMPARE(selection(editor), std::make_pair(22L, 26L));
        s.press(Qt::Key_F3); // wraps to the top
        QCOMPARE(selection(editor), std::make_pair(6L, 10L));
        QCOMPARE(s.bar()->status(), QStringLiteral("1 of 3"));
        s.press(Qt::Key_F3, Qt::ShiftModifier); // and back round the end
        QCOMPARE(selection(editor), std::make_pair(22L, 26L));
        s.press(Qt::Key_Return, Qt::ShiftModifier);
        QCOMPARE(selection(editor), std::make_pair(11L, 15L));
        QVERIFY(s.bar()->find_field()->hasFocus()); // still typing in the field

        QTest::keyClicks(s.bar()->find_field(), QStringLiteral("x"));
        QCOMPARE(s.bar()->status(), QStringLiteral("No match"));
        QCOMPARE(editor->utf8_text(), std::string("alpha beta\nbeta gamma\nBeta\n"));
    }

    void find_regex_match_case_and_whole_word() {
        TempProject project;
        project.write("r.txt", "b12 B7 bx be bee\n");
        Session s(project);
        QVERIFY(s.settle());
        CodeEditor* editor = s.open(QStringLiteral("r.txt"));
        QVERIFY(editor);
        editor->setCursorPosition(0, 0);
        s.press(Qt::Key_F, Qt::ControlModifier);
        FindBar* bar = s.bar();

        QTest::keyClicks(bar->find_field(), QStringLiteral("b\\d+"));
        QCOMPARE(bar->status(), QStringLiteral("No match")); // plain text until Regex
        bar->regex_toggle()->click();
        QVERIFY(bar->regex_toggle()->isChecked());
        QCOMPARE(editor->selectedText(), QStringLiteral("b12"));
        QCOMPARE(bar->status(), QStringLiteral("1 of 2"));
        bar->find_next();
        QCOMPARE(editor->selectedText(), QStringLiteral("B7"));
        bar->case_toggle()->click(); // B7 no longer matches: round to b12
        QCOMPARE(editor->selectedText(), QStringLiteral("b12"));
        QCOMPARE(bar->status(), QStringLiteral("1 of 1"));
        bar->find_next(); // the only one
        QCOMPARE(editor->selectedText(), QStringLiteral("b12"));

        bar->find_field()->clear();
        QTest::keyClicks(bar->find_field(), QStringLiteral("("));
        QCOMPARE(bar->status(), QStringLiteral("Invalid pattern"));

        bar->regex_toggle()->click();
        bar->find_field()->clear();
        QTest::keyClicks(bar->find_field(), QStringLiteral("be"));
        QCOMPARE(bar->status(), QStringLiteral("1 of 2")); // "be" and "bee"
        bar->word_toggle()->click();
        QCOMPARE(bar->status(), QStringLiteral("1 of 1"));
        QCOMPARE(selection(editor), std::make_pair(10L, 12L));
        bar->find_next();
        QCOMPARE(selection(editor), std::make_pair(10L, 12L)); // the only one, "bee" is not
    }

    void replace_and_replace_all_reach_the_core_as_one_undo_step() {
        TempProject project;
        const std::string original = "one two one three one\n";
        project.write("n.txt", QByteArray::fromStdString(original));
        Session s(project);
        QVERIFY(s.settle());
        CodeEditor* editor = s.open(QStringLiteral("n.txt"));
        QVERIFY(editor);
        Observer other(project);
        QVERIFY(other.ready());
        editor->setCursorPosition(0, 0);

        s.press(Qt::Key_H, Qt::ControlModifier);
        FindBar* bar = s.bar();
        QVERIFY(bar->replace_field()->isVisible());
        QTest::keyClicks(bar->find_field(), QStringLiteral("one"));
        QCOMPARE(selection(editor), std::make_pair(0L, 3L));
        QTest::keyClicks(bar->replace_field(), QStringLiteral("1"));
        // Replace: this match, then the next is selected; Enter in the field is Replace too.
        bar->replace_button()->click();
        QCOMPARE(editor->utf8_text(), std::string("1 two one three one\n"));
        QCOMPARE(selection(editor), std::make_pair(6L, 9L));
        QTest::keyClick(bar->replace_field(), Qt::Key_Return);
        QCOMPARE(editor->utf8_text(), std::string("1 two 1 three one\n"));
        QVERIFY(s.round_trip());
        QCOMPARE(other.text(QStringLiteral("n.txt")), std::string("1 two 1 three one\n"));
        editor->undo();
        editor->undo();
        QCOMPARE(editor->utf8_text(), original);

        // Replace all: every match, one undo step, and the core has what the editor shows.
        bar->replace_field()->setText(QStringLiteral("uno"));
        bar->replace_all_button()->click();
        QCOMPARE(editor->utf8_text(), std::string("uno two uno three uno\n"));
        QCOMPARE(bar->status(), QStringLiteral("Replaced 3"));
        QVERIFY(s.round_trip());
        QCOMPARE(other.text(QStringLiteral("n.txt")), std::string("uno two uno three uno\n"));
        QTRY_VERIFY(s.window.editors()->is_dirty(QStringLiteral("n.txt")));
        editor->undo();
        QCOMPARE(editor->utf8_text(), original);
        QVERIFY(s.round_trip());
        QCOMPARE(other.text(QStringLiteral("n.txt")), original);

        // A regular expression's groups in the replacement.
        bar->regex_toggle()->click();
        bar->find_field()->setText(QStringLiteral("(t)(\\w+)"));
        bar->replace_field()->setText(QStringLiteral("\\2\\1"));
        bar->replace_all();
        QCOMPARE(editor->utf8_text(), std::string("one wot one hreet one\n"));
        QVERIFY(s.round_trip());
        QCOMPARE(other.text(QStringLiteral("n.txt")), std::string("one wot one hreet one\n"));
    }

    void go_to_line_moves_the_cursor() {
        TempProject project;
        QByteArray text;
        for (int i = 1; i <= 300; ++i)
            text += "line " + QByteArray::number(i) + "\n";
        project.write("long.txt", text);
        Session s(project);
        QVERIFY(s.settle());
        CodeEditor* editor = s.open(QStringLiteral("long.txt"));
        QVERIFY(editor);
        GoToLineBar* bar = s.window.centre()->go_to_line_bar();

        s.press(Qt::Key_G, Qt::ControlModifier);
        QVERIFY(bar->isVisible());
        QVERIFY(bar->field()->hasFocus());
        QTest::keyClicks(bar->field(), QStringLiteral("x1"));
        s.press(Qt::Key_Return);
        QVERIFY(bar->isVisible()); // not a line: it says so and stays
        QCOMPARE(bar->status(), QStringLiteral("Type a line number, or line:column"));
        bar->field()->clear();
        QTest::keyClicks(bar->field(), QStringLiteral("200:4"));
        s.press(Qt::Key_Return);
        QVERIFY(bar->isHidden());
        QVERIFY(editor->hasFocus());
        int line = 0, index = 0;
        editor->getCursorPosition(&line, &index);
        QCOMPARE(line, 199);
        QCOMPARE(index, 3);
        // In the middle of the view.
        const long on_screen = editor->SendScintilla(QsciScintillaBase::SCI_LINESONSCREEN);
        QVERIFY(on_screen > 2);
        QCOMPARE(editor->firstVisibleLine(), static_cast<int>(199 - on_screen / 2));

        s.press(Qt::Key_G, Qt::ControlModifier);
        QTest::keyClicks(bar->field(), QStringLiteral("9999"));
        s.press(Qt::Key_Return); // held to the file
        editor->getCursorPosition(&line, &index);
        QCOMPARE(line, 300); // the empty line after the last newline
        s.press(Qt::Key_G, Qt::ControlModifier);
        QTest::keyClicks(bar->field(), QStringLiteral("3:99"));
        s.press(Qt::Key_Return); // held to the line
        editor->getCursorPosition(&line, &index);
        QCOMPARE(line, 2);
        QCOMPARE(index, 6);
        QCOMPARE(parse_line_column(QStringLiteral(" 12 : 5 "))->column, 5);
        QVERIFY(!parse_line_column(QStringLiteral("0")));
        QVERIFY(!parse_line_column(QStringLiteral("1:2:3")));
    }

    void escape_closes_the_bar_and_returns_focus() {
        TempProject project;
        project.write("e.txt", "find me\n");
        Session s(project);
        QVERIFY(s.settle());
        CodeEditor* editor = s.open(QStringLiteral("e.txt"));
        QVERIFY(editor);
        s.press(Qt::Key_F, Qt::ControlModifier);
        QVERIFY(s.bar()->isVisible());
        QTest::keyClicks(s.bar()->find_field(), QStringLiteral("me"));
        s.press(Qt::Key_Escape);
        QVERIFY(s.bar()->isHidden());
        QVERIFY(editor->hasFocus());
        QCOMPARE(editor->selectedText(), QStringLiteral("me")); // the match stays selected
        // Ctrl+F again starts from the selection; Esc from a toggle closes it too.
        s.press(Qt::Key_F, Qt::ControlModifier);
        QCOMPARE(s.bar()->find_field()->text(), QStringLiteral("me"));
        s.bar()->case_toggle()->setFocus();
        s.press(Qt::Key_Escape);
        QVERIFY(s.bar()->isHidden());
        QVERIFY(editor->hasFocus());
        // Typed in the editor while the bar is open, as in VS Code: the bar closes.
        s.press(Qt::Key_F, Qt::ControlModifier);
        editor->setFocus();
        QVERIFY(s.bar()->isVisible());
        s.press(Qt::Key_Escape);
        QVERIFY(s.bar()->isHidden());
        QVERIFY(editor->hasFocus());
        QCOMPARE(editor->selectedText(), QStringLiteral("me"));
    }

    void edit_menu_has_find_replace_and_go_to_line() {
        TempProject project;
        Session s(project);
        QVERIFY(s.settle());
        const QString edit = QStringLiteral("E&dit"); // Alt+E is the approval bar's
        QAction* find = menu_action(s.window, edit, QStringLiteral("&Find…"));
        QVERIFY(find);
        QCOMPARE(find->shortcut(), QKeySequence(QKeySequence::Find));
        QCOMPARE(menu_action(s.window, edit, QStringLiteral("Find &Next"))->shortcut(),
                 QKeySequence(Qt::Key_F3));
        QCOMPARE(menu_action(s.window, edit, QStringLiteral("Find &Previous"))->shortcut(),
                 QKeySequence(Qt::SHIFT | Qt::Key_F3));
        QCOMPARE(menu_action(s.window, edit, QStringLiteral("&Replace…"))->shortcut(),
                 QKeySequence(Qt::CTRL | Qt::Key_H));
        QCOMPARE(menu_action(s.window, edit, QStringLiteral("&Go to Line…"))->shortcut(),
                 QKeySequence(Qt::CTRL | Qt::Key_G));
        // With no file open there is nothing to search: the bar stays away.
        find->trigger();
        QVERIFY(s.bar()->isHidden());
    }

    // Issue 46: the Edit menu has what people reach for, acting on what has the keyboard:
    // the code, then the find field.
    void edit_menu_undoes_and_moves_text_through_the_clipboard() {
        TempProject project;
        project.write("a.txt", "alpha\n");
        Session s(project);
        QVERIFY(s.settle());
        const QString edit = QStringLiteral("E&dit");
        const std::pair<const char*, QKeySequence::StandardKey> expected[] = {
            {"&Undo", QKeySequence::Undo},   {"&Redo", QKeySequence::Redo},
            {"Cu&t", QKeySequence::Cut},     {"&Copy", QKeySequence::Copy},
            {"&Paste", QKeySequence::Paste}, {"Select &All", QKeySequence::SelectAll}};
        for (const auto& [text, key] : expected) {
            QAction* action = menu_action(s.window, edit, QString::fromUtf8(text));
            QVERIFY2(action, text);
            QCOMPARE(action->shortcut(), QKeySequence(key));
        }
        auto run = [&](const char* text) {
            menu_action(s.window, edit, QString::fromUtf8(text))->trigger();
        };
        CodeEditor* editor = s.open(QStringLiteral("a.txt"));
        QVERIFY(editor);
        editor->setCursorPosition(0, 5);
        QTest::keyClicks(editor, QStringLiteral(" beta"));
        QCOMPARE(editor->text(), QStringLiteral("alpha beta\n"));
        run("&Undo");
        QCOMPARE(editor->text(), QStringLiteral("alpha\n"));
        run("&Redo");
        QCOMPARE(editor->text(), QStringLiteral("alpha beta\n"));
        run("Select &All");
        QCOMPARE(editor->selectedText(), QStringLiteral("alpha beta\n"));
        editor->setSelection(0, 0, 0, 5);
        run("Cu&t");
        QCOMPARE(editor->text(), QStringLiteral(" beta\n"));
        QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("alpha"));
        editor->setCursorPosition(0, 5);
        run("&Paste");
        QCOMPARE(editor->text(), QStringLiteral(" betaalpha\n"));
        s.press(Qt::Key_F, Qt::ControlModifier);
        QTRY_VERIFY(s.bar()->find_field()->hasFocus());
        run("&Paste");
        QCOMPARE(s.bar()->find_field()->text(), QStringLiteral("alpha"));
    }

    void find_in_plan_view_selects_text() {
        TempProject project;
        Session s(project);
        QVERIFY(s.settle());
        auto* plan = new PlanView;
        s.window.centre()->show_view(plan);
        plan->show_plan(QStringLiteral("Flags"), QString(),
                        QStringLiteral("# Add a flag\n\nThe **verbose** flag.\n\n"
                                       "- parse `--verbose`\n- Verbose logs\n"));
        plan->setFocus();

        s.press(Qt::Key_H, Qt::ControlModifier); // read-only: no replace field
        FindBar* bar = s.bar();
        QVERIFY(bar->isVisible());
        QVERIFY(!bar->replace_field()->isVisible());
        QTest::keyClicks(bar->find_field(), QStringLiteral("verbose"));
        MarkdownView* body = plan->body();
        QCOMPARE(body->textCursor().selectedText(), QStringLiteral("verbose"));
        QCOMPARE(bar->status(), QStringLiteral("1 of 3"));
        const int first = body->textCursor().selectionStart();
        s.press(Qt::Key_F3);
        QCOMPARE(bar->status(), QStringLiteral("2 of 3"));
        QVERIFY(body->textCursor().selectionStart() > first);
        bar->case_toggle()->click(); // the second is lower-case too: it stays
        QCOMPARE(bar->status(), QStringLiteral("2 of 2"));
        bar->find_next(); // wraps past "Verbose"
        QCOMPARE(body->textCursor().selectionStart(), first);
        QCOMPARE(bar->status(), QStringLiteral("1 of 2"));
        bar->case_toggle()->click();
        bar->regex_toggle()->click();
        bar->find_field()->setText(QStringLiteral("V\\w+ l"));
        bar->find_next();
        QCOMPARE(body->textCursor().selectedText(), QStringLiteral("Verbose l"));

        s.press(Qt::Key_Escape);
        QVERIFY(bar->isHidden());
        QVERIFY(body->hasFocus());
        QCOMPARE(s.window.centre()->current_view(), plan); // Esc closed the bar, not the plan
    }

    void find_in_manual_and_bar_follows_the_view() {
        TempProject project;
        project.write("m.txt", "manual\n");
        Session s(project);
        QVERIFY(s.settle());
        CodeEditor* editor = s.open(QStringLiteral("m.txt"));
        QVERIFY(editor);
        s.press(Qt::Key_F1);
        ManualView* manual = s.window.manual();
        QVERIFY(manual);
        s.press(Qt::Key_F, Qt::ControlModifier);
        QTest::keyClicks(s.bar()->find_field(), QStringLiteral("manual"));
        QCOMPARE(manual->body()->textCursor().selectedText().toLower(), QStringLiteral("manual"));
        QVERIFY(s.bar()->status().contains(QLatin1String(" of ")));
        QCOMPARE(editor->selectedText(), QString()); // the editor underneath is not searched

        // Back to the editor with the bar open: it searches the editor now.
        s.press(Qt::Key_Escape); // the bar
        s.press(Qt::Key_F, Qt::ControlModifier);
        QVERIFY(s.bar()->isVisible());
        manual->body()->setFocus();
        s.press(Qt::Key_Escape); // the manual: Esc in its page closes it
        QCOMPARE(s.window.centre()->current_view(), s.window.editors());
        QVERIFY(s.bar()->isVisible());
        QCOMPARE(s.bar()->target()->widget(), static_cast<QWidget*>(editor));
        s.bar()->find_next();
        QCOMPARE(editor->selectedText(), QStringLiteral("manual"));
    }
};

QTEST_MAIN(FindTest)
#include "find_test.moc"
