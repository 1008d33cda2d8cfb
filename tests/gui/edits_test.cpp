// Every change visible and reversible, review in the compare view, and a sign of progress
// (DESIGN §14, issue 15 items 2, 3 and 6), against a real rio-core whose model is the script
// provider: edit cards with their counts and diff, Undo per file and per turn (the bytes read
// back from disk), a refused undo naming the file, each proposed edit decided on the compare
// view, "approve the rest of this turn", and the working indicator with the turn's tokens.
#include "gui/change_cards.hpp"
#include "gui/code_editor.hpp"
#include "gui/command_card.hpp"
#include "gui/edit_card.hpp"
#include "gui/edit_decisions.hpp"
#include "gui/reason_field.hpp"
#include "gui/turn_summary.hpp"
#include "gui/working_indicator.hpp"
#include "tests/gui/agent_support.hpp"

#include <QApplication>
#include <QClipboard>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QTest>
#include <QTextBlock>
#include <QToolButton>
#include <Qsci/qsciscintilla.h>
#include <algorithm>

using namespace rio;
using namespace rio::gui;
using namespace rio::gui::test;

namespace {

const QByteArray greet = "def greeting(name):\n    return f\"Hello, {name}!\"\n";

Json hi_step() {
    return edit_step("greet.py", "Hello", "Hi");
}

// a.txt's "alpha" and b.txt's "beta" in capitals, and perhaps a new pkg/new.txt, in one step.
Json capitals_step(bool with_new_file) {
    std::vector<Json> tools{
        tool("edit_file", {{"path", "a.txt"}, {"old_string", "alpha"}, {"new_string", "ALPHA"}}),
        tool("edit_file", {{"path", "b.txt"}, {"old_string", "beta"}, {"new_string", "BETA"}})};
    if (with_new_file)
        tools.push_back(tool("create_file", {{"path", "pkg/new.txt"}, {"content", "n\n"}}));
    return step(std::move(tools));
}

// The cards the chat shows once there are `count` of them.
std::vector<EditCard*> wait_for_cards(Agent& s, std::size_t count) {
    std::vector<EditCard*> cards;
    const bool enough = QTest::qWaitFor(
        [&] {
            cards = s.chat().changes()->cards();
            return cards.size() >= count;
        },
        5000);
    return enough ? cards : std::vector<EditCard*>{};
}

bool turn_ended(Agent& s) {
    return QTest::qWaitFor(
        [&] { return !s.chat().session().state().busy && s.core.pending() == 0; }, 5000);
}

// The window started in Auto, `text` sent, and the cards once the turn ended (empty if it
// did not, or showed fewer than `count`).
std::vector<EditCard*> auto_turn(Agent& s, const char* text, std::size_t count) {
    if (!s.start() || !s.set_mode("build", true)) return {};
    s.send(QString::fromUtf8(text));
    std::vector<EditCard*> cards = wait_for_cards(s, count);
    // A widget joins a shown layout on a queued call: drained, the cards are on screen.
    if (cards.size() < count || !turn_ended(s) || !drain_events()) return {};
    return cards;
}

QColor background_of_line(const QPlainTextEdit& view, int line) {
    return view.document()->findBlockByNumber(line).blockFormat().background().color();
}

} // namespace

class EditsTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(keep_home_private(home_)); }

    void an_applied_edit_is_a_card_that_unfolds_to_its_diff() {
        TempProject project;
        project.write("greet.py", greet);
        Agent s(project, Json::array({hi_step(), text_step("Done.")}));
        std::vector<EditCard*> cards = auto_turn(s, "shorter greeting", 1);
        QCOMPARE(cards.size(), std::size_t{1});
        EditCard* card = cards.front();
        QCOMPARE(card->summary(), QStringLiteral("greet.py · +1 −1 · edited"));
        // The card took the place of the "› edit greet.py" line.
        QCOMPARE(s.transcript().texts_of(ChatTranscript::Entry::edit),
                 QStringList{card->summary()});
        QVERIFY(s.transcript().texts_of(ChatTranscript::Entry::tool).isEmpty());

        QVERIFY(!card->expanded());
        QVERIFY(card->diff_view()->isHidden());
        click(card->toggle());
        QVERIFY(card->expanded());
        QVERIFY(card->diff_view()->isVisible());
        const QStringList lines = card->diff_lines();
        QCOMPARE(lines, (QStringList{QStringLiteral("@@ -1,2 +1,2 @@"),
                                     QStringLiteral(" def greeting(name):"),
                                     QStringLiteral("-    return f\"Hello, {name}!\""),
                                     QStringLiteral("+    return f\"Hi, {name}!\"")}));
        QCOMPARE(background_of_line(*card->diff_view(), 2), QColor(0xfb, 0xe0, 0xe0));
        QCOMPARE(background_of_line(*card->diff_view(), 3), QColor(0xdf, 0xf5, 0xdf));
        // From the keyboard: Enter and Space on the file's name fold and unfold it.
        card->toggle()->setFocus();
        QTest::keyClick(card->toggle(), Qt::Key_Return);
        QVERIFY(!card->expanded());
        QTest::keyClick(card->toggle(), Qt::Key_Space);
        QVERIFY(card->expanded());
    }

    // Issue 32 item 2: what a command printed is in its card, its end in view, and copied.
    void a_command_is_a_card_that_unfolds_to_what_it_printed() {
        TempProject project;
        const char* program = "import sys\n"
                              "for i in range(40): print('line', i)\n"
                              "print('\\x1b[31mFAIL: test_x\\x1b[0m', file=sys.stderr)\n"
                              "sys.exit(1)\n";
        Agent s(project,
                Json::array({step({tool("run_command",
                                        {{"argv", {"python3", "-c", program}}, {"cwd", "."}})}),
                             text_step("It failed.")}));
        QVERIFY(s.start());
        QVERIFY(s.set_mode("build", false));
        s.send(QStringLiteral("run the tests"));
        QVERIFY(s.proposal_shown(QStringLiteral("Run this command?")));
        click(s.bar().approve_button());
        QVERIFY(turn_ended(s));
        QVERIFY(drain_events());
        const QList<CommandCard*> cards = s.transcript().findChildren<CommandCard*>();
        QCOMPARE(cards.size(), 1);
        CommandCard* card = cards.front();
        QVERIFY2(card->summary().startsWith(QStringLiteral("$ python3 -c ")),
                 qPrintable(card->summary()));
        QVERIFY2(card->summary().contains(QStringLiteral(" · ✗ exit code 1 · ")),
                 qPrintable(card->summary()));
        QCOMPARE(s.transcript().texts_of(ChatTranscript::Entry::command),
                 QStringList{card->summary()});
        QVERIFY(s.transcript().texts_of(ChatTranscript::Entry::tool).isEmpty());
        // Issue 46: the command keeps its start in view and the card never holds the chat
        // wider than its column, however long the outcome's words.
        QVERIFY2(card->toggle()->text().startsWith(QStringLiteral("▸ $ python3 -c ")),
                 qPrintable(card->toggle()->text()));
        QVERIFY2(card->minimumSizeHint().width() <= 240,
                 qPrintable(QString::number(card->minimumSizeHint().width())));
        QVERIFY2(
            card->width() <= card->parentWidget()->width(),
            qPrintable(
                QStringLiteral("%1 > %2").arg(card->width()).arg(card->parentWidget()->width())));

        QVERIFY(card->output_view()->isHidden());
        click(card->toggle());
        QVERIFY(card->expanded());
        QVERIFY(card->output_view()->isVisible());
        const QString shown = card->output_view()->toPlainText();
        QVERIFY2(shown.startsWith(QStringLiteral("line 0\nline 1\n")), qPrintable(shown));
        QVERIFY2(shown.endsWith(QStringLiteral("line 39\nFAIL: test_x")), qPrintable(shown));
        QVERIFY2(!shown.contains(QChar(0x1b)), "escape sequences are taken out");
        // Long output scrolls in its own view, its end in view first.
        QScrollBar* bar = card->output_view()->verticalScrollBar();
        QVERIFY(bar->maximum() > 0);
        QCOMPARE(bar->value(), bar->maximum());
        click(card->copy_button());
        QCOMPARE(QApplication::clipboard()->text(), card->output());
        QVERIFY(card->output().endsWith(QStringLiteral("FAIL: test_x\n")));
    }

    // Issue 32 item 7: an unfolded card stays in view, and a send follows the conversation.
    void an_unfolding_card_stays_in_view() {
        TempProject project;
        QByteArray table;
        for (int i = 0; i < 120; ++i)
            table += "row " + QByteArray::number(i) + "\n";
        project.write("table.txt", table);
        // Twenty edits of five rows each: each card unfolds to a diff of some fifteen lines.
        std::vector<Json> tools;
        for (int block = 0; block < 20; ++block) {
            std::string old_rows, new_rows;
            for (int i = block * 6; i < block * 6 + 5; ++i) {
                old_rows += "row " + std::to_string(i) + "\n";
                new_rows += "ROW " + std::to_string(i) + "\n";
            }
            tools.push_back(
                tool("edit_file",
                     {{"path", "table.txt"}, {"old_string", old_rows}, {"new_string", new_rows}}));
        }
        Agent s(project, Json::array({step(tools), text_step("Done.")}));
        s.window.resize(1200, 600);
        std::vector<EditCard*> cards = auto_turn(s, "capitals", 20);
        QCOMPARE(cards.size(), std::size_t{20});
        QScrollArea& chat = s.transcript();
        QScrollBar* bar = chat.verticalScrollBar();
        QTRY_VERIFY(bar->maximum() > 0);
        QTRY_COMPARE(bar->value(), bar->maximum()); // following the newest entry
        // The highest card in view, unfolded: it grows downwards into view, its top stays.
        const auto top_of = [&](QWidget* card) {
            return card->mapTo(chat.viewport(), QPoint()).y();
        };
        EditCard* card = nullptr;
        for (EditCard* c : cards)
            if (!card && top_of(c) >= 0) card = c;
        QVERIFY(card);
        click(card->toggle());
        QVERIFY(card->expanded());
        QVERIFY(drain_events());
        const auto in_view = [&] {
            const int room = chat.viewport()->height();
            // All of it when it fits; else its top, at the top (a list's spacing above it).
            return top_of(card) >= 0 &&
                   (card->height() > room ? top_of(card) <= 10
                                          : top_of(card) + card->height() <= room);
        };
        QTRY_VERIFY2(in_view(), qPrintable(QStringLiteral("top %1, height %2, view %3")
                                               .arg(top_of(card))
                                               .arg(card->height())
                                               .arg(chat.viewport()->height())));
        // Sending follows the conversation again, from wherever the chat was.
        bar->setValue(0);
        s.chat().send_message(QStringLiteral("more"));
        QTRY_COMPARE(bar->value(), bar->maximum());
    }

    // Issue 32 item 8: Ctrl+Z after "Undo this turn" does not bring the agent's text back.
    void ctrl_z_after_undo_this_turn_leaves_the_text_as_undone() {
        TempProject project;
        project.write("a.txt", "alpha\n");
        project.write("b.txt", "beta\n");
        Agent s(project, Json::array({capitals_step(false), text_step("Done.")}));
        QVERIFY(s.start());
        s.window.editors()->open(QStringLiteral("a.txt"));
        QTRY_VERIFY(s.window.editors()->editor(QStringLiteral("a.txt")));
        CodeEditor* editor = s.window.editors()->editor(QStringLiteral("a.txt"));
        QVERIFY(s.set_mode("build", true));
        s.send(QStringLiteral("capitals"));
        std::vector<EditCard*> cards = wait_for_cards(s, 2);
        QCOMPARE(cards.size(), std::size_t{2});
        QVERIFY(turn_ended(s));
        QTRY_COMPARE(editor->utf8_text(), std::string("ALPHA\n"));
        click(s.chat().changes()->summary(cards.front()->applied().turn)->undo_button());
        QTRY_COMPARE(project.read("a.txt"), QByteArray("alpha\n"));
        QTRY_COMPARE(editor->utf8_text(), std::string("alpha\n"));
        editor->setFocus();
        // Each press looked at: a second one would walk the agent's edit back too, and two
        // steps back from "alpha" is "alpha" again.
        QTest::keyClick(editor, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(editor->utf8_text(), std::string("alpha\n"));
        QTest::keyClick(editor, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(editor->utf8_text(), std::string("alpha\n"));
        QVERIFY(!round_trip(s.core).error);
        QCOMPARE(qstr(s.ask("buffer.text", {{"path", "a.txt"}}), "text"),
                 QStringLiteral("alpha\n"));
        QVERIFY(s.ask("buffer.text", {{"path", "a.txt"}})["dirty"] == Json(false));
        // Typing still undoes as ever.
        editor->setCursorPosition(0, 0);
        QTest::keyClicks(editor, QStringLiteral("x"));
        QCOMPARE(editor->utf8_text(), std::string("xalpha\n"));
        QTest::keyClick(editor, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(editor->utf8_text(), std::string("alpha\n"));
    }

    void compare_on_a_card_shows_the_whole_change() {
        TempProject project;
        QByteArray table;
        for (int i = 1; i <= 20; ++i)
            table += "row " + QByteArray::number(i) + "\n";
        project.write("table.txt", table);
        Agent s(project, Json::array({edit_step("table.txt", "row 12\n", "row twelve\n"),
                                      text_step("Done.")}));
        std::vector<EditCard*> cards = auto_turn(s, "spell out twelve", 1);
        QCOMPARE(cards.size(), std::size_t{1});
        click(cards.front()->compare_button());
        CompareView* view = s.chat().changes()->compare_view();
        QTRY_VERIFY(s.centre_view() == view);
        QVERIFY(view->header_text().contains(QStringLiteral("table.txt")));
        QVERIFY(!view->decidable());
        QVERIFY(view->decisions()->isHidden());
        QStringList before, after;
        for (const CompareRow& row : view->rows()) {
            if (row.left) before << row.left_text;
            if (row.right) after << row.right_text;
        }
        QCOMPARE(before.join('\n') + '\n', QString::fromUtf8(table));
        QCOMPARE(after.join('\n') + '\n',
                 QString::fromUtf8(table).replace(QStringLiteral("row 12\n"),
                                                  QStringLiteral("row twelve\n")));
        QTest::keyClick(view->right_editor(), Qt::Key_Escape);
        QVERIFY(s.shows_editors());
    }

    void undo_on_a_card_puts_the_files_bytes_back() {
        TempProject project;
        const QByteArray crlf_bom = "\xEF\xBB\xBF"
                                    "def greeting(name):\r\n    return f\"Hello, {name}!\"\r\n";
        project.write("greet.py", crlf_bom);
        Agent s(project, Json::array({hi_step(), text_step("Done.")}));
        std::vector<EditCard*> cards = auto_turn(s, "shorter greeting", 1);
        QCOMPARE(cards.size(), std::size_t{1});
        QVERIFY(project.read("greet.py").contains("Hi, {name}"));
        EditCard* card = cards.front();
        QCOMPARE(card->undo(), EditCard::Undo::possible);
        click(card->undo_button());
        QTRY_COMPARE(card->undo(), EditCard::Undo::done);
        QCOMPARE(project.read("greet.py"), crlf_bom);
        QVERIFY(card->undo_button()->isHidden());
        QCOMPARE(card->summary(), QStringLiteral("greet.py · +1 −1 · undone"));
        QCOMPARE(s.transcript().texts_of(ChatTranscript::Entry::edit),
                 QStringList{card->summary()});
        QVERIFY(s.transcript()
                    .texts_of(ChatTranscript::Entry::note)
                    .contains(QStringLiteral("Undone: put back greet.py")));
        QVERIFY(s.ask("agent.checkpoints")["turns"].empty());
    }

    void undo_this_turn_puts_back_every_file_it_changed() {
        TempProject project;
        project.write("a.txt", "alpha\n");
        project.write("b.txt", "beta\n");
        Agent s(project, Json::array({capitals_step(true), text_step("Done.")}));
        std::vector<EditCard*> cards = auto_turn(s, "capitals", 3);
        QCOMPARE(cards.size(), std::size_t{3});
        QCOMPARE(cards.back()->summary(), QStringLiteral("pkg/new.txt · +1 −0 · new file"));
        const std::uint64_t turn = cards.front()->applied().turn;
        TurnSummary* summary = s.chat().changes()->summary(turn);
        QVERIFY(summary);
        QCOMPARE(summary->text(), QStringLiteral("3 files changed"));
        QCOMPARE(s.transcript().texts_of(ChatTranscript::Entry::summary),
                 QStringList{summary->text()});
        QVERIFY(QFile::exists(project.path() + QStringLiteral("/pkg/new.txt")));

        click(summary->undo_button());
        QTRY_COMPARE(summary->undo_button()->text(), QStringLiteral("Undone"));
        QCOMPARE(project.read("a.txt"), QByteArray("alpha\n"));
        QCOMPARE(project.read("b.txt"), QByteArray("beta\n"));
        QVERIFY(!QFile::exists(project.path() + QStringLiteral("/pkg/new.txt")));
        QVERIFY(!QFile::exists(project.path() + QStringLiteral("/pkg")));
        QVERIFY(!summary->undo_button()->isEnabled());
        for (EditCard* card : cards)
            QCOMPARE(card->undo(), EditCard::Undo::done);
    }

    void an_undo_refused_after_an_outside_change_names_the_file_and_restores_nothing() {
        TempProject project;
        project.write("a.txt", "alpha\n");
        project.write("b.txt", "beta\n");
        Agent s(project, Json::array({capitals_step(false), text_step("Done.")}));
        std::vector<EditCard*> cards = auto_turn(s, "capitals", 2);
        QCOMPARE(cards.size(), std::size_t{2});
        project.write("b.txt", "someone else's beta\n");
        const std::uint64_t turn = cards.front()->applied().turn;
        click(s.chat().changes()->summary(turn)->undo_button());
        QTRY_VERIFY(!s.transcript().texts_of(ChatTranscript::Entry::error).isEmpty());
        const QString said = s.transcript().texts_of(ChatTranscript::Entry::error).last();
        QVERIFY2(said.startsWith(QStringLiteral("Nothing was undone")), qPrintable(said));
        QVERIFY2(said.contains(QStringLiteral("b.txt changed")), qPrintable(said));
        QVERIFY2(!said.contains(QStringLiteral("a.txt")), qPrintable(said));
        QCOMPARE(project.read("a.txt"), QByteArray("ALPHA\n"));
        QCOMPARE(project.read("b.txt"), QByteArray("someone else's beta\n"));
        for (EditCard* card : cards)
            QCOMPARE(card->undo(), EditCard::Undo::possible);
    }

    // Issue 46 item 2: the undo of a project's conversation goes and comes back with it.
    void another_project_takes_the_cards_and_coming_back_can_still_undo() {
        TempProject project;
        project.write("greet.py", greet);
        Agent s(project, Json::array({hi_step(), text_step("Done.")}));
        std::vector<EditCard*> cards = auto_turn(s, "shorter greeting", 1);
        QCOMPARE(cards.size(), std::size_t{1});
        const std::uint64_t turn = cards.front()->applied().turn;
        TempProject elsewhere;
        s.window.open_project(elsewhere.path());
        QTRY_VERIFY(s.chat().changes()->cards().empty());
        QTRY_VERIFY(s.transcript().texts_of(ChatTranscript::Entry::user).isEmpty());

        s.window.open_project(project.path());
        QTRY_VERIFY(s.chat().changes()->summary(turn));
        TurnSummary* summary = s.chat().changes()->summary(turn);
        QVERIFY(summary->text().contains(QStringLiteral("in turn 1")));
        QTRY_VERIFY(summary->undo_button()->isEnabled());
        click(summary->undo_button());
        QTRY_COMPARE(project.read("greet.py"), greet);
        // Clearing the conversation takes its rows with it.
        click(s.chat().clear_button());
        QTRY_VERIFY(!s.chat().changes()->summary(turn));
    }

    void a_later_window_shows_earlier_edits_without_offering_to_undo_them() {
        TempProject project;
        project.write("greet.py", greet);
        Agent s(project, Json::array({hi_step(), text_step("Done.")}));
        QCOMPARE(auto_turn(s, "shorter greeting", 1).size(), std::size_t{1});

        LateWindow late;
        QVERIFY(late.attach(project));
        const ChatTranscript& replayed = *late.window.chat()->transcript();
        // The history has the call and its result, not the change: a plain trace line.
        QCOMPARE(replayed.texts_of(ChatTranscript::Entry::tool),
                 QStringList{QStringLiteral("› edit greet.py")});
        QVERIFY(replayed.texts_of(ChatTranscript::Entry::edit).isEmpty());
    }

    void review_mode_shows_each_proposed_edit_in_the_compare_view() {
        TempProject project;
        project.write("greet.py", greet);
        Agent s(project,
                Json::array({hi_step(),
                             edit_step("greet.py", "def greeting(name):", "def greeting(who):"),
                             text_step("Done.")}));
        QVERIFY(s.start());
        QVERIFY(s.set_mode("build", false));
        s.send(QStringLiteral("shorter greeting"));
        // A one-line edit takes the centre by itself, with its decision on it.
        QTRY_VERIFY(s.centre_view() == s.compare_view());
        QVERIFY(s.proposal_shown(QStringLiteral("Edit greet.py")));
        QVERIFY(s.compare_view()->decidable());
        EditDecisions* decisions = s.compare_view()->decisions();
        QVERIFY(decisions->isVisible());
        QVERIFY(s.compare_view()->header_text().contains(QStringLiteral("greet.py")));
        QVERIFY(s.compare_view()->right_lines().contains(
            QStringLiteral("    return f\"Hi, {name}!\"")));
        click(decisions->approve_button());
        QTRY_VERIFY(project.read("greet.py").contains("Hi, {name}"));
        // The next edit shows itself too; the bar followed the decision made on the view.
        QTRY_VERIFY(pending_diff(s.review().pending()).contains(QStringLiteral("greeting(who)")));
        QTRY_VERIFY(s.centre_view() == s.compare_view());
        QVERIFY(s.compare_view()->right_lines().contains(QStringLiteral("def greeting(who):")));
        QCOMPARE(s.chat().changes()->cards().size(), std::size_t{1});
        // Deciding on the bar puts the view away as well.
        QVERIFY(s.proposal_shown(QStringLiteral("Edit greet.py")));
        click(s.bar().approve_button());
        QVERIFY(s.dismissed());
        QTRY_VERIFY(project.read("greet.py").contains("greeting(who)"));
    }

    void ctrl_enter_in_the_compare_view_approves() {
        TempProject project;
        project.write("greet.py", greet);
        Agent s(project, Json::array({hi_step(), text_step("Done.")}));
        QVERIFY(s.start());
        QVERIFY(s.activate());
        QVERIFY(s.set_mode("build", false));
        s.send(QStringLiteral("shorter greeting"));
        QTRY_VERIFY(s.centre_view() == s.compare_view());
        QVERIFY(s.proposal_shown(QStringLiteral("Edit greet.py")));
        QTRY_VERIFY(s.compare_view()->right_editor()->hasFocus());
        QTest::keyClick(s.compare_view()->right_editor(), Qt::Key_Return, Qt::ControlModifier);
        QTRY_VERIFY(project.read("greet.py").contains("Hi, {name}"));
        QVERIFY(s.dismissed());
    }

    void compare_view_reject_with_a_reason_reaches_the_core() {
        TempProject project;
        project.write("greet.py", greet);
        Agent s(project, Json::array({hi_step(), text_step("Understood.")}));
        QVERIFY(s.start());
        QVERIFY(s.set_mode("build", false));
        s.send(QStringLiteral("shorter greeting"));
        QTRY_VERIFY(s.centre_view() == s.compare_view());
        QVERIFY(s.proposal_shown(QStringLiteral("Edit greet.py")));
        EditDecisions* decisions = s.compare_view()->decisions();
        click(decisions->reject_button());
        QVERIFY(decisions->reason_field()->isVisible());
        QTRY_VERIFY(decisions->reason_field()->hasFocus());
        QTest::keyClicks(decisions->reason_field(), "keep Hello");
        QTest::keyClick(decisions->reason_field(), Qt::Key_Return);
        QVERIFY(s.dismissed());
        QTRY_VERIFY(s.transcript()
                        .texts_of(ChatTranscript::Entry::tool)
                        .join('\n')
                        .contains(QStringLiteral("You rejected it: keep Hello")));
        QCOMPARE(project.read("greet.py"), greet);
        // The model was told, in its own words.
        QTRY_VERIFY(s.provider_calls().size() >= 2);
        QVERIFY(s.provider_calls().back().dump().find("keep Hello") != std::string::npos);
    }

    void approving_the_rest_of_the_turn_stops_asking_for_its_edits_only() {
        TempProject project;
        for (const char* name : {"a", "b", "c", "d"})
            project.write(QString::fromLatin1(name) + ".txt", QByteArray(name) + "\n");
        Agent s(project, Json::array({edit_step("a.txt", "a", "A"), edit_step("b.txt", "b", "B"),
                                      step({tool("run_command", {{"argv", {"true"}}})}),
                                      edit_step("c.txt", "c", "C"), text_step("Done."),
                                      edit_step("d.txt", "d", "D"), text_step("Done again.")}));
        QVERIFY(s.start());
        QVERIFY(s.activate());
        QVERIFY(s.set_mode("build", false));
        s.send(QStringLiteral("capitals"));
        QTRY_VERIFY(s.centre_view() == s.compare_view());
        QVERIFY(s.proposal_shown(QStringLiteral("Edit a.txt")));
        QTRY_VERIFY(s.compare_view()->right_editor()->hasFocus());
        QTest::keyClick(s.compare_view()->right_editor(), Qt::Key_Return,
                        Qt::ControlModifier | Qt::ShiftModifier);
        // b.txt's edit goes through unasked; the command still waits on the bar.
        QVERIFY(s.proposal_shown(QStringLiteral("Run this command?")));
        QCOMPARE(project.read("b.txt"), QByteArray("B\n"));
        QCOMPARE(wait_for_cards(s, 2).size(), std::size_t{2});
        QVERIFY(s.shows_editors()); // nothing left to compare
        QVERIFY(s.transcript()
                    .texts_of(ChatTranscript::Entry::note)
                    .contains(QStringLiteral("Edit approved, and the rest of this turn's edits")));
        click(s.bar().approve_button());
        QTRY_COMPARE(project.read("c.txt"), QByteArray("C\n"));
        QVERIFY(turn_ended(s));
        QVERIFY(s.status()["auto_accept"] == false); // not turned on
        // The next turn asks again.
        s.send(QStringLiteral("and d"));
        QTRY_VERIFY(s.centre_view() == s.compare_view());
        QVERIFY(s.proposal_shown(QStringLiteral("Edit d.txt")));
        QCOMPARE(project.read("d.txt"), QByteArray("d\n"));
    }

    void the_working_indicator_says_what_the_agent_is_doing() {
        TempProject project;
        project.write("greet.py", greet);
        Agent s(project, Json::array({step({tool("read_file", {{"path", "greet.py"}})}, "Looking."),
                                      step({tool("run_command", {{"argv", {"true"}}})}),
                                      text_step("Done.")}));
        QVERIFY(s.start());
        QVERIFY(s.set_mode("build", false));
        WorkingIndicator* indicator = s.chat().indicator();
        QVERIFY(!indicator->running());
        QVERIFY(indicator->text().isEmpty());
        // What the indicator says right after each event the chat handled.
        QStringList said;
        connect(&s.core, &CoreClient::core_event, this, [&](const client::CoreEvent& event) {
            const char* name = std::visit([](const auto& e) { return e.event.data(); }, event);
            said << QString::fromLatin1(name) + QStringLiteral(": ") + indicator->activity();
        });
        s.send(QStringLiteral("test it"));
        QVERIFY(s.proposal_shown(QStringLiteral("Run this command?")));
        QVERIFY(indicator->running());
        QCOMPARE(indicator->activity(), QStringLiteral("Waiting for your approval"));
        QVERIFY2(indicator->text().startsWith(QStringLiteral("Waiting for your approval · ")),
                 qPrintable(indicator->text()));
        click(s.bar().approve_button());
        QVERIFY(turn_ended(s));
        QVERIFY(!indicator->running());
        QVERIFY(indicator->text().isEmpty());
        const QString trace = said.join('\n');
        for (const char* expected :
             {"agent.status: Waiting for the model", "agent.delta: Writing",
              "agent.tool: Reading greet.py", "agent.tool_result: Waiting for the model",
              "agent.tool: Running true", "agent.propose: Waiting for your approval",
              "agent.decided: Running true"})
            QVERIFY2(trace.contains(QString::fromUtf8(expected)),
                     qPrintable(QStringLiteral("%1 not in:\n%2").arg(expected, trace)));
        QVERIFY2(said.last().endsWith(QStringLiteral(": ")), qPrintable(trace));
    }

    void the_working_indicator_counts_time_from_its_clock() {
        WorkingIndicator indicator;
        auto now = std::chrono::steady_clock::time_point{} + std::chrono::hours(5);
        indicator.set_clock([&] { return now; });
        AgentStatus busy;
        busy.busy = true;
        busy.state = AgentState::streaming;
        indicator.follow(busy, true);
        QCOMPARE(indicator.text(), QStringLiteral("Waiting for the model · 0s"));
        now += std::chrono::seconds(65);
        indicator.tick();
        QCOMPARE(indicator.text(), QStringLiteral("Waiting for the model · 1m 05s"));
        ToolEvent read;
        read.name = "read_file";
        read.input = Json{{"path", "greet.py"}};
        indicator.follow(read, true);
        QCOMPARE(indicator.text(), QStringLiteral("Reading greet.py · 1m 05s"));
        AgentStatus idle;
        indicator.follow(idle, false);
        QCOMPARE(indicator.text(), QString());
        // The next turn starts its own clock.
        now += std::chrono::seconds(30);
        indicator.follow(busy, true);
        QCOMPARE(indicator.elapsed(), QStringLiteral("0s"));
    }

    void a_turns_summary_shows_its_tokens() {
        TempProject project;
        project.write("greet.py", greet);
        Json first = step({tool("read_file", {{"path", "greet.py"}})}, "Looking.");
        first["usage"] = Json{{"input_tokens", 1200}, {"output_tokens", 80}};
        Json last = text_step("It greets.");
        last["usage"] =
            Json{{"input_tokens", 1300}, {"output_tokens", 20}, {"cache_read_input_tokens", 1000}};
        Agent s(project, Json::array({first, last}));
        QVERIFY(s.start());
        s.send(QStringLiteral("what does it do?"));
        QTRY_VERIFY(!s.transcript().texts_of(ChatTranscript::Entry::summary).isEmpty());
        QCOMPARE(s.transcript().texts_of(ChatTranscript::Entry::summary),
                 QStringList{QStringLiteral("2,500 tokens in · 1,000 cache read · 100 out")});
        const std::uint64_t turn = s.chat().session().state().usage.turn;
        TurnSummary* summary = s.chat().changes()->summary(turn);
        QVERIFY(summary);
        QVERIFY(summary->undo_button()->isHidden()); // nothing to undo: no file changed
    }

private:
    QTemporaryDir home_;
};

QTEST_MAIN(EditsTest)
#include "edits_test.moc"
