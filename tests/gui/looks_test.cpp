// How the window looks and is reached by keyboard: View ▸ Theme (light, dark, the desktop's)
// colours the code, its lexer, the plan and the bars; every dialog and bar gives each of its
// buttons an Alt+letter of its own.
#include "gui/approval_bar.hpp"
#include "gui/centre_area.hpp"
#include "gui/chat_dock.hpp"
#include "gui/chat_transcript.hpp"
#include "gui/code_editor.hpp"
#include "gui/compare_view.hpp"
#include "gui/editor_area.hpp"
#include "gui/file_commands.hpp"
#include "gui/main_window.hpp"
#include "gui/markdown_view.hpp"
#include "gui/plan_view.hpp"
#include "gui/prompts.hpp"
#include "gui/review_flow.hpp"
#include "gui/settings_dialog.hpp"
#include "gui/theme.hpp"
#include "gui/trust_bar.hpp"
#include "tests/gui/gui_support.hpp"

#include <QApplication>
#include <QInputDialog>
#include <QLineEdit>
#include <QListWidget>
#include <QMap>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QStyle>
#include <QTabBar>
#include <QTest>
#include <QTextCursor>
#include <QTextDocument>
#include <Qsci/qscilexercpp.h>
#include <memory>

using namespace rio;
using namespace rio::gui;
using namespace rio::gui::test;

namespace {

const QColor cpp_keyword_light(0x00, 0x00, 0x7f); // QsciLexerCPP's own

// Scintilla keeps colours as 0xBBGGRR.
QColor scintilla_colour(long bgr) {
    return QColor(bgr & 0xff, (bgr >> 8) & 0xff, (bgr >> 16) & 0xff);
}

// What Scintilla paints the text area with: the default style's paper (STYLE_DEFAULT), and
// the colour of names (identifiers: style 11 in the C++ and Python lexers) — whether a lexer
// or the editor set them.
QColor painted_paper(QsciScintilla& editor) {
    return scintilla_colour(editor.SendScintilla(QsciScintillaBase::SCI_STYLEGETBACK, 32UL, 0L));
}
QColor painted_text(QsciScintilla& editor) {
    return scintilla_colour(editor.SendScintilla(QsciScintillaBase::SCI_STYLEGETFORE, 11UL, 0L));
}

// View ▸ Theme ▸ `text`.
QAction* theme_action(MainWindow& window, const QString& text) {
    QAction* themes = menu_action(window, QStringLiteral("&View"), QStringLiteral("&Theme"));
    if (!themes || !themes->menu()) return nullptr;
    for (QAction* theme : themes->menu()->actions())
        if (theme->text() == text) return theme;
    return nullptr;
}

// A button's Alt+letter: the one its text underlines, or the shortcut it was given.
QString mnemonic(const QAbstractButton& button) {
    QKeySequence keys = QKeySequence::mnemonic(button.text());
    if (keys.isEmpty()) keys = button.shortcut();
    return keys.toString();
}

// Every Alt+letter a window answers to while it looks as it does now: its menu bar's, its
// tabs', its visible buttons'. Two owners of one letter are a failure, named.
QString clashes(QWidget& window) {
    QMap<QString, QStringList> owners;
    if (auto* main = qobject_cast<QMainWindow*>(&window))
        for (QAction* menu : main->menuBar()->actions())
            if (const QString keys = QKeySequence::mnemonic(menu->text()).toString();
                !keys.isEmpty())
                owners[keys] << QStringLiteral("menu ") + menu->text();
    for (QTabBar* tabs : window.findChildren<QTabBar*>())
        if (tabs->isVisible())
            for (int i = 0; i < tabs->count(); ++i)
                if (const QString keys = QKeySequence::mnemonic(tabs->tabText(i)).toString();
                    !keys.isEmpty())
                    owners[keys] << QStringLiteral("tab ") + tabs->tabText(i);
    for (QAbstractButton* button : window.findChildren<QAbstractButton*>())
        if (button->isVisible())
            if (const QString keys = mnemonic(*button); !keys.isEmpty())
                owners[keys] << button->text();
    QStringList out;
    for (auto it = owners.cbegin(); it != owners.cend(); ++it)
        if (it.value().size() > 1) out << it.key() + QStringLiteral(": ") + it.value().join(", ");
    return out.join(QStringLiteral("; "));
}

// The push buttons in `parts` that have no Alt+letter.
QString without_mnemonic(const QList<QWidget*>& parts) {
    QStringList out;
    for (QWidget* part : parts)
        for (QPushButton* button : part->findChildren<QPushButton*>())
            if (button->isVisible() && mnemonic(*button).isEmpty()) out << button->text();
    return out.join(QStringLiteral(", "));
}

// A box built the way rio asks: every button has its own letter.
QString box_problems(QDialog* box) {
    box->show();
    QString problems = without_mnemonic({box});
    if (const QString twice = clashes(*box); !twice.isEmpty()) problems += twice;
    delete box;
    return problems;
}

} // namespace

