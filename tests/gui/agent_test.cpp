// The chat and the approval gate against a real rio-core whose model is the script
// provider (DESIGN §6, §7, §9, §11): plans taking the centre, decisions reaching the core,
// proposals dismissed by whatever ended them, the compare view, commands, the mode control,
// the composer and the keyboard. A second client on the core's socket reads what the core
// really holds and acts as another frontend would.
#include "gui/approval_bar.hpp"
#include "gui/centre_area.hpp"
#include "gui/chat_dock.hpp"
#include "gui/chat_transcript.hpp"
#include "gui/code_editor.hpp"
#include "gui/compare_view.hpp"
#include "gui/composer.hpp"
#include "gui/context_meter.hpp"
#include "gui/core_client.hpp"
#include "gui/editor_area.hpp"
#include "gui/main_window.hpp"
#include "gui/markdown_view.hpp"
#include "gui/mode_control.hpp"
#include "gui/plan_decisions.hpp"
#include "gui/plan_view.hpp"
#include "gui/plans_panel.hpp"
#include "gui/provider_strip.hpp"
#include "gui/review_flow.hpp"
#include "gui/revision_document.hpp"
#include "gui/view_header.hpp"
#include "gui/working_indicator.hpp"
#include "tests/gui/agent_support.hpp"
#include "tests/gui/gui_support.hpp"

#include <QAbstractItemView>
#include <QApplication>
#include <QComboBox>
#include <QCompleter>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QToolButton>
#include <QTreeWidget>
#include <algorithm>

using namespace rio;
using namespace rio::gui;
using namespace rio::gui::test;

namespace {

const char* const plan_title = "Add a shout flag";
const char* const plan_text = "1. Give `greeting` a **shout** option\n2. Test it\n";
const QByteArray greet = "def greeting(name):\n    return f\"Hello, {name}!\"\n";

// A value as JSON text ("true", "null"), so a comparison can show what was there.
QString json_text(const Json& json, const char* key) {
    auto it = json.find(key);
    return QString::fromStdString(it == json.end() ? std::string("(missing)") : it->dump());
}

// True when `text` appears in `document` in a bold run: the Markdown was rendered.
bool shows_bold(const QTextDocument& document, const QString& text) {
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it)
            if (it.fragment().text().contains(text) &&
                it.fragment().charFormat().fontWeight() >= QFont::Bold)
                return true;
    return false;
}

// The agent.decided the spy caught, once it is there.
std::optional<DecidedEvent> decided_event(QSignalSpy& events) {
    std::optional<DecidedEvent> found;
    const auto look = [&] {
        for (const QList<QVariant>& event : events) {
            const client::CoreEvent core_event = event.at(0).value<client::CoreEvent>();
            if (auto* d = std::get_if<DecidedEvent>(&core_event)) found = *d;
        }
        return found.has_value();
    };
    if (!QTest::qWaitFor(look, 5000)) return std::nullopt;
    return found;
}

} // namespace

class AgentTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(keep_home_private(home_)); }

    void plan_takes_the_centre() {
        TempProject project;
        Agent s(project, Json::array({plan_step(plan_title, plan_text), text_step("ok")}));
        QVERIFY(s.up_to_plan_shown(false, QStringLiteral("add a shout flag")));

        const Json pending = s.status()["pending"];
        QCOMPARE(qstr(pending, "kind"), QStringLiteral("plan"));
        const QString path = qstr(pending, "path");
        QVERIFY2(
            QRegularExpression(QStringLiteral(R"(^\.rio/plans/\d{8}-\d{6}-add-a-shout-flag\.md$)"))
                .match(path)
                .hasMatch(),
            qPrintable(path));
        QCOMPARE(s.plan_view()->header_text(), QStringLiteral("Plan — Add a shout flag"));
        // Rendered, not shown as source: the emphasis is bold and its asterisks are gone.
        const QTextDocument& body = *s.plan_view()->body()->document();
        QVERIFY(body.toPlainText().contains(QStringLiteral("Test it")));
        QVERIFY(!body.toPlainText().contains(QStringLiteral("**")));
        QVERIFY(shows_bold(body, QStringLiteral("shout")));
        QVERIFY(s.plan_view()->isVisible());

        // The bar offers what a plan needs.
        QCOMPARE(s.bar().heading()->text(), QStringLiteral("Plan: Add a shout flag"));
        QCOMPARE(s.bar().detail()->text(), path);
        QVERIFY(s.bar().approve_button()->isVisible());
        QVERIFY(s.bar().edit_plan_button()->isVisible());
        QVERIFY(s.bar().reject_button()->isVisible());
        QVERIFY(s.bar().plan_button()->isVisible());
        QVERIFY(!s.bar().compare_button()->isVisible());
        QCOMPARE(s.composer().activity(), QStringLiteral("Waiting for your approval"));
        QVERIFY(s.transcript()
                    .texts_of(ChatTranscript::Entry::tool)
                    .contains(QStringLiteral("› plan \"Add a shout flag\"")));
    }

    void plan_close_and_reopen() {
        TempProject project;
        Agent s(project, Json::array({plan_step(plan_title, plan_text), text_step("ok")}));
        QVERIFY(s.start());
        s.send(QStringLiteral("plan it"));
        QVERIFY(s.plan_shown());
        const QString path = qstr(s.status()["pending"], "path");
        QVERIFY(!path.isEmpty());

        // Esc returns to the editors; the core still waits for the decision.
        QTest::keyClick(s.plan_view()->body(), Qt::Key_Escape);
        QVERIFY(s.shows_editors());
        QVERIFY(s.bar().showing());
        Json status = s.status();
        QCOMPARE(qstr(status.value("pending", Json()), "kind"), QStringLiteral("plan"));
        QCOMPARE(json_text(status, "busy"), QStringLiteral("true"));

        // The plan file changes on disk; Plan repaints from it.
        QByteArray file = project.read(path);
        QVERIFY(file.contains("Test it"));
        project.write(path, file.replace("2. Test it", "2. Test it with **unittest**"));
        click(s.bar().plan_button());
        QVERIFY(s.plan_shown());
        QTRY_VERIFY(s.plan_view()->body()->toPlainText().contains(QStringLiteral("unittest")));
        QVERIFY(shows_bold(*s.plan_view()->body()->document(), QStringLiteral("unittest")));

        // × closes it too, and still nothing is decided.
        QTest::mouseClick(s.plan_view()->findChild<ViewHeader*>()->close_button(), Qt::LeftButton);
        QVERIFY(s.shows_editors());
        QCOMPARE(qstr(s.status()["pending"], "kind"), QStringLiteral("plan"));
        QVERIFY(s.bar().showing());
    }

    void edit_plan_opens_file_and_reopen_shows_unsaved_edit() {
        TempProject project;
        Agent s(project, Json::array({plan_step(plan_title, plan_text), text_step("ok")}));
        QVERIFY(s.start());
        s.send(QStringLiteral("plan it"));
        QVERIFY(s.plan_shown());
        const QString path = qstr(s.status()["pending"], "path");

        click(s.bar().edit_plan_button());
        QTRY_VERIFY(s.window.editors()->editor(path) != nullptr);
        QVERIFY(s.shows_editors());
        QCOMPARE(s.window.editors()->current_path(), path);
        CodeEditor* editor = s.window.editors()->editor(path);
        QVERIFY(QString::fromStdString(editor->utf8_text()).contains(QStringLiteral("Test it")));

        editor->SendScintilla(QsciScintillaBase::SCI_DOCUMENTEND);
        type_text(editor, QStringLiteral("3. Typed, not saved\n"));
        QTRY_VERIFY(s.window.editors()->is_dirty(path));
        QVERIFY(!project.read(path).contains("Typed, not saved"));

        click(s.bar().plan_button());
        QVERIFY(s.plan_shown());
        QTRY_VERIFY(
            s.plan_view()->body()->toPlainText().contains(QStringLiteral("Typed, not saved")));
        QVERIFY(!project.read(path).contains("Typed, not saved")); // still only in the buffer
        QCOMPARE(qstr(s.status()["pending"], "kind"), QStringLiteral("plan"));
    }

    // DESIGN §18: the meter beside the model says how full the window is ("≈" while it is
    // rio's estimate: the script provider reports no counts), the button by it compacts, and
    // the compaction shows as one line.
    void context_meter_and_the_compaction_line() {
        TempProject project;
        const std::string long_reply =
            "Hello there. " + std::string(3000, 'h'); // worth summarizing
        Agent s(project, Json::array({text_step(long_reply.c_str()), text_step("Said hello.")}));
        QVERIFY(s.start());
        ContextMeter* meter = s.chat().meter();
        QTRY_VERIFY(meter->isVisible());
        QVERIFY2(meter->text().startsWith(QStringLiteral("≈")), qPrintable(meter->text()));
        QVERIFY2(meter->figures().contains(QStringLiteral(" / 32.8k tokens")),
                 qPrintable(meter->figures()));
        QVERIFY(meter->figures().contains(QStringLiteral("estimate")));
        s.send(QStringLiteral("say hello"));
        QTRY_VERIFY(!s.composer().busy());
        QTRY_VERIFY(!s.status().value("busy", true)); // the core's word: the turn is over
        QAction* menu_item = s.window.findChild<QAction*>(QStringLiteral("compact_conversation"));
        QVERIFY(menu_item != nullptr);
        click(meter->compact_button());
        const auto compacted_line = [&s] {
            const QStringList notes = s.transcript().texts_of(ChatTranscript::Entry::note);
            return std::any_of(notes.cbegin(), notes.cend(), [](const QString& t) {
                return t.startsWith(QStringLiteral("Context compacted: ")) &&
                       t.contains(QStringLiteral("older turns summarized"));
            });
        };
        QTRY_VERIFY2(compacted_line(),
                     qPrintable(s.transcript().texts_of(ChatTranscript::Entry::note).join('\n') +
                                s.transcript().texts_of(ChatTranscript::Entry::error).join('\n')));
        QCOMPARE(s.provider_calls().size(), std::size_t(2));
        QCOMPARE(s.provider_calls().at(1)["tools"].size(), std::size_t(0)); // a summary request
        QTRY_VERIFY(meter->compact_button()->isEnabled());
    }

    void approve_review_sets_core_state_and_continues() {
        TempProject project;
        project.write("greet.py", greet);
        Agent s(project, Json::array({plan_step(plan_title, plan_text),
                                      edit_step("greet.py", "Hello", "Hi"), text_step("done")}));
        QVERIFY(s.up_to_plan_shown(true)); // review must turn auto-accept off

        click(s.bar().approve_button());
        click_menu(s.bar().approve_menu(), s.bar().approve_review_action());
        // The turn goes on: the scripted edit waits on the bar for its own decision.
        QVERIFY(s.proposal_shown(QStringLiteral("Edit greet.py")));
        const Json status = s.status();
        QCOMPARE(qstr(status, "mode"), QStringLiteral("build"));
        QCOMPARE(json_text(status, "auto_accept"), QStringLiteral("false"));
        QCOMPARE(qstr(status.value("pending", Json()), "kind"), QStringLiteral("edit"));
        QCOMPARE(s.chat().mode_control()->shown_label(), QStringLiteral("Review"));
        QVERIFY(s.centre_view() != s.plan_view()); // the plan is decided: its view went
        QCOMPARE(project.read("greet.py"), greet); // the edit waits
        QVERIFY(s.bar().compare_button()->isVisible());
        QVERIFY(!s.bar().edit_plan_button()->isVisible());
        QVERIFY(s.transcript()
                    .texts_of(ChatTranscript::Entry::note)
                    .contains(QStringLiteral("Plan approved — review each edit")));
        QCOMPARE(s.provider_calls().at(1)["tools"].size(),
                 std::size_t(10)); // write tools, plan_progress
    }

    void approve_auto_sets_core_state_and_continues() {
        TempProject project;
        project.write("greet.py", greet);
        Agent s(project, Json::array({plan_step(plan_title, plan_text),
                                      edit_step("greet.py", "Hello", "Hi"), text_step("done")}));
        QVERIFY(s.up_to_plan_shown(false));
        QSignalSpy events(&s.core, &CoreClient::core_event);

        click(s.bar().approve_button());
        click_menu(s.bar().approve_menu(), s.bar().approve_auto_action());
        QTRY_VERIFY(project.read("greet.py").contains("Hi, {name}"));
        QTRY_VERIFY(!s.composer().busy());
        const Json status = s.status();
        QCOMPARE(qstr(status, "mode"), QStringLiteral("build"));
        QCOMPARE(json_text(status, "auto_accept"), QStringLiteral("true"));
        QCOMPARE(json_text(status, "pending"), QStringLiteral("null"));
        QCOMPARE(s.chat().mode_control()->shown_label(), QStringLiteral("Auto"));
        QVERIFY(s.dismissed());
        // The edit never waited: no proposal came after the plan's decision.
        for (const QList<QVariant>& event : events)
            QVERIFY(!std::holds_alternative<Proposal>(event.at(0).value<client::CoreEvent>()));
    }

    void reject_with_reason_reaches_core() {
        TempProject project;
        Agent s(project,
                Json::array({plan_step(plan_title, plan_text), text_step("What should change?")}));
        QVERIFY(s.up_to_plan_shown(false));
        const QString path = qstr(s.status()["pending"], "path");

        click(s.bar().reject_button());
        QLineEdit* reason = s.bar().reason_field();
        QVERIFY(reason->isVisible());
        QVERIFY(reason->hasFocus());
        QTest::keyClicks(reason, QStringLiteral("too broad, keep main() as it is"));
        QTest::keyClick(reason, Qt::Key_Return);
        QVERIFY(s.dismissed());
        QTRY_VERIFY(!s.composer().busy());

        // The model's next call carries the reason in the plan's tool result.
        const std::vector<Json> calls = s.provider_calls();
        QCOMPARE(calls.size(), std::size_t(2));
        QVERIFY2(calls[1]["conversation"].dump().find("too broad, keep main() as it is") !=
                     std::string::npos,
                 calls[1]["conversation"].dump().c_str());
        // The plan file says so, and the mode stayed plan.
        QCOMPARE(qstr(s.ask("plans.get", Json{{"path", path.toStdString()}}), "status"),
                 QStringLiteral("rejected"));
        QCOMPARE(qstr(s.status(), "mode"), QStringLiteral("plan"));
        QVERIFY(s.transcript()
                    .texts_of(ChatTranscript::Entry::note)
                    .contains(QStringLiteral("Plan rejected: too broad, keep main() as it is")));
        // The plan's line says what the person said; the model's wording stays in the result.
        const QStringList lines = s.transcript().texts_of(ChatTranscript::Entry::tool);
        QVERIFY2(lines.join(QLatin1Char('\n'))
                     .contains(QStringLiteral("✗ You asked for changes: too broad, keep main() as "
                                              "it is")),
                 qPrintable(lines.join(QLatin1Char('\n'))));
        QVERIFY(!lines.join(QLatin1Char('\n')).contains(QStringLiteral("The user rejected")));
    }

    void plan_view_ctrl_enter_approves_review() {
        TempProject project;
        Agent s(project, Json::array({plan_step(plan_title, plan_text), text_step("ok")}));
        QVERIFY(s.up_to_plan_shown(true));
        // The decision is in the view itself, header and foot.
        QVERIFY(s.plan_view()->header_decisions()->approve_button()->isVisible());
        QVERIFY(s.plan_view()->foot_decisions()->approve_button()->isVisible());
        QVERIFY(s.plan_view()->foot_decisions()->request_changes_button()->isVisible());
        QVERIFY(s.plan_view()->foot_decisions()->edit_plan_button()->isVisible());
        QSignalSpy events(&s.core, &CoreClient::core_event);

        QTest::keyClick(s.plan_view()->body(), Qt::Key_Return, Qt::ControlModifier);
        const std::optional<DecidedEvent> decided = decided_event(events);
        QVERIFY(decided);
        QVERIFY(decided->decision == Verdict::approve);
        QVERIFY(decided->policy == ApprovalPolicy::review);
        QVERIFY(!decided->fresh.value_or(false));
        // The chat's bar went with it.
        QVERIFY(s.dismissed());
        QCOMPARE(json_text(s.status(), "auto_accept"), QStringLiteral("false"));
    }

    void plan_view_ctrl_shift_enter_approves_auto() {
        TempProject project;
        Agent s(project, Json::array({plan_step(plan_title, plan_text), text_step("ok")}));
        QVERIFY(s.up_to_plan_shown(false));
        QSignalSpy events(&s.core, &CoreClient::core_event);

        QTest::keyClick(s.plan_view()->body(), Qt::Key_Return,
                        Qt::ControlModifier | Qt::ShiftModifier);
        const std::optional<DecidedEvent> decided = decided_event(events);
        QVERIFY(decided);
        QVERIFY(decided->decision == Verdict::approve);
        QVERIFY(decided->policy == ApprovalPolicy::automatic);
        QVERIFY(s.dismissed());
    }

    void plan_view_approve_in_a_fresh_context() {
        TempProject project;
        Agent s(project, Json::array({plan_step(plan_title, plan_text), text_step("ok")}));
        QVERIFY(s.up_to_plan_shown(false));
        QSignalSpy events(&s.core, &CoreClient::core_event);

        PlanDecisions* header = s.plan_view()->header_decisions();
        click(header->approve_button());
        click_menu(header->approve_menu(), header->approve_fresh_action());
        const std::optional<DecidedEvent> decided = decided_event(events);
        QVERIFY(decided);
        QVERIFY(decided->decision == Verdict::approve);
        QVERIFY(decided->fresh.value_or(false));
        QVERIFY(s.dismissed());
    }

    void plan_view_request_changes_reaches_core() {
        TempProject project;
        Agent s(project,
                Json::array({plan_step(plan_title, plan_text), text_step("What should change?")}));
        QVERIFY(s.up_to_plan_shown(false));
        QSignalSpy events(&s.core, &CoreClient::core_event);

        click(s.plan_view()->foot_decisions()->request_changes_button());
        QLineEdit* note = s.plan_view()->feedback_field();
        QVERIFY(note->isVisible());
        QVERIFY(note->hasFocus());
        // Esc puts the note away and leaves the plan open.
        QTest::keyClick(note, Qt::Key_Escape);
        QVERIFY(!note->isVisible());
        QCOMPARE(s.centre_view(), static_cast<QWidget*>(s.plan_view()));
        click(s.plan_view()->header_decisions()->request_changes_button());
        QVERIFY(note->isVisible());
        QTest::keyClicks(note, QStringLiteral("keep main() as it is"));
        QTest::keyClick(note, Qt::Key_Return);
        const std::optional<DecidedEvent> decided = decided_event(events);
        QVERIFY(decided);
        QVERIFY(decided->decision == Verdict::reject);
        QCOMPARE(decided->feedback.value_or(""), std::string("keep main() as it is"));
        QVERIFY(s.dismissed());
    }

    void plan_comment_on_selection_reaches_core() {
        TempProject project;
        Agent s(project,
                Json::array({plan_step(plan_title, plan_text), text_step("What should change?")}));
        QVERIFY(s.up_to_plan_shown(false));
        PlanView& view = *s.plan_view();
        const auto comment_on = [&](const QString& passage, const QString& text) {
            QTextCursor found = view.body()->document()->find(passage);
            QVERIFY(!found.isNull());
            view.body()->setTextCursor(found);
            QTest::keyClick(view.body(), Qt::Key_M, Qt::ControlModifier);
            QVERIFY(view.comment_field()->isVisible());
            QVERIFY(view.comment_field()->hasFocus());
            QTest::keyClicks(view.comment_field(), text);
            QTest::keyClick(view.comment_field(), Qt::Key_Return);
            QVERIFY(!view.comment_field()->isVisible());
        };
        comment_on(QStringLiteral("Test it"), QStringLiteral("which tests?"));
        comment_on(QStringLiteral("shout option"), QStringLiteral("call it loud"));
        QCOMPARE(view.comment_list()->count(), 2);
        QVERIFY(view.comment_list()->isVisible());
        // The first is taken back before the decision.
        view.comment_list()->setCurrentRow(0);
        click(view.remove_comment_button());
        QCOMPARE(view.comment_list()->count(), 1);
        QSignalSpy events(&s.core, &CoreClient::core_event);

        click(view.foot_decisions()->request_changes_button());
        QTest::keyClick(view.feedback_field(), Qt::Key_Return); // no note, the comment says it
        const std::optional<DecidedEvent> decided = decided_event(events);
        QVERIFY(decided);
        QVERIFY(decided->decision == Verdict::reject);
        QVERIFY(decided->comments);
        QCOMPARE(decided->comments->size(), std::size_t(1));
        const PlanComment& comment = decided->comments->front();
        QCOMPARE(comment.quote, std::string("shout option"));
        QCOMPARE(comment.text, std::string("call it loud"));
        QCOMPARE(comment.line.value_or(0), std::uint64_t(1));
        QVERIFY(s.dismissed());
        QTRY_VERIFY(!s.composer().busy());
        // The model's next call quotes the passage with its comment.
        const std::string next = s.provider_calls().at(1)["conversation"].dump();
        QVERIFY2(next.find("> shout option") != std::string::npos, next.c_str());
        QVERIFY2(next.find("call it loud") != std::string::npos, next.c_str());
        QVERIFY(next.find("which tests?") == std::string::npos);
    }

    // Issue 44: a rejection's comments come back on the revision as threads, the one it
    // addresses answered with the model's reply; the person replies and resolves there; and
    // approving while one is still open asks first, then records how many were open.
    void plan_threads_reply_resolve_and_an_open_one_asks_before_approval() {
        TempProject project;
        const Json revision = step({tool(
            "present_plan",
            {{"title", plan_title},
             {"plan", std::string(plan_text) + "3. Run pytest\n"},
             {"addresses", Json::array({{{"id", "c1"}, {"reply", "pytest runs them now"}}})}})});
        Agent s(project, Json::array({plan_step(plan_title, plan_text), text_step("Revising."),
                                      revision, text_step("Carrying it out.")}));
        QVERIFY(s.up_to_plan_shown(false));
        PlanView& view = *s.plan_view();
        for (const auto& [passage, text] :
             {std::pair{"Test it", "which tests?"}, std::pair{"shout option", "call it loud"}}) {
            QTextCursor found = view.body()->document()->find(QString::fromUtf8(passage));
            QVERIFY(!found.isNull());
            view.body()->setTextCursor(found);
            QTest::keyClick(view.body(), Qt::Key_M, Qt::ControlModifier);
            QTest::keyClicks(view.comment_field(), QString::fromUtf8(text));
            QTest::keyClick(view.comment_field(), Qt::Key_Return);
        }
        click(view.foot_decisions()->request_changes_button());
        QTest::keyClick(view.feedback_field(), Qt::Key_Return);
        QVERIFY(s.dismissed());
        QTRY_VERIFY(!s.composer().busy());

        s.send(QStringLiteral("revise it"));
        QVERIFY(s.plan_shown());
        QTRY_COMPARE(view.thread_list()->count(), 2);
        QVERIFY(view.thread_list()->isVisible());
        const QString first = view.thread_list()->item(0)->text();
        QVERIFY2(first.startsWith(QStringLiteral("c1 · answered")), qPrintable(first));
        QVERIFY2(first.contains(QStringLiteral("model: pytest runs them now")), qPrintable(first));
        QVERIFY(view.thread_list()->item(1)->text().startsWith(QStringLiteral("c2 · open")));
        QCOMPARE(view.open_threads(), std::size_t(1));

        // A reply to the answered one opens it again; resolving it closes it; the second
        // client reads both.
        view.thread_list()->setCurrentRow(0);
        QTest::keyClicks(view.reply_field(), QStringLiteral("and the old ones?"));
        QTest::keyClick(view.reply_field(), Qt::Key_Return);
        QTRY_VERIFY(
            view.thread_list()->item(0)->text().contains(QStringLiteral("you: and the old ones?")));
        QCOMPARE(view.open_threads(), std::size_t(2));
        view.thread_list()->setCurrentRow(0);
        click(view.resolve_button());
        QTRY_VERIFY(
            view.thread_list()->item(0)->text().startsWith(QStringLiteral("c1 · resolved")));
        const Json filed = s.ask(
            "plans.get", {{"path", qstr(s.status()["pending"], "path").toStdString()}})["comments"];
        QCOMPARE(filed.size(), std::size_t(2));
        QCOMPARE(QString::fromStdString(filed[0]["state"]), QStringLiteral("resolved"));
        QCOMPARE(filed[0]["replies"].size(), std::size_t(2));

        // Approving with c2 open asks in the view; nothing is sent until the person confirms.
        QSignalSpy events(&s.core, &CoreClient::core_event);
        QTest::keyClick(view.body(), Qt::Key_Return, Qt::ControlModifier);
        QVERIFY(view.open_bar()->isVisible());
        QVERIFY(view.open_bar()->findChild<QLabel*>()->text().startsWith(
            QStringLiteral("1 comment is still open — approve anyway?")));
        QCOMPARE(qstr(s.status()["pending"], "kind"), QStringLiteral("plan"));
        click(view.approve_anyway_button());
        const std::optional<DecidedEvent> decided = decided_event(events);
        QVERIFY(decided);
        QVERIFY(decided->decision == Verdict::approve);
        QCOMPARE(decided->open_comments.value_or(99), std::uint64_t(1));
        QVERIFY(s.dismissed());
    }

    void plan_comment_edited_reaches_core() {
        TempProject project;
        Agent s(project, Json::array({plan_step(plan_title, plan_text), text_step("ok")}));
        QVERIFY(s.up_to_plan_shown(false));
        PlanView& view = *s.plan_view();
        QTextCursor found = view.body()->document()->find(QStringLiteral("Test it"));
        QVERIFY(!found.isNull());
        view.body()->setTextCursor(found);
        QTest::keyClick(view.body(), Qt::Key_M, Qt::ControlModifier);
        QTest::keyClicks(view.comment_field(), QStringLiteral("with pytest"));
        QTest::keyClick(view.comment_field(), Qt::Key_Return);
        QCOMPARE(view.comment_list()->count(), 1);

        // A double-click opens the comment's words in the field, selected, to type over.
        // (Click, then the double-click and its release, as a window system delivers them.)
        QListWidget& list = *view.comment_list();
        const QPoint at = list.visualItemRect(list.item(0)).center();
        QTest::mouseClick(list.viewport(), Qt::LeftButton, {}, at);
        QMouseEvent twice(QEvent::MouseButtonDblClick, at, list.viewport()->mapToGlobal(at),
                          Qt::LeftButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(list.viewport(), &twice);
        QTest::mouseRelease(list.viewport(), Qt::LeftButton, {}, at);
        QVERIFY(view.comment_field()->isVisible());
        QVERIFY(view.comment_field()->hasFocus());
        QCOMPARE(view.comment_field()->text(), QStringLiteral("with pytest"));
        QCOMPARE(view.comment_field()->selectedText(), QStringLiteral("with pytest"));
        QTest::keyClicks(view.comment_field(), QStringLiteral("with unittest"));
        QTest::keyClick(view.comment_field(), Qt::Key_Return);
        QVERIFY(!view.comment_field()->isVisible());
        QCOMPARE(list.count(), 1);
        QVERIFY(list.item(0)->text().contains(QStringLiteral("with unittest")));
        QCOMPARE(view.comments().front().text, std::string("with unittest"));

        // Edit comment, then Esc: the comment stays as it was.
        list.setCurrentRow(0);
        click(view.edit_comment_button());
        QVERIFY(view.comment_field()->hasFocus());
        QTest::keyClicks(view.comment_field(), QStringLiteral("never mind"));
        QTest::keyClick(view.comment_field(), Qt::Key_Escape);
        QVERIFY(!view.comment_field()->isVisible());
        QVERIFY(view.isVisible()); // Esc put the edit away, not the plan
        QCOMPARE(view.comments().front().text, std::string("with unittest"));
        // Enter on the selected comment opens it too.
        list.setFocus();
        QTest::keyClick(&list, Qt::Key_Return);
        QVERIFY(view.comment_field()->hasFocus());
        QTest::keyClick(view.comment_field(), Qt::Key_Escape);
        QSignalSpy events(&s.core, &CoreClient::core_event);

        QTest::keyClick(view.body(), Qt::Key_Return, Qt::ControlModifier);
        const std::optional<DecidedEvent> decided = decided_event(events);
        QVERIFY(decided);
        QVERIFY(decided->decision == Verdict::approve);
        QVERIFY(decided->comments);
        QCOMPARE(decided->comments->size(), std::size_t(1));
        QCOMPARE(decided->comments->front().quote, std::string("Test it"));
        QCOMPARE(decided->comments->front().text, std::string("with unittest"));
        QCOMPARE(decided->comments->front().line.value_or(0), std::uint64_t(2));
        QVERIFY(s.dismissed());
        QTRY_VERIFY(!s.composer().busy());
        // Approved with notes: the model reads the passage and the edited words only.
        const std::string next = s.provider_calls().at(1)["conversation"].dump();
        QVERIFY2(next.find("> Test it") != std::string::npos, next.c_str());
        QVERIFY2(next.find("with unittest") != std::string::npos, next.c_str());
        QVERIFY(next.find("with pytest") == std::string::npos);
        QVERIFY(next.find("never mind") == std::string::npos);
    }

    void revision_toggle_marks_changed_lines() {
        TempProject project;
        const char* const revised =
            "1. Give `greeting` a **loud** option\n2. Test it\n3. Document it\n";
        Agent s(project, Json::array({plan_step(plan_title, plan_text),
                                      plan_step("Add a loud flag", revised), text_step("ok")}));
        QVERIFY(s.up_to_plan_shown(false));
        QToolButton* changes = s.plan_view()->changes_button();
        QVERIFY(!changes->isVisible()); // the first plan revises nothing
        const QSize window = s.window.size();
        click(s.bar().reject_button());
        QTest::keyClick(s.bar().reason_field(), Qt::Key_Return);
        QTRY_VERIFY(s.plan_view()->header_text().contains(QStringLiteral("Add a loud flag")));
        QTRY_VERIFY(changes->isVisible());
        // Issue 46 item 4: the revision's header (its Changes button beside the decisions) grew
        // the window by itself; now what does not fit beside the title goes under it.
        QVERIFY(drain_events() && drain_events());
        QCOMPARE(s.window.size(), window);
        QVERIFY(s.plan_view()->width() >= s.plan_view()->minimumSizeHint().width());

        click(changes);
        QVERIFY(changes->isChecked());
        // Comments quote the plan, not the marked lines: none are offered on them.
        QVERIFY(!s.plan_view()->comment_button()->isEnabled());
        const QTextDocument& marked = *s.plan_view()->body()->document();
        const auto block_with = [&](const QString& text) {
            for (QTextBlock block = marked.begin(); block.isValid(); block = block.next())
                if (block.text().contains(text)) return block;
            return QTextBlock();
        };
        const QTextBlock changed = block_with(QStringLiteral("loud"));
        QVERIFY(changed.isValid());
        QCOMPARE(changed.blockFormat().background().color(),
                 revision_background(client::LineMark::changed));
        bool word_marked = false;
        for (auto it = changed.begin(); !it.atEnd(); ++it)
            if (it.fragment().text().contains(QStringLiteral("loud")))
                word_marked =
                    it.fragment().charFormat().background().color() == revision_word_background();
        QVERIFY(word_marked);
        const QTextBlock inserted = block_with(QStringLiteral("Document it"));
        QVERIFY(inserted.isValid());
        QCOMPARE(inserted.blockFormat().background().color(),
                 revision_background(client::LineMark::inserted));
        const QTextBlock same = block_with(QStringLiteral("Test it"));
        QVERIFY(same.isValid());
        QCOMPARE(same.blockFormat().background().style(), Qt::NoBrush);

        // Off again: the plan as Markdown.
        click(changes);
        QVERIFY(shows_bold(*s.plan_view()->body()->document(), QStringLiteral("loud")));
        QVERIFY(s.plan_view()->comment_button()->isEnabled());
    }

    void plan_reopens_where_it_was_left() {
        TempProject project;
        std::string long_plan;
        for (int i = 1; i <= 120; ++i)
            long_plan += std::to_string(i) + ". Step number " + std::to_string(i) + "\n";
        Agent s(project, Json::array({plan_step(plan_title, long_plan.c_str()), text_step("ok")}));
        QVERIFY(s.start());
        s.send(QStringLiteral("plan it"));
        QVERIFY(s.plan_shown());
        QScrollBar* scroll = s.plan_view()->body()->verticalScrollBar();
        QTRY_VERIFY(scroll->maximum() > 200);
        scroll->setValue(scroll->maximum() / 2);
        const int left_at = scroll->value();
        QVERIFY(left_at > 0);

        QTest::keyClick(s.plan_view()->body(), Qt::Key_Escape);
        QVERIFY(s.shows_editors());
        click(s.bar().plan_button());
        QVERIFY(s.plan_shown());
        QTRY_COMPARE(s.core.pending(), 0); // repainted from plans.get
        QCOMPARE(scroll->value(), left_at);
    }

    void plans_panel_lists_newest_first_and_opens_one() {
        TempProject project;
        Agent s(project, Json::array({plan_step(plan_title, plan_text),
                                      plan_step("Add a loud flag", "1. Loud\n"), text_step("ok")}));
        QVERIFY(s.up_to_plan_shown(false));
        click(s.bar().reject_button());
        QTest::keyClick(s.bar().reason_field(), Qt::Key_Return);
        QTRY_VERIFY(s.plan_view()->header_text().contains(QStringLiteral("Add a loud flag")));

        // The revision heads its chain, the plan it revises beneath it.
        QTreeWidget* list = s.window.plans()->list();
        QTRY_COMPARE(list->topLevelItemCount(), 1);
        QTRY_COMPARE(list->topLevelItem(0)->childCount(), 1);
        QTreeWidgetItem* newest = list->topLevelItem(0);
        QCOMPARE(newest->text(0), QStringLiteral("Add a loud flag"));
        QCOMPARE(newest->text(1), QStringLiteral("presented"));
        QTreeWidgetItem* earlier = newest->child(0);
        QCOMPARE(earlier->text(0), QString::fromLatin1(plan_title));
        QCOMPARE(earlier->text(1), QStringLiteral("rejected"));
        QCOMPARE(newest->text(2).size(), 11); // "12-01 21:30": when it was presented
        // Issue 32 item 5: a narrow side bar cuts a title in the middle; the tooltip has it.
        QCOMPARE(list->textElideMode(), Qt::ElideMiddle);
        QVERIFY(newest->toolTip(0).startsWith(QStringLiteral("Add a loud flag\n.rio/plans/")));

        // Filtered by status: a chain stays while any plan of it matches.
        QComboBox* filter = s.window.plans()->status_filter();
        filter->setCurrentIndex(filter->findData(QStringLiteral("rejected")));
        QVERIFY(!newest->isHidden());
        QVERIFY(!earlier->isHidden());
        filter->setCurrentIndex(filter->findData(QStringLiteral("presented")));
        QVERIFY(!newest->isHidden());
        QVERIFY(earlier->isHidden());
        filter->setCurrentIndex(filter->findData(QStringLiteral("approved")));
        QVERIFY(newest->isHidden());
        filter->setCurrentIndex(0);
        QVERIFY(!newest->isHidden() && !earlier->isHidden());

        // Opened read-only: its own view, no decision offered, its review shown.
        QSignalSpy opened(s.window.plans(), &PlansPanel::opened);
        list->setCurrentItem(earlier);
        QTest::keyClick(list, Qt::Key_Return);
        QVERIFY(opened.wait(5000));
        PlanView* view = s.window.plans()->view();
        QCOMPARE(s.centre_view(), static_cast<QWidget*>(view));
        QVERIFY(view->header_text().contains(QString::fromLatin1(plan_title)));
        QVERIFY(!view->decidable());
        QVERIFY(!view->foot_decisions()->isVisible());
        QVERIFY(view->body()->toPlainText().contains(QStringLiteral("Test it")));
        QTest::keyClick(view->body(), Qt::Key_Escape);
        QVERIFY(s.shows_editors());
        QCOMPARE(qstr(s.status()["pending"], "kind"), QStringLiteral("plan")); // still pending
    }

    // DESIGN §20: the approved plan's steps tick in the plan view, the chat's line and the
    // Plans panel as plans.progress comes.
    void plan_steps_tick_in_the_plan_view_the_chat_and_the_plans_panel() {
        TempProject project;
        Agent s(
            project,
            Json::array({plan_step("Three steps", "1. One\n2. Two\n3. Three\n"),
                         step({tool("plan_progress", {{"step", 1}, {"status", "in_progress"}})}),
                         step({tool("plan_progress", {{"step", 1}, {"status", "done"}}),
                               tool("plan_progress",
                                    {{"step", 2}, {"status", "skipped"}, {"note", "moot"}})}),
                         text_step("done")}));
        QVERIFY(s.up_to_plan_shown(false));
        QSignalSpy events(&s.core, &CoreClient::core_event);
        click(s.bar().approve_button());
        click_menu(s.bar().approve_menu(), s.bar().approve_auto_action());
        QTRY_VERIFY(!s.composer().busy());

        // The review's plan view (which can be brought back beside the work) followed.
        QListWidget* steps = s.plan_view()->step_list();
        QCOMPARE(steps->count(), 3);
        QCOMPARE(steps->item(0)->checkState(), Qt::Checked);
        QCOMPARE(steps->item(1)->checkState(), Qt::Unchecked);
        QCOMPARE(steps->item(1)->text(), QStringLiteral("2. Two (skipped) — moot"));
        QCOMPARE(steps->item(2)->checkState(), Qt::Unchecked);
        QVERIFY2(!(steps->item(0)->flags() & Qt::ItemIsUserCheckable), "the agent's to tick");
        // It went through in progress: a half-checked box once.
        int progress_events = 0;
        for (const QList<QVariant>& event : events)
            if (std::holds_alternative<PlanProgressEvent>(event.at(0).value<client::CoreEvent>()))
                ++progress_events;
        QCOMPARE(progress_events, 4);

        QPushButton* line = s.chat().plan_line();
        QVERIFY(line->isVisible());
        QCOMPARE(line->text(), QStringLiteral("1/3 ▸ Three"));
        QTreeWidget* list = s.window.plans()->list();
        QTRY_COMPARE(list->topLevelItemCount(), 1);
        QTRY_COMPARE(list->topLevelItem(0)->text(1), QStringLiteral("approved · 1/3"));

        // The line opens the plan, its boxes as the file says them.
        click(line);
        PlanView* view = s.window.plans()->view();
        QTRY_VERIFY(s.centre_view() == view);
        QTRY_COMPARE(view->step_list()->count(), 3);
        QCOMPARE(view->step_list()->item(0)->checkState(), Qt::Checked);
        QCOMPARE(view->step_list()->item(2)->checkState(), Qt::Unchecked);
    }

    // Issue 43: the steps the model declared, with their files and checks, are painted under
    // the plan before a person approves it; after the turn its receipt is under the plan, in
    // the review's view and when the Plans panel opens it, and the chat says so.
    void declared_steps_show_before_approval_and_the_receipt_under_the_plan_after() {
        TempProject project;
        Json steps = Json::array(
            {{{"text", "Shout"}, {"files", {"greet.py"}}, {"check", {{"argv", {"true"}}}}},
             {{"text", "Tidy"}}});
        Agent s(project,
                Json::array({step({tool("present_plan", {{"title", "Shout"},
                                                         {"plan", "## Changes\n\n- shout\n"},
                                                         {"steps", steps}})}),
                             step({tool("plan_progress", {{"step", 1}, {"status", "done"}})}),
                             text_step("done")}));
        QVERIFY(s.up_to_plan_shown(false));
        QString painted = s.plan_view()->body()->toPlainText();
        QVERIFY2(painted.contains(QStringLiteral("Steps, approved with the plan")),
                 qPrintable(painted));
        QVERIFY2(painted.contains(QStringLiteral("files: greet.py")), qPrintable(painted));
        QVERIFY2(painted.contains(QStringLiteral("check: true (read-only)")), qPrintable(painted));
        QVERIFY(painted.contains(QStringLiteral("no check: done when the agent says so")));
        QVERIFY(!painted.contains(QStringLiteral("Receipt")));

        click(s.bar().approve_button());
        click_menu(s.bar().approve_menu(), s.bar().approve_auto_action());
        QTRY_VERIFY(!s.composer().busy());
        painted = s.plan_view()->body()->toPlainText();
        QVERIFY2(painted.contains(QStringLiteral("Receipt")), qPrintable(painted));
        QVERIFY2(painted.contains(QStringLiteral("1/2 steps done (1 verified)")),
                 qPrintable(painted));
        bool said = false;
        for (int i = 0; i < s.transcript().entry_count(); ++i)
            said = said || s.transcript().entry_text(i).startsWith(
                               QStringLiteral("Receipt: 1/2 steps done (1 verified)"));
        QVERIFY(said);

        // Opened from the Plans panel: the plan, its declared steps, then the receipt, once.
        QTreeWidget* list = s.window.plans()->list();
        QTRY_COMPARE(list->topLevelItemCount(), 1);
        s.window.plans()->open(list->topLevelItem(0)->data(0, Qt::UserRole).toString());
        PlanView* view = s.window.plans()->view();
        QTRY_VERIFY(s.centre_view() == view);
        QTRY_VERIFY(view->body()->toPlainText().contains(QStringLiteral("Receipt")));
        painted = view->body()->toPlainText();
        QCOMPARE(painted.count(QStringLiteral("Receipt")), 1);
        QVERIFY(painted.indexOf(QStringLiteral("Steps, approved with the plan")) <
                painted.indexOf(QStringLiteral("Receipt")));
    }

    void chat_plan_line_reopens_its_plan() {
        TempProject project;
        Agent s(project, Json::array({plan_step(plan_title, plan_text), text_step("ok")}));
        QVERIFY(s.up_to_plan_shown(false));
        QLabel* line = nullptr;
        for (int i = 0; i < s.transcript().entry_count(); ++i)
            if (s.transcript().entry_kind(i) == ChatTranscript::Entry::tool &&
                s.transcript().entry_text(i).startsWith(QStringLiteral("› plan")))
                line = qobject_cast<QLabel*>(s.transcript().entry_widget(i));
        QVERIFY(line);
        QVERIFY(line->text().contains(QStringLiteral("<a href")));

        // Pending: the line shows the plan view with its decision.
        QTest::keyClick(s.plan_view()->body(), Qt::Key_Escape);
        QVERIFY(s.shows_editors());
        emit line->linkActivated(QStringLiteral("plan"));
        QVERIFY(s.plan_shown());
        QVERIFY(s.plan_view()->decidable());

        // Decided: the line shows the filed plan, read-only.
        QTest::keyClick(s.plan_view()->body(), Qt::Key_Return, Qt::ControlModifier);
        QVERIFY(s.dismissed());
        QTRY_VERIFY(!s.composer().busy());
        QVERIFY(line->text().contains(QStringLiteral("<a href"))); // still a link with its result
        emit line->linkActivated(QStringLiteral("plan"));
        QTRY_COMPARE(s.centre_view(), static_cast<QWidget*>(s.window.plans()->view()));
        QVERIFY(s.window.plans()->view()->header_text().contains(QString::fromLatin1(plan_title)));
        QVERIFY(!s.window.plans()->view()->decidable());
    }

    void history_plan_lines_reopen_their_plans() {
        // Two plans under one title: the one rejected, then its revision, approved.
        TempProject project;
        Agent s(project,
                Json::array({plan_step(plan_title, plan_text),
                             plan_step(plan_title, "1. Shout with argparse\n"), text_step("ok")}));
        QVERIFY(s.up_to_plan_shown(false));
        click(s.bar().reject_button());
        QTest::keyClick(s.bar().reason_field(), Qt::Key_Return);
        QTRY_VERIFY(s.plan_view()->body()->toPlainText().contains(QStringLiteral("argparse")));
        QTest::keyClick(s.plan_view()->body(), Qt::Key_Return, Qt::ControlModifier);
        QVERIFY(s.dismissed());
        QTRY_VERIFY(!s.composer().busy());

        // A window attached later knows the plans only from the history: no paths in it.
        LateWindow late;
        QVERIFY(late.attach(project));
        const ChatTranscript& replayed = *late.window.chat()->transcript();
        std::vector<QLabel*> lines;
        for (int i = 0; i < replayed.entry_count(); ++i)
            if (replayed.entry_kind(i) == ChatTranscript::Entry::tool &&
                replayed.entry_text(i).startsWith(QStringLiteral("› plan")))
                lines.push_back(qobject_cast<QLabel*>(replayed.entry_widget(i)));
        QCOMPARE(lines.size(), std::size_t(2));
        PlanView& view = *late.window.plans()->view();
        const auto shown = [&](const QString& text) {
            return late.window.centre()->current_view() == &view &&
                   view.body()->toPlainText().contains(text);
        };
        emit lines[0]->linkActivated(QStringLiteral("plan"));
        QTRY_VERIFY(shown(QStringLiteral("Test it")));
        QVERIFY(!view.body()->toPlainText().contains(QStringLiteral("argparse")));
        QVERIFY(!view.decidable());
        emit lines[1]->linkActivated(QStringLiteral("plan"));
        QTRY_VERIFY(shown(QStringLiteral("argparse")));
    }

    void dismissed_by_new_message() {
        TempProject project;
        Agent s(project,
                Json::array({plan_step(plan_title, plan_text), text_step("Starting over.")}));
        QVERIFY(s.start());
        s.send(QStringLiteral("plan it"));
        QVERIFY(s.plan_shown());
        QVERIFY(s.composer().busy());

        s.send(QStringLiteral("never mind, something else"));
        QVERIFY(s.dismissed());
        QTRY_VERIFY(!s.composer().busy());
        QCOMPARE(json_text(s.status(), "pending"), QStringLiteral("null"));
        QTRY_VERIFY(s.transcript()
                        .texts_of(ChatTranscript::Entry::message)
                        .contains(QStringLiteral("Starting over.")));
    }

    void dismissed_by_stop() {
        TempProject project;
        Agent s(project, Json::array({plan_step(plan_title, plan_text), text_step("ok")}));
        QVERIFY(s.start());
        s.send(QStringLiteral("plan it"));
        QVERIFY(s.plan_shown());

        QCOMPARE(s.composer().send_button()->text(), QStringLiteral("Stop"));
        click(s.composer().send_button());
        QVERIFY(s.dismissed());
        QTRY_VERIFY(!s.composer().busy());
        const Json status = s.status();
        QCOMPARE(json_text(status, "pending"), QStringLiteral("null"));
        QCOMPARE(json_text(status, "busy"), QStringLiteral("false"));
        QVERIFY(s.transcript()
                    .texts_of(ChatTranscript::Entry::note)
                    .contains(QStringLiteral("Stopped.")));
    }

    void dismissed_by_clear() {
        TempProject project;
        Agent s(project, Json::array({plan_step(plan_title, plan_text), text_step("ok")}));
        QVERIFY(s.start());
        s.send(QStringLiteral("plan it"));
        QVERIFY(s.plan_shown());
        QVERIFY(s.transcript().entry_count() > 0);

        click(s.chat().clear_button());
        QVERIFY(s.dismissed());
        QTRY_COMPARE(s.transcript().entry_count(), 0);
        QCOMPARE(json_text(s.status(), "pending"), QStringLiteral("null"));
        QVERIFY(s.ask("agent.history")["messages"].empty());
    }

    // A window that attaches later rebuilds the conversation from agent.history, each tool
    // call with what became of it (the core spells results {id, ok, content, exit}).
    void a_later_window_shows_the_conversation_with_results() {
        TempProject project;
        project.write("greet.py", greet);
        Agent s(project, Json::array({step({tool("read_file", {{"path", "greet.py"}}),
                                            tool("read_file", {{"path", "missing.py"}})},
                                           "Looking."),
                                      text_step("All read.")}));
        QVERIFY(s.start());
        s.send(QStringLiteral("read them"));
        QTRY_VERIFY(s.transcript()
                        .texts_of(ChatTranscript::Entry::message)
                        .contains(QStringLiteral("All read.")));
        const QStringList live = s.transcript().texts_of(ChatTranscript::Entry::tool);

        LateWindow late;
        QVERIFY(late.attach(project));
        const ChatTranscript& replayed = *late.window.chat()->transcript();
        const QStringList tools = replayed.texts_of(ChatTranscript::Entry::tool);
        QCOMPARE(tools.size(), 2);
        QCOMPARE(tools.at(0), QStringLiteral("› read greet.py"));
        QVERIFY2(tools.at(1).startsWith(QStringLiteral("› read missing.py\n  ✗ ")),
                 qPrintable(tools.at(1)));
        QCOMPARE(tools, live);
        QCOMPARE(replayed.texts_of(ChatTranscript::Entry::user),
                 QStringList{QStringLiteral("read them")});
        QVERIFY(replayed.texts_of(ChatTranscript::Entry::message)
                    .contains(QStringLiteral("All read.")));
    }

    void recent_conversations_continue_a_saved_session() {
        TempProject project;
        Agent s(project, Json::array({text_step("Noted."), text_step("It was teapot.")}));
        QVERIFY(s.start());
        s.send(QStringLiteral("remember the word teapot"));
        QTRY_VERIFY(s.transcript()
                        .texts_of(ChatTranscript::Entry::message)
                        .contains(QStringLiteral("Noted.")));
        const Json first = s.status()["session"];
        s.ask("agent.session.new");
        QTRY_VERIFY(s.transcript().texts_of(ChatTranscript::Entry::user).isEmpty());

        QMenu* recent = nullptr;
        for (QMenu* menu : s.window.findChildren<QMenu*>())
            if (menu->title() == QStringLiteral("Recent &Conversations")) recent = menu;
        QVERIFY(recent);
        emit recent->aboutToShow();
        QAction* saved = nullptr;
        QVERIFY(QTest::qWaitFor(
            [&] {
                for (QAction* a : recent->actions())
                    if (a->data().toString().toStdString() == first.get<std::string>()) saved = a;
                return saved != nullptr;
            },
            5000));
        QVERIFY2(saved->text().startsWith(QStringLiteral("remember the word teapot — ")),
                 qPrintable(saved->text()));
        QVERIFY(saved->text().endsWith(QStringLiteral(" · 1 turn")));
        saved->trigger();
        QTRY_COMPARE(s.transcript().texts_of(ChatTranscript::Entry::user),
                     QStringList{QStringLiteral("remember the word teapot")});
        QVERIFY(s.transcript()
                    .texts_of(ChatTranscript::Entry::message)
                    .contains(QStringLiteral("Noted.")));
        QVERIFY(s.status()["session"] == first);
        s.send(QStringLiteral("what was the word?"));
        QTRY_VERIFY(s.transcript()
                        .texts_of(ChatTranscript::Entry::message)
                        .contains(QStringLiteral("It was teapot.")));
        QCOMPARE(static_cast<int>(s.provider_calls().back()["conversation"].size()), 3);
    }

    // Issue 46 item 2: a project is a workspace. Another folder takes its own conversation
    // and tabs; a turn still running is stopped only when the person says so; coming back
    // continues the conversation and reopens the tabs.
    void opening_another_folder_switches_the_conversation_and_the_open_files() {
        TempProject project;
        project.write(QStringLiteral("a.txt"), "alpha\n");
        TempProject other;
        other.write(QStringLiteral("b.txt"), "beta\n");
        Agent s(project,
                Json::array({text_step("In A."), {{"text", "slow"}, {"delay_ms", 30000}}}));
        QVERIFY(s.start());
        EditorArea& editors = *s.window.editors();
        s.window.open_file(QStringLiteral("a.txt"));
        QTRY_COMPARE(editors.open_paths(), QStringList{QStringLiteral("a.txt")});
        s.send(QStringLiteral("work on A"));
        QTRY_VERIFY(s.transcript()
                        .texts_of(ChatTranscript::Entry::message)
                        .contains(QStringLiteral("In A.")));
        QTRY_VERIFY(!s.composer().busy());

        s.send(QStringLiteral("take your time"));
        QTRY_VERIFY(s.composer().busy());
        answer_next_box(QStringLiteral("&Cancel"));
        s.window.open_project(other.path());
        QCOMPARE(s.window.project_root(), project.path());
        QCOMPARE(json_text(s.status(), "busy"), QStringLiteral("true"));

        answer_next_box(QStringLiteral("&Stop and Open"));
        s.window.open_project(other.path());
        QTRY_COMPARE(s.window.project_root(), other.path());
        QTRY_VERIFY(s.transcript().texts_of(ChatTranscript::Entry::user).isEmpty());
        QTRY_VERIFY(!s.composer().busy());
        QVERIFY(editors.open_paths().isEmpty());
        s.window.open_file(QStringLiteral("b.txt"));
        QTRY_COMPARE(editors.open_paths(), QStringList{QStringLiteral("b.txt")});

        s.window.open_project(project.path()); // nothing runs: no question
        QTRY_COMPARE(s.window.project_root(), project.path());
        QTRY_COMPARE(s.transcript().texts_of(ChatTranscript::Entry::user),
                     (QStringList{QStringLiteral("work on A"), QStringLiteral("take your time")}));
        QTRY_COMPARE(editors.open_paths(), QStringList{QStringLiteral("a.txt")});

        // Another client opens the other folder: this window follows.
        QVERIFY(!s.ask("project.open", Json{{"path", other.path().toStdString()}}).is_null());
        QTRY_COMPARE(s.window.project_root(), other.path());
        QTRY_VERIFY(s.transcript().texts_of(ChatTranscript::Entry::user).isEmpty());
        QTRY_COMPARE(editors.open_paths(), QStringList{QStringLiteral("b.txt")});
        const QHash<QString, QStringList> kept = s.window.open_files();
        QCOMPARE(kept.value(project.path()), QStringList{QStringLiteral("a.txt")});
        QCOMPARE(kept.value(other.path()), QStringList{QStringLiteral("b.txt")});
    }

    // A plan waiting for a decision is not a running turn: nothing is asked, the plan view
    // goes with its conversation and comes back with it.
    void a_pending_plan_waits_in_its_project() {
        TempProject project;
        TempProject other;
        Agent s(project, Json::array({plan_step("Shout", "1. Add --shout\n")}));
        QVERIFY(s.up_to_plan_shown(false));
        s.window.open_project(other.path());
        QTRY_COMPARE(s.window.project_root(), other.path());
        QTRY_VERIFY(!s.review().pending());
        QTRY_VERIFY(s.shows_editors());
        s.window.open_project(project.path());
        QTRY_VERIFY(s.plan_shown());
        QVERIFY(s.review().pending());
    }

    void dismissed_by_decision_from_second_client() {
        TempProject project;
        Agent s(project, Json::array({plan_step(plan_title, plan_text), text_step("ok")}));
        QVERIFY(s.up_to_plan_shown(false));

        const Json pending = s.status()["pending"];
        const Json decided = s.ask("agent.approve", Json{{"turn", pending.value("turn", Json())},
                                                         {"decision", "approve"},
                                                         {"policy", "review"}});
        QVERIFY(decided.is_object());
        QVERIFY(s.dismissed());
        QTRY_COMPARE(s.chat().mode_control()->shown_label(), QStringLiteral("Review"));
        QVERIFY(s.transcript()
                    .texts_of(ChatTranscript::Entry::note)
                    .contains(QStringLiteral("Plan approved — review each edit")));
    }

    void compare_view_for_an_edit() {
        TempProject project;
        QByteArray table;
        for (int i = 1; i <= 20; ++i)
            table += "row " + QByteArray::number(i) + "\n";
        project.write("table.txt", table);
        Agent s(project, Json::array({edit_step("table.txt", "row 5\nrow 6\nrow 7\nrow 8\n",
                                                "ROW 5\nROW 6\nrow 6b\nROW 7\nROW 8\n"),
                                      edit_step("table.txt", "row 15\n", "row fifteen\n"),
                                      text_step("done")}));
        QVERIFY(s.start());
        s.window.resize(2400, 900); // room for the two sides
        s.send(QStringLiteral("shout rows 5 to 8"));

        // The compare view opens by itself.
        QTRY_VERIFY(s.centre_view() == s.compare_view());
        QVERIFY(s.compare_view()->header_text().contains(QStringLiteral("table.txt")));
        const QStringList left = s.compare_view()->left_lines();
        const QStringList right = s.compare_view()->right_lines();
        QCOMPARE(left.size(), right.size());
        QCOMPARE(s.compare_view()->left_editor()->lines(),
                 s.compare_view()->right_editor()->lines());
        // Each side holds its whole text, in order; unchanged lines sit side by side.
        QStringList original, proposed;
        for (const CompareRow& row : s.compare_view()->rows()) {
            if (row.left) original << row.left_text;
            if (row.right) proposed << row.right_text;
            if (row.kind == RowKind::same) QCOMPARE(row.left_text, row.right_text);
        }
        QCOMPARE(original.join('\n') + '\n', QString::fromUtf8(table));
        QCOMPARE(proposed.join('\n') + '\n',
                 QString::fromUtf8(table).replace(
                     QStringLiteral("row 5\nrow 6\nrow 7\nrow 8\n"),
                     QStringLiteral("ROW 5\nROW 6\nrow 6b\nROW 7\nROW 8\n")));
        const qsizetype row9 = left.indexOf(QStringLiteral("row 9"));
        QVERIFY(row9 > 0);
        QCOMPARE(right.at(row9), QStringLiteral("row 9"));
        QCOMPARE(right.indexOf(QStringLiteral("ROW 5")), left.indexOf(QStringLiteral("row 5")));

        click(s.bar().approve_button());
        QTRY_VERIFY(project.read("table.txt").contains("ROW 5"));
        // The next, one-line edit (same heading: told apart by its diff) shows itself too;
        // put away, Compare on the bar brings it back.
        QTRY_VERIFY(pending_diff(s.review().pending()).contains(QStringLiteral("row fifteen")));
        QVERIFY(s.proposal_shown(QStringLiteral("Edit table.txt")));
        QTRY_VERIFY(s.centre_view() == s.compare_view());
        QTest::keyClick(s.compare_view()->right_editor(), Qt::Key_Escape);
        QVERIFY(s.shows_editors());
        click(s.bar().compare_button());
        QTRY_VERIFY(s.centre_view() == s.compare_view());
        const qsizetype at = s.compare_view()->left_lines().indexOf(QStringLiteral("row 15"));
        QVERIFY(at >= 0);
        QCOMPARE(s.compare_view()->right_lines().at(at), QStringLiteral("row fifteen"));
        QCOMPARE(s.compare_view()->rows().at(static_cast<std::size_t>(at)).kind, RowKind::changed);
        // Esc goes back to the editors, the edit still pending.
        QTest::keyClick(s.compare_view()->right_editor(), Qt::Key_Escape);
        QVERIFY(s.shows_editors());
        QCOMPARE(qstr(s.status()["pending"], "kind"), QStringLiteral("edit"));
    }

    // Issue 46 item 1: a command with no spaces to wrap at made the approval bar as wide as
    // itself, and the chat and the window with it (past a 1366 px screen, under Xvfb).
    void a_long_command_wraps_in_the_approval_bar_and_the_window_keeps_its_size() {
        TempProject project;
        const std::string ys(250, 'y');
        std::string path = "`src";
        for (int i = 0; i < 6; ++i)
            path += "/averyveryverylongdirectoryname" + std::to_string(i);
        path += "/file.py`";
        Json run =
            step({tool("run_command", {{"argv", {"sh", "-c", "echo " + ys + "; echo done"}}})});
        run["text"] = "Look at " + path + " and this:\n\n```\n" + std::string(300, 'x') + "\n```\n";
        const std::string finished = "Finished. " + path;
        Agent s(project, Json::array({run, text_step(finished.c_str())}));
        QVERIFY(s.start());
        const QSize window = s.window.size();
        const int chat = s.chat().width();
        s.send(QStringLiteral("echo it"));
        QVERIFY(s.proposal_shown(QStringLiteral("Run this command?")));
        QVERIFY(drain_events() && drain_events());
        QCOMPARE(s.window.size(), window);
        QCOMPARE(s.chat().width(), chat);
        WrappingText* detail = s.bar().detail();
        QVERIFY(detail->text().contains(QString::fromStdString("echo " + ys)));
        QVERIFY(detail->width() <= s.bar().width());
        // Every line of it shows: as tall as its wrapped lines, not one clipped line.
        QVERIFY(detail->height() >= detail->heightForWidth(detail->width()));
        QVERIFY(detail->height() >= 4 * detail->fontMetrics().lineSpacing());

        // Run: its card and the reply after it keep the chat's width too.
        click(s.bar().approve_button());
        QTRY_VERIFY(!s.composer().busy());
        QVERIFY(drain_events() && drain_events());
        QWidget* widest = nullptr;
        for (QWidget* w : s.chat().findChildren<QWidget*>())
            if (w->isVisible() &&
                (!widest || w->minimumSizeHint().width() > widest->minimumSizeHint().width()))
                widest = w;
        QVERIFY2(s.window.size() == window,
                 qPrintable(QStringLiteral("widest: %1 %2 min %3")
                                .arg(QString::fromLatin1(widest->metaObject()->className()),
                                     widest->objectName())
                                .arg(widest->minimumSizeHint().width())));
        QCOMPARE(s.chat().width(), chat);
        // While it ran, the line under the message box named it: cut to the chat's width
        // (under Xvfb that line took the window from 1200 to 2676 px).
        auto* indicator = s.chat().findChild<WorkingIndicator*>();
        QVERIFY(indicator);
        indicator->setText(QStringLiteral("Running echo ") + QString(250, QLatin1Char('y')) +
                           QStringLiteral(" · 2s"));
        QVERIFY(s.composer().minimumSizeHint().width() < chat);
    }

    void command_proposal_shows_argv_and_cwd() {
        TempProject project;
        project.write("sub/keep.txt", "k\n");
        Agent s(project,
                Json::array({step({tool("run_command",
                                        {{"argv", {"touch", "made by run"}}, {"cwd", "sub"}})}),
                             step({tool("run_command", {{"argv", {"touch", "never.txt"}}})}),
                             text_step("done")}));
        QVERIFY(s.start());
        s.send(QStringLiteral("touch a file"));
        QVERIFY(s.proposal_shown(QStringLiteral("Run this command?")));
        QVERIFY(s.bar().detail()->text().contains(QStringLiteral("$ touch 'made by run'")));
        QVERIFY(s.bar().detail()->text().contains(QStringLiteral("(in sub)")));
        QCOMPARE(s.bar().approve_button()->text(), QStringLiteral("Run"));
        if (s.status()["sandbox"].value("available", false)) {
            QVERIFY(s.bar().detail()->text().contains(
                QStringLiteral("sandboxed: workspace-write, no network")));
            QVERIFY(s.bar().widen_button()->isVisible());
        }
        QVERIFY(s.bar().reject_button()->isVisible());
        QVERIFY(!s.bar().compare_button()->isVisible());
        QVERIFY(!s.bar().edit_plan_button()->isVisible());
        QVERIFY(!s.bar().plan_button()->isVisible());
        QVERIFY(s.shows_editors());

        click(s.bar().approve_button());
        QTRY_VERIFY(QFile::exists(project.path() + QStringLiteral("/sub/made by run")));
        // The second command: in the project folder; rejected without a reason.
        QTRY_VERIFY(s.bar().showing() &&
                    s.bar().detail()->text().contains(QStringLiteral("never.txt")));
        QVERIFY(s.bar().detail()->text().contains(QStringLiteral("(in the project folder)")));
        click(s.bar().reject_button());
        QVERIFY(s.bar().reason_field()->isVisible());
        click(s.bar().reject_button());
        QVERIFY(s.dismissed());
        QTRY_VERIFY(!s.composer().busy());
        QVERIFY(!QFile::exists(project.path() + QStringLiteral("/never.txt")));
        QVERIFY(s.transcript()
                    .texts_of(ChatTranscript::Entry::note)
                    .contains(QStringLiteral("Command rejected")));
        QVERIFY(s.transcript()
                    .texts_of(ChatTranscript::Entry::tool)
                    .join(QLatin1Char('\n'))
                    .contains(QStringLiteral("✗ You rejected it")));
    }

    // DESIGN §19: "Run without the sandbox" holds for the one command it was chosen for.
    void a_command_runs_without_the_sandbox_only_when_asked_and_only_once() {
        TempProject project;
        Agent s(project,
                Json::array({step({tool("run_command", {{"argv", {"touch", "top.txt"}}}),
                                   tool("run_command", {{"argv", {"touch", "again.txt"}}})}),
                             text_step("done")}));
        QVERIFY(s.start());
        if (!s.status()["sandbox"].value("available", false))
            QSKIP("commands run unsandboxed here: nothing to widen");
        s.send(QStringLiteral("touch files"));
        QVERIFY(s.proposal_shown(QStringLiteral("Run this command?")));
        QVERIFY(s.bar().widen_button()->isVisible());
        s.bar().run_unsandboxed_action()->trigger();
        QTRY_VERIFY(QFile::exists(project.path() + QStringLiteral("/top.txt")));
        QTRY_VERIFY(s.bar().showing() &&
                    s.bar().detail()->text().contains(QStringLiteral("again.txt")));
        click(s.bar().approve_button());
        QTRY_VERIFY(!s.composer().busy());
        QVERIFY2(!QFile::exists(project.path() + QStringLiteral("/again.txt")),
                 "the top level takes no new files in the sandbox");
        // A command that ran is a card: its folded line says how it ran.
        const QString lines =
            s.transcript().texts_of(ChatTranscript::Entry::command).join(QLatin1Char('\n'));
        QVERIFY2(lines.contains(QStringLiteral("· not sandboxed")), qPrintable(lines));
        QVERIFY2(lines.contains(QStringLiteral("· sandboxed: workspace-write, no network")),
                 qPrintable(lines));
    }

    // Issue 45: a command that asks for hosts is offered them under Other ways, once or for
    // every command; "always" keeps them in the user's config.json and the chat says so.
    void a_command_that_asks_for_hosts_may_reach_them_and_always_keeps_them() {
        TempProject project;
        project.write("out/.keep", "");
        Agent s(project,
                Json::array({step({tool("run_command", {{"argv", {"touch", "out/hosts.txt"}},
                                                        {"hosts", {"localhost"}}}),
                                   tool("run_command", {{"argv", {"touch", "out/plain.txt"}}})}),
                             text_step("done")}));
        QVERIFY(s.start());
        if (s.status()["sandbox"].value("network", "") != "by-host")
            QSKIP("hosts cannot be told apart here: NetworkHostsE2E checks what is said");
        const QString config = home_.path() + QStringLiteral("/config/rio/config.json");
        QFile::remove(config);
        s.send(QStringLiteral("touch files"));
        QVERIFY(s.proposal_shown(QStringLiteral("Run this command?")));
        QVERIFY2(s.bar().detail()->text().contains(
                     QStringLiteral("It asks for the network to localhost")),
                 qPrintable(s.bar().detail()->text()));
        QVERIFY(s.bar().run_with_hosts_action()->isVisible());
        QVERIFY(s.bar().run_with_hosts_always_action()->isVisible());
        s.bar().run_with_hosts_always_action()->trigger();
        QTRY_VERIFY(QFile::exists(project.path() + QStringLiteral("/out/hosts.txt")));
        QTRY_VERIFY(s.bar().showing() &&
                    s.bar().detail()->text().contains(QStringLiteral("plain.txt")));
        QVERIFY2(!s.bar().run_with_hosts_action()->isVisible(), "it asked for no hosts");
        QVERIFY2(s.bar().detail()->text().contains(QStringLiteral("network only to localhost")),
                 qPrintable(s.bar().detail()->text()));
        click(s.bar().approve_button());
        QTRY_VERIFY(!s.composer().busy());
        QVERIFY(s.transcript()
                    .texts_of(ChatTranscript::Entry::note)
                    .contains(QStringLiteral("Command allowed to run with the network to "
                                             "localhost (kept for later commands)")));
        QFile kept(config);
        QVERIFY(kept.open(QIODevice::ReadOnly));
        QVERIFY2(kept.readAll().contains("\"hosts\""), "kept in the user's config.json");
        QFile::remove(config);
    }

    // Issue 39: a variable that looks like a secret reaches a command only when a person
    // chose "Run with my environment" for it, and for that one command.
    void a_command_gets_secret_looking_variables_only_with_my_environment() {
        TempProject project;
        project.write("out/.keep", "");
        qputenv("DEMO_DEPLOY_TOKEN", "gui-tok-5");
        const auto write_token = [](const char* file) {
            return tool("run_command", {{"argv",
                                         {"sh", "-c",
                                          std::string("printf %s \"$DEMO_DEPLOY_TOKEN\" > "
                                                      "out/") +
                                              file}}});
        };
        Agent s(project, Json::array({step({write_token("with.txt"), write_token("plain.txt")}),
                                      text_step("done")}));
        const bool started = s.start();
        qunsetenv("DEMO_DEPLOY_TOKEN"); // the core has it; nothing else needs it
        QVERIFY(started);
        if (!s.status()["sandbox"].value("available", false))
            QSKIP("commands run unsandboxed here: the approval bar offers no other ways");
        s.send(QStringLiteral("write the token"));
        QVERIFY(s.proposal_shown(QStringLiteral("Run this command?")));
        s.bar().run_with_environment_action()->trigger();
        QTRY_VERIFY(QFile::exists(project.path() + QStringLiteral("/out/with.txt")));
        QTRY_VERIFY(s.bar().showing() &&
                    s.bar().detail()->text().contains(QStringLiteral("plain.txt")));
        click(s.bar().approve_button());
        QTRY_VERIFY(!s.composer().busy());
        QFile with(project.path() + QStringLiteral("/out/with.txt"));
        QFile plain(project.path() + QStringLiteral("/out/plain.txt"));
        QVERIFY(with.open(QIODevice::ReadOnly) && plain.open(QIODevice::ReadOnly));
        QCOMPARE(with.readAll(), QByteArray("gui-tok-5"));
        QCOMPARE(plain.readAll(), QByteArray());
        const QString lines =
            s.transcript().texts_of(ChatTranscript::Entry::command).join(QLatin1Char('\n'));
        QVERIFY2(lines.contains(QStringLiteral("with your environment")), qPrintable(lines));
    }

    void mode_control_follows_other_client() {
        TempProject project;
        Agent s(project, Json::array());
        QVERIFY(s.start());
        ModeControl* mode = s.chat().mode_control();
        QCOMPARE(mode->shown_label(), QStringLiteral("Review"));

        s.ask("agent.mode.set", Json{{"mode", "plan"}});
        QTRY_COMPARE(mode->shown_label(), QStringLiteral("Plan"));
        QVERIFY(mode->button(ModeChoice::plan)->isChecked());
        QVERIFY(!mode->button(ModeChoice::review)->isChecked());

        s.ask("agent.autoaccept.set", Json{{"on", true}});
        s.ask("agent.mode.set", Json{{"mode", "build"}});
        QTRY_COMPARE(mode->shown_label(), QStringLiteral("Auto"));
        QVERIFY(mode->button(ModeChoice::auto_accept)->isChecked());

        // And the other way: a click here changes the core, which the other client sees.
        QTest::mouseClick(mode->button(ModeChoice::review), Qt::LeftButton);
        QTRY_COMPARE(mode->shown_label(), QStringLiteral("Review"));
        const Json status = s.status();
        QCOMPARE(qstr(status, "mode"), QStringLiteral("build"));
        QCOMPARE(json_text(status, "auto_accept"), QStringLiteral("false"));
    }

    void shift_tab_in_the_chat_cycles_plan_review_auto() {
        TempProject project;
        project.write("a.txt", "    x\n");
        Agent s(project, Json::array());
        QVERIFY(s.start());
        QVERIFY(s.set_mode("plan", false));
        ModeControl* mode = s.chat().mode_control();
        QWidget* input = s.composer().input();
        input->setFocus();
        QTest::keyClick(input, Qt::Key_Backtab, Qt::ShiftModifier);
        QTRY_COMPARE(mode->shown_label(), QStringLiteral("Review"));
        QCOMPARE(qstr(s.status(), "mode"), QStringLiteral("build"));
        QTest::keyClick(input, Qt::Key_Backtab, Qt::ShiftModifier);
        QTRY_COMPARE(mode->shown_label(), QStringLiteral("Auto"));
        QCOMPARE(json_text(s.status(), "auto_accept"), QStringLiteral("true"));
        QTest::keyClick(mode->button(ModeChoice::auto_accept), Qt::Key_Backtab, Qt::ShiftModifier);
        QTRY_COMPARE(mode->shown_label(), QStringLiteral("Plan"));
        QCOMPARE(qstr(s.status(), "mode"), QStringLiteral("plan"));
        QVERIFY(input->hasFocus() || mode->button(ModeChoice::auto_accept)->hasFocus());
        // From the transcript, and spelled as other platforms do: Shift+Tab, Backtab alone.
        QTest::keyClick(&s.transcript(), Qt::Key_Tab, Qt::ShiftModifier);
        QTRY_COMPARE(mode->shown_label(), QStringLiteral("Review"));
        QTest::keyClick(input, Qt::Key_Backtab);
        QTRY_COMPARE(mode->shown_label(), QStringLiteral("Auto"));
        // Each press is one step: no shortcut answers the same key a second time.
        QVERIFY(!round_trip(s.core).error);
        QCOMPARE(json_text(s.status(), "auto_accept"), QStringLiteral("true"));
        QCOMPARE(mode->shown_label(), QStringLiteral("Auto"));
        // In the editor it stays unindent: the mode does not move.
        s.window.editors()->open(QStringLiteral("a.txt"));
        QTRY_VERIFY(s.window.editors()->current_editor());
        s.window.editors()->current_editor()->setFocus();
        QTest::keyClick(s.window.editors()->current_editor(), Qt::Key_Backtab, Qt::ShiftModifier);
        QVERIFY(!round_trip(s.core).error);
        QCOMPARE(mode->shown_label(), QStringLiteral("Auto"));
    }

    // Issue 15 item 8: the provider label takes what room is left, the mode control never moves.
    void mode_buttons_keep_their_places_whatever_the_provider_label() {
        TempProject project;
        Agent s(project, Json::array());
        QVERIFY(s.start());
        ModeControl* mode = s.chat().mode_control();
        ProviderStrip* strip = s.chat().provider_strip();
        QTRY_VERIFY(strip->full_text().startsWith(QStringLiteral("script")));
        QVERIFY(drain_events());
        const auto places = [&] {
            QList<QRect> rects;
            for (ModeChoice choice :
                 {ModeChoice::plan, ModeChoice::review, ModeChoice::auto_accept}) {
                QToolButton* button = mode->button(choice);
                rects << QRect(button->mapTo(&s.window, QPoint(0, 0)), button->size());
            }
            return rects;
        };
        const QList<QRect> before = places();
        const int chat_width = s.chat().width();
        const int window_width = s.window.width();

        const QString model = QStringLiteral("qwen2.5-coder-32b-instruct-q4_K_M-from-the-local-"
                                             "llama-server-with-a-very-long-name");
        strip->show_status(QStringLiteral("openai"), model);
        QVERIFY(drain_events() && drain_events()); // the layout runs from posted events
        QCOMPARE(places(), before);
        QCOMPARE(s.chat().width(), chat_width);
        QCOMPARE(s.window.width(), window_width);
        QVERIFY2(strip->text().contains(QStringLiteral("…")), qPrintable(strip->text()));
        QVERIFY(strip->toolTip().contains(model)); // the whole of it, on hover
        // On the line under the mode buttons, with the context meter.
        QVERIFY(strip->mapTo(&s.window, QPoint(0, 0)).y() >= before.back().bottom());

        strip->show_status(QStringLiteral("echo"), QString());
        QVERIFY(drain_events() && drain_events());
        QCOMPARE(places(), before);
        QCOMPARE(strip->text(), QStringLiteral("echo"));

        // Issue 46 item 5: a usual provider and model are read whole at the narrowest chat
        // (beside the mode buttons they were "ant…4-5" at every size).
        QCOMPARE(s.chat().width(), 380);
        for (const auto& [provider, model] :
             {std::pair{"anthropic", "claude-sonnet-4-5"}, std::pair{"openai", "gpt-5-codex"},
              std::pair{"openai", "fake-model"}}) {
            strip->show_status(QString::fromLatin1(provider), QString::fromLatin1(model));
            QVERIFY(drain_events() && drain_events());
            QVERIFY2(strip->text() == strip->full_text(),
                     qPrintable(QStringLiteral("%1 in %2 px, wants %3")
                                    .arg(strip->text())
                                    .arg(strip->width())
                                    .arg(strip->sizeHint().width())));
        }
    }

    void composer_send_and_stop() {
        TempProject project;
        Agent s(project, Json::array({{{"text", "slow"}, {"delay_ms", 30000}}, text_step("fast")}));
        QVERIFY(s.start());
        QPushButton* button = s.composer().send_button();
        QCOMPARE(button->text(), QStringLiteral("Send"));
        QVERIFY(!button->isEnabled()); // nothing to send

        type_text(s.composer().input(), QStringLiteral("hello"));
        QVERIFY(button->isEnabled());
        click(button);
        QTRY_VERIFY(s.composer().busy());
        QCOMPARE(button->text(), QStringLiteral("Stop"));
        QVERIFY(button->isEnabled());
        QVERIFY(s.composer().text().isEmpty());
        QCOMPARE(s.composer().activity(), QStringLiteral("Waiting for the model"));
        QVERIFY(
            s.transcript().texts_of(ChatTranscript::Entry::user).contains(QStringLiteral("hello")));
        QCOMPARE(json_text(s.status(), "busy"), QStringLiteral("true"));

        click(button);
        QTRY_VERIFY(!s.composer().busy());
        QCOMPARE(button->text(), QStringLiteral("Send"));
        QVERIFY(!button->isEnabled());
        QVERIFY(s.composer().activity().isEmpty());
        QCOMPARE(json_text(s.status(), "busy"), QStringLiteral("false"));
        QVERIFY(s.transcript()
                    .texts_of(ChatTranscript::Entry::note)
                    .contains(QStringLiteral("Stopped.")));

        // The next turn runs to its end and the button comes back by itself.
        s.send(QStringLiteral("again"));
        QTRY_VERIFY(s.transcript()
                        .texts_of(ChatTranscript::Entry::message)
                        .contains(QStringLiteral("fast")));
        QTRY_VERIFY(!s.composer().busy());
        QCOMPARE(button->text(), QStringLiteral("Send"));
    }

    void approval_bar_keyboard_reachable() {
        TempProject project;
        Agent s(project, Json::array({plan_step(plan_title, plan_text), text_step("ok")}));
        QVERIFY(s.start());
        QVERIFY(s.set_mode("plan", false));
        QVERIFY(s.activate());
        s.send(QStringLiteral("plan it"));
        QVERIFY(s.plan_shown());
        ApprovalBar& bar = s.bar();
        // Alt+key wherever the focus is, as the window system would deliver it.
        const auto alt = [&s](Qt::Key key) {
            QWidget* focus = QApplication::focusWidget();
            QTest::keyClick(focus ? focus : &s.window, key, Qt::AltModifier);
        };

        // Tab from the composer: its button, then the bar's buttons in the order shown.
        s.composer().input()->setFocus();
        QTRY_VERIFY(s.composer().input()->hasFocus());
        QList<QWidget*> reached;
        for (int i = 0; i < 5; ++i) {
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
            reached << QApplication::focusWidget();
        }
        const QList<QWidget*> tab_path{s.composer().send_button(), bar.approve_button(),
                                       bar.edit_plan_button(), bar.reject_button(),
                                       bar.plan_button()};
        QCOMPARE(reached, tab_path);

        // Alt+R: the reason field, focused; Esc puts it away. (A shortcut "animates" its
        // button's click, which lands a moment later.)
        alt(Qt::Key_R);
        QTRY_VERIFY(bar.reason_field()->isVisible());
        QVERIFY(bar.reason_field()->hasFocus());
        QTest::keyClick(bar.reason_field(), Qt::Key_Escape);
        QVERIFY(!bar.reason_field()->isVisible());
        QVERIFY(s.bar().showing());

        // Esc closes the plan, Alt+P brings it back, Alt+E opens the file.
        QTest::keyClick(s.plan_view()->body(), Qt::Key_Escape);
        QVERIFY(s.shows_editors());
        alt(Qt::Key_P);
        QVERIFY(s.plan_shown());
        const QString path = qstr(s.status()["pending"], "path");
        alt(Qt::Key_E);
        QTRY_COMPARE(s.window.editors()->current_path(), path);
        QVERIFY(s.shows_editors());

        // Alt+A opens the approve menu; R picks "review each edit".
        alt(Qt::Key_A);
        QTRY_VERIFY(bar.approve_menu()->isVisible());
        QTest::keyClick(bar.approve_menu(), Qt::Key_R);
        QVERIFY(s.dismissed());
        QTRY_COMPARE(s.chat().mode_control()->shown_label(), QStringLiteral("Review"));
        QCOMPARE(qstr(s.status(), "mode"), QStringLiteral("build"));
    }

    // Issue 48: a subagent's card under its task call, the user's commands in the composer's
    // list, and Rewind to Here on a message.
    void subagent_card_command_list_and_rewind_to_here() {
        TempProject project;
        project.write(QStringLiteral("greet.py"), greet);
        project.write(QStringLiteral(".rio/commands/shout-it.md"),
                      "---\ndescription: make it loud\n---\nShout $1.\n");
        Agent s(project, Json::array({step({tool("task", {{"description", "find greet"},
                                                          {"prompt", "Where is the greeting?"}})}),
                                      step({tool("search", {{"pattern", "Hello"}})}),
                                      text_step("greet.py line 2"), text_step("It is in greet.py."),
                                      text_step("Shouted.")}));
        QVERIFY(s.start());
        s.send(QStringLiteral("where?"));
        QTRY_VERIFY(s.transcript()
                        .texts_of(ChatTranscript::Entry::message)
                        .contains(QStringLiteral("It is in greet.py.")));
        const QStringList cards = s.transcript().texts_of(ChatTranscript::Entry::subagent);
        QCOMPARE(cards.size(), 1);
        QVERIFY2(cards[0].startsWith(QStringLiteral("Subagent \"find greet\" · 1 step · "
                                                    "answered")),
                 qPrintable(cards[0]));
        QVERIFY2(cards[0].contains(QStringLiteral("search \"Hello\"")), qPrintable(cards[0]));

        // '/' lists the commands; Enter picks the first; its arguments follow.
        s.composer().input()->setFocus();
        type_text(s.composer().input(), QStringLiteral("/"));
        QCompleter* list = s.composer().command_completer();
        QTRY_VERIFY(list->popup()->isVisible());
        QVERIFY(list->popup()->model()->index(0, 0).data().toString().startsWith(
            QStringLiteral("/shout-it  make it loud (project)")));
        QTest::keyClick(list->popup(), Qt::Key_Return);
        QTRY_COMPARE(s.composer().text(), QStringLiteral("/shout-it "));
        // The same keys reaching the input instead (a window manager that keeps the keyboard
        // with the main window): Esc closes the list and keeps the text, Tab picks.
        s.composer().set_text(QString());
        type_text(s.composer().input(), QStringLiteral("/"));
        QTRY_VERIFY(list->popup()->isVisible());
        QTest::keyClick(s.composer().input(), Qt::Key_Escape);
        QTRY_VERIFY(!list->popup()->isVisible());
        QCOMPARE(s.composer().text(), QStringLiteral("/"));
        type_text(s.composer().input(), QStringLiteral("s"));
        QTRY_VERIFY(list->popup()->isVisible());
        QTest::keyClick(s.composer().input(), Qt::Key_Tab);
        QTRY_COMPARE(s.composer().text(), QStringLiteral("/shout-it "));
        type_text(s.composer().input(), QStringLiteral("greet.py"));
        QTest::keyClick(s.composer().input(), Qt::Key_Return);
        QTRY_VERIFY(s.transcript()
                        .texts_of(ChatTranscript::Entry::message)
                        .contains(QStringLiteral("Shouted.")));
        QCOMPARE(qstr(s.provider_calls().back()["conversation"].back(), "text"),
                 QStringLiteral("Shout greet.py."));

        // Rewind to the second message: the chat is read again, the message back to edit.
        answer_next_box(QStringLiteral("Rewind"));
        s.chat().rewind_to(2);
        QTRY_COMPARE(s.composer().text(), QStringLiteral("Shout greet.py."));
        QTRY_VERIFY(!s.transcript()
                         .texts_of(ChatTranscript::Entry::message)
                         .contains(QStringLiteral("Shouted.")));
        QVERIFY(s.transcript()
                    .texts_of(ChatTranscript::Entry::message)
                    .contains(QStringLiteral("It is in greet.py.")));
        QCOMPARE(s.ask("agent.history")["messages"].size(), 4u);
    }

private:
    QTemporaryDir home_;
};

QTEST_MAIN(AgentTest)
#include "agent_test.moc"