class LooksTest : public QObject {
    Q_OBJECT
private slots:
    // Issue 15 item 7: the dark theme reaches the code, its lexer, the plan and the bars, and
    // the light one brings each back.
    void dark_theme_colours_code_plan_and_bars_and_back() {
        TempProject project;
        project.write("main.cpp", "int main() {\n    return 0; // done\n}\n");
        WindowSession s(project);
        QVERIFY(s.settle());
        CodeEditor* editor = s.open(QStringLiteral("main.cpp"));
        QVERIFY(editor);
        auto* lexer = qobject_cast<QsciLexerCPP*>(editor->lexer());
        QVERIFY(lexer);
        PlanView* plan = s.window.chat()->review()->plan_view();
        plan->show_plan(QStringLiteral("Plan"), QString(),
                        QStringLiteral("Some **text** and `code`.\n\n```\nint x;\n```\n"), false);
        QSignalSpy changed(&s.window, &MainWindow::theme_changed);

        QCOMPARE(painted_paper(*editor), QColor(Qt::white));
        QCOMPARE(lexer->color(QsciLexerCPP::Keyword), cpp_keyword_light);
        QVERIFY(plan->body()->look().text.lightness() < 80);

        QAction* dark = theme_action(s.window, QStringLiteral("&Dark"));
        QVERIFY(dark);
        dark->trigger();
        QCOMPARE(s.window.theme(), Theme::dark);
        QVERIFY(dark->isChecked());
        QCOMPARE(changed.count(), 1);
        QCOMPARE(QApplication::style()->name().toLower(), QStringLiteral("fusion"));
        QVERIFY(is_dark(QApplication::palette()));
        const ThemeColours colours = theme_colours();
        QVERIFY(colours.dark);
        // The code: paper, text, a keyword (the same hue, light now), the margin, the caret line.
        QCOMPARE(painted_paper(*editor), colours.paper);
        QVERIFY(colours.paper.lightness() < 60);
        QCOMPARE(painted_text(*editor), colours.text);
        const QColor keyword = lexer->color(QsciLexerCPP::Keyword);
        QVERIFY2(keyword.lightness() > 140, qPrintable(keyword.name()));
        QCOMPARE(keyword.hslHue(), cpp_keyword_light.hslHue());
        QCOMPARE(lexer->paper(QsciLexerCPP::Keyword), colours.paper);
        QVERIFY(lexer->color(QsciLexerCPP::CommentLine).lightness() > 120);
        QCOMPARE(scintilla_colour(editor->SendScintilla(QsciScintillaBase::SCI_STYLEGETBACK,
                                                        QsciLexerCPP::Keyword, 0L)),
                 colours.paper); // what Scintilla paints with, not only what the lexer says
        QCOMPARE(scintilla_colour(editor->SendScintilla(QsciScintillaBase::SCI_STYLEGETBACK, 33UL,
                                                        0L)), // STYLE_LINENUMBER
                 colours.margin_background);
        // The plan: its text and its code block's paper.
        QTRY_COMPARE(plan->body()->palette().color(QPalette::Text), colours.text); // posted
        QCOMPARE(plan->body()->look().text, colours.text);
        QVERIFY(plan->body()->look().code_background.lightness() < 60);
        // The bars.
        QVERIFY(s.window.chat()->review()->bar()->styleSheet().contains(
            colours.attention_background.name()));
        QVERIFY(
            s.window.chat()->transcript()->styleSheet().contains(colours.user_background.name()));

        theme_action(s.window, QStringLiteral("&Light"))->trigger();
        QCOMPARE(changed.count(), 2);
        QCOMPARE(changed.last().at(0).value<Theme>(), Theme::light);
        QVERIFY(!is_dark(QApplication::palette()));
        QCOMPARE(painted_paper(*editor), QColor(Qt::white));
        QCOMPARE(painted_text(*editor), QColor(Qt::black));
        QCOMPARE(lexer->color(QsciLexerCPP::Keyword), cpp_keyword_light);
        QCOMPARE(lexer->paper(QsciLexerCPP::Keyword), lexer->defaultPaper(QsciLexerCPP::Keyword));
        QVERIFY(plan->body()->look().text.lightness() < 80);
        QTRY_VERIFY(plan->body()->palette().color(QPalette::Text).lightness() < 80);
    }

    // "System" leaves the desktop's palette in place and follows it when the desktop switches.
    void system_theme_follows_the_desktops_palette() {
        TempProject project;
        project.write("a.py", "x = 1\n");
        WindowSession s(project);
        QVERIFY(s.settle());
        CodeEditor* editor = s.open(QStringLiteral("a.py"));
        QVERIFY(editor);
        const QPalette desktop = QApplication::palette();
        s.window.set_theme(Theme::dark);
        QVERIFY(painted_paper(*editor).lightness() < 60);
        s.window.set_theme(Theme::system);
        QVERIFY(theme_action(s.window, QStringLiteral("&System"))->isChecked());
        QCOMPARE(QApplication::palette().color(QPalette::Window), desktop.color(QPalette::Window));
        QVERIFY(painted_paper(*editor).lightness() > 200);

        // The desktop turns dark (as a platform theme does, through the application palette).
        QPalette night = desktop;
        night.setColor(QPalette::Window, QColor(0x30, 0x30, 0x30));
        night.setColor(QPalette::Base, QColor(0x20, 0x20, 0x20));
        night.setColor(QPalette::Text, QColor(0xe0, 0xe0, 0xe0));
        QApplication::setPalette(night);
        QCOMPARE(painted_paper(*editor), QColor(0x20, 0x20, 0x20));
        QCOMPARE(painted_text(*editor), QColor(0xe0, 0xe0, 0xe0));
        QVERIFY(editor->lexer()->color(1).lightness() > 120); // a comment, made to read
    }

    void dialogs_and_bars_give_each_button_its_own_mnemonic() {
        TempProject project;
        project.write(".rio/allow", "make test\n"); // untrusted: the trust bar asks
        project.write("a.txt", "a\n");
        WindowSession s(project);
        QVERIFY(s.settle());
        QTRY_VERIFY(s.window.trust_bar()->isVisible());

        // A plan waiting, its view in the centre with a comment beside it.
        ReviewFlow& review = *s.window.chat()->review();
        BarContent content;
        content.kind = gui::BarKind::plan;
        content.heading = QStringLiteral("Plan: Add a flag");
        content.approve_text = QStringLiteral("Approve");
        content.approve_menu = content.edit_plan = content.show_plan = true;
        review.bar()->show_proposal(content);
        PlanView* plan = review.plan_view();
        plan->show_plan(QStringLiteral("Add a flag"), QStringLiteral(".rio/plans/flag.md"),
                        QStringLiteral("Add a flag to the command.\n"));
        s.window.centre()->show_view(plan);
        plan->body()->setTextCursor(plan->body()->document()->find(QStringLiteral("a flag")));
        QVERIFY(plan->start_comment());
        QTest::keyClicks(plan->comment_field(), QStringLiteral("Which flag?"));
        QTest::keyClick(plan->comment_field(), Qt::Key_Return);
        QVERIFY(plan->comment_list()->isVisible());

        const QList<QWidget*> bars{s.window.trust_bar(), review.bar(),
                                   plan->comment_list()->parentWidget()};
        QCOMPARE(without_mnemonic(bars), QString());
        QVERIFY(plan->comment_button()->isVisible());
        QVERIFY(!mnemonic(*plan->comment_button()).isEmpty());
        QCOMPARE(clashes(s.window), QString());

        // An edit and a command wait in their turn.
        content.kind = gui::BarKind::edit;
        content.approve_menu = content.edit_plan = content.show_plan = false;
        content.compare = true;
        review.bar()->show_proposal(content);
        QCOMPARE(without_mnemonic(bars), QString());
        QCOMPARE(clashes(s.window), QString());
        content.kind = gui::BarKind::command;
        content.approve_text = QStringLiteral("Run");
        content.compare = false;
        review.bar()->show_proposal(content);
        QCOMPARE(mnemonic(*review.bar()->approve_button()), QStringLiteral("Alt+A"));
        QCOMPARE(clashes(s.window), QString());

        // Settings, and every question asked in a box of its own.
        s.window.show_mcp_servers();
        SettingsDialog* settings = s.window.settings();
        QVERIFY(QTest::qWaitForWindowExposed(settings));
        QCOMPARE(without_mnemonic({settings}), QString());
        QCOMPARE(clashes(*settings), QString());
        settings->close();

        QWidget* w = &s.window;
        QCOMPARE(box_problems(unsaved_file_prompt(w, QStringLiteral("a.txt"))), QString());
        QCOMPARE(box_problems(unsaved_files_prompt(w, {QStringLiteral("a.txt")})), QString());
        QCOMPARE(box_problems(drop_unsaved_prompt(w, QStringLiteral("/tmp/x"))), QString());
        QCOMPARE(box_problems(overwrite_changed_prompt(w, QStringLiteral("a.txt"))), QString());
        QCOMPARE(box_problems(replace_file_prompt(w, QStringLiteral("a.txt"))), QString());
        s.window.file_commands()->new_file(QString());
        QCOMPARE(box_problems(s.window.file_commands()->name_prompt()), QString());
        QVERIFY(s.open(QStringLiteral("a.txt")));
        s.window.file_commands()->save_as();
        QCOMPARE(box_problems(s.window.file_commands()->name_prompt()), QString());
    }
};

QTEST_MAIN(LooksTest)
#include "looks_test.moc"
