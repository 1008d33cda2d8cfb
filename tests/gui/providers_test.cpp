// Settings ▸ Providers against a real rio-core, and for the model list and Test against the
// fake LLM server over real HTTP (its URL as the provider's base URL): a key stored, shown
// masked and removed; the model list; Test's words for a bad key and a good one; "Use this
// provider"; a provider without a key opening the page rather than switching; and the echo
// default saying once how to connect a model.
#include "gui/chat_dock.hpp"
#include "gui/chat_transcript.hpp"
#include "gui/core_client.hpp"
#include "gui/main_window.hpp"
#include "gui/provider_strip.hpp"
#include "gui/providers_page.hpp"
#include "gui/settings_dialog.hpp"
#include "tests/gui/gui_support.hpp"
#include "tests/support/fake_llm.hpp"

#include <QComboBox>
#include <QFile>
#include <QGuiApplication>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QScreen>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace rio;
using namespace rio::gui;
using namespace rio::gui::test;

namespace {

const QString secret = QStringLiteral("sk-ant-test-5f3c9a1e77");

struct Session : WindowSession {
    using WindowSession::WindowSession;

    // Settings ▸ Providers on `provider`, once its key state and options are shown.
    ProvidersPage* page_on(const QString& provider) {
        window.show_providers(provider);
        ProvidersPage* page = window.settings()->providers();
        QSignalSpy shown(page, &ProvidersPage::shown);
        return shown.wait(5000) ? page : nullptr;
    }
};

// Waits for `signal` of `page` after `act` did what a person does.
template <typename Signal>
bool after(ProvidersPage* page, Signal signal, std::function<void()> act) {
    QSignalSpy spy(page, signal);
    act();
    return spy.wait(10000);
}

std::string str(const Json& value) {
    return value.is_string() ? value.get<std::string>() : value.dump();
}

QAction* menu_action(QMenu* menu, const QString& starting) {
    for (QAction* action : menu->actions())
        if (action->text().startsWith(starting)) return action;
    return nullptr;
}

QStringList echo_notes(ChatTranscript* transcript) {
    QStringList notes;
    for (const QString& note : transcript->texts_of(ChatTranscript::Entry::note))
        if (note.contains(QStringLiteral("Settings ▸ Providers"))) notes << note;
    return notes;
}

} // namespace

class ProvidersTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        // Keys, options and the configured provider go to folders of this test alone; none of
        // the developer's own keys or endpoints may leak in.
        QVERIFY(home_.isValid());
        qputenv("XDG_CONFIG_HOME", config_home().toLocal8Bit());
        qputenv("XDG_DATA_HOME", (home_.path() + QStringLiteral("/data")).toLocal8Bit());
        QVERIFY(language_servers(config_home()));
        for (const char* name :
             {"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_BASE_URL", "OPENAI_BASE_URL"})
            qunsetenv(name);
    }

    void a_key_is_stored_shown_masked_and_removed() {
        TempProject project;
        Session s(project);
        QVERIFY(s.settle());
        ProvidersPage* page = s.page_on(QStringLiteral("anthropic"));
        QVERIFY(page);
        QCOMPARE(page->shown_provider(), QStringLiteral("anthropic"));
        QVERIFY2(page->key_state()->text().startsWith(QStringLiteral("No key yet")),
                 qPrintable(page->key_state()->text()));
        QVERIFY(!page->remove_key_button()->isEnabled());
        QVERIFY(!page->use_button()->isEnabled()); // it could not answer
        QCOMPARE(page->key_field()->echoMode(), QLineEdit::Password);

        QTest::keyClicks(page->key_field(), secret);
        QVERIFY(page->save_key_button()->isEnabled());
        QVERIFY(after(page, &ProvidersPage::shown,
                      [&] { QTest::mouseClick(page->save_key_button(), Qt::LeftButton); }));
        QVERIFY(page->key_field()->text().isEmpty());
        QVERIFY(page->key_field()->placeholderText().contains(QStringLiteral("stored")));
        QVERIFY2(page->key_state()->text().startsWith(QStringLiteral("A key is stored")),
                 qPrintable(page->key_state()->text()));
        QVERIFY(page->remove_key_button()->isEnabled());
        QVERIFY(page->use_button()->isEnabled());
        QFile file(data_home() + QStringLiteral("/rio/secrets/anthropic"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll().trimmed(), secret.toUtf8());
        QCOMPARE(file.permissions() &
                     ~(QFile::ReadOwner | QFile::WriteOwner | QFile::ReadUser | QFile::WriteUser),
                 QFile::Permissions());
        // What the dialog shows never holds the key: only that one is stored.
        for (QLabel* label : s.window.settings()->findChildren<QLabel*>())
            QVERIFY2(!label->text().contains(secret), qPrintable(label->text()));
        for (QLineEdit* field : s.window.settings()->findChildren<QLineEdit*>())
            QVERIFY(!field->text().contains(secret) && !field->placeholderText().contains(secret));
        QVERIFY(!page->provider_box()->currentText().contains(QStringLiteral("no key")));

        QVERIFY(after(page, &ProvidersPage::shown,
                      [&] { QTest::mouseClick(page->remove_key_button(), Qt::LeftButton); }));
        QVERIFY(page->key_state()->text().startsWith(QStringLiteral("No key yet")));
        QVERIFY(!QFile::exists(file.fileName()));
        QVERIFY(!page->remove_key_button()->isEnabled());
    }

    void the_model_list_fills_and_test_says_bad_key_then_that_it_works() {
        rio::test::FakeLlm fake(Json::array({{{"status", 401}, {"error", "invalid x-api-key"}},
                                             {{"text", "OK"}},
                                             {{"text", "OK"}}}),
                                Json::array({"claude-fake-large", "claude-fake-small"}));
        const QString url = QString::fromStdString(fake.url());
        TempProject project;
        Session s(project);
        QVERIFY(s.settle());
        ProvidersPage* page = s.page_on(QStringLiteral("anthropic"));
        QVERIFY(page);

        // Another base URL: a local server needs no key, and lists its models.
        QVERIFY(after(page, &ProvidersPage::models_listed, [&] {
            QTest::keyClicks(page->base_url_field(), url);
            QTest::keyClick(page->base_url_field(), Qt::Key_Return);
        }));
        QTRY_COMPARE(page->model_box()->count(), 2);
        QCOMPARE(page->model_box()->itemText(0), QStringLiteral("claude-fake-large"));
        QCOMPARE(page->model_box()->itemText(1), QStringLiteral("claude-fake-small"));
        QVERIFY2(page->model_state()->text().startsWith(QStringLiteral("2 models listed")),
                 qPrintable(page->model_state()->text()));
        QLineEdit* model = page->model_box()->lineEdit();
        model->selectAll();
        QTest::keyClicks(model, QStringLiteral("claude-fake-small"));
        QTest::keyClick(model, Qt::Key_Return);
        const Reply options =
            call(s.core, QStringLiteral("agent.options.list"), Json{{"provider", "anthropic"}});
        QVERIFY(!options.error);
        for (const Json& o : options.result["options"]) {
            if (o["name"] == "model") QCOMPARE(str(o["value"]), "claude-fake-small");
            if (o["name"] == "base_url") QCOMPARE(str(o["value"]), url.toStdString());
        }

        QVERIFY(after(page, &ProvidersPage::shown, [&] {
            QTest::keyClicks(page->key_field(), QStringLiteral("sk-wrong"));
            QTest::keyClick(page->key_field(), Qt::Key_Return);
        }));
        QVERIFY(after(page, &ProvidersPage::tested,
                      [&] { QTest::mouseClick(page->test_button(), Qt::LeftButton); }));
        const QString refused = page->test_result()->text();
        QVERIFY2(refused.startsWith(QStringLiteral("✗ Bad key: ")), qPrintable(refused));
        QVERIFY2(refused.contains(QStringLiteral("invalid x-api-key")), qPrintable(refused));

        QVERIFY(after(page, &ProvidersPage::tested,
                      [&] { QTest::mouseClick(page->test_button(), Qt::LeftButton); }));
        QCOMPARE(page->test_result()->text(),
                 QStringLiteral("✓ It works: claude-fake-small answered at %1.").arg(url));
        // Issue 32 item 6: the answer was about that URL; another typed, it goes. And a URL
        // ending in /v1, as Anthropic's own documentation writes it, reaches the same API.
        QTest::keyClicks(page->base_url_field(), QStringLiteral("/v1"));
        QCOMPARE(page->test_result()->text(), QString());
        QVERIFY(after(page, &ProvidersPage::tested,
                      [&] { QTest::mouseClick(page->test_button(), Qt::LeftButton); }));
        QCOMPARE(page->test_result()->text(),
                 QStringLiteral("✓ It works: claude-fake-small answered at %1.").arg(url));
        // The new URL also made the page ask for the model list, which may reach the server
        // after Test's call: the last POST is the test.
        Json tested_call;
        for (const Json& r : fake.requests())
            if (r["method"] == "POST") tested_call = r;
        QCOMPARE(str(tested_call["path"]), "/v1/messages");
        QCOMPARE(str(tested_call["body"]["model"]), "claude-fake-small");
        QCOMPARE(str(tested_call["headers"]["x-api-key"]), "sk-wrong");

        // Use this provider: the chat's strip follows the core, and the next start too.
        QVERIFY(page->use_button()->isEnabled());
        QTest::mouseClick(page->use_button(), Qt::LeftButton);
        QTRY_VERIFY(s.window.chat()->provider_strip()->full_text() ==
                    QStringLiteral("anthropic · claude-fake-small"));
        QFile config(config_home() + QStringLiteral("/rio/config.json"));
        QVERIFY(config.open(QIODevice::ReadOnly));
        QCOMPARE(str(Json::parse(config.readAll().toStdString())["provider"]), "anthropic");
        QTRY_COMPARE(page->use_button()->text(), QStringLiteral("In use"));
    }

    // Issue 49: the openai provider's API row: automatic says what the model gets, a choice
    // is stored, and Test goes to that API; providers without a wire do not show the row.
    void the_api_row_chooses_the_responses_wire_and_test_uses_it() {
        rio::test::FakeLlm fake(Json::array({{{"text", "OK"}}}));
        const QString url = QString::fromStdString(fake.url()) + QStringLiteral("/v1");
        TempProject project;
        Session s(project);
        QVERIFY(s.settle());
        ProvidersPage* page = s.page_on(QStringLiteral("anthropic"));
        QVERIFY(page);
        QVERIFY(!page->wire_box()->isVisibleTo(page));
        page = s.page_on(QStringLiteral("openai"));
        QVERIFY(page);
        QVERIFY(page->wire_box()->isVisibleTo(page));
        QCOMPARE(page->wire_box()->currentText(),
                 QStringLiteral("Automatic: Chat Completions for this model"));
        QLineEdit* model = page->model_box()->lineEdit();
        QVERIFY(after(page, &ProvidersPage::models_listed, [&] {
            QTest::keyClicks(page->base_url_field(), url);
            QTest::keyClick(page->base_url_field(), Qt::Key_Return);
        }));
        model->selectAll();
        QTest::keyClicks(model, QStringLiteral("gpt-5-codex"));
        QTest::keyClick(model, Qt::Key_Return);
        QTRY_COMPARE(page->wire_box()->currentText(),
                     QStringLiteral("Automatic: Responses API for this model"));

        page->wire_box()->setFocus();
        QTest::keyClick(page->wire_box(), Qt::Key_Down); // Chat Completions
        QTRY_COMPARE(page->wire_box()->currentData().toString(), QStringLiteral("chat"));
        QTest::keyClick(page->wire_box(), Qt::Key_Down); // Responses API
        const auto stored_wire = [this] {
            QFile stored(config_home() + QStringLiteral("/rio/providers/openai.json"));
            if (!stored.open(QIODevice::ReadOnly)) return std::string();
            return Json::parse(stored.readAll().toStdString()).value("wire", std::string());
        };
        QTRY_COMPARE(stored_wire(), std::string("responses"));
        QVERIFY(after(page, &ProvidersPage::tested,
                      [&] { QTest::mouseClick(page->test_button(), Qt::LeftButton); }));
        QVERIFY2(page->test_result()->text().startsWith(QStringLiteral("✓ It works")),
                 qPrintable(page->test_result()->text()));
        QCOMPARE(str(fake.requests().back()["path"]), "/v1/responses");
    }

    void a_provider_without_a_key_opens_the_page_instead_of_switching() {
        TempProject project;
        Session s(project);
        QVERIFY(s.settle());
        ProviderStrip* strip = s.window.chat()->provider_strip();
        QMenu* menu = strip->providers_menu();
        // Opened at the screen's right edge, as from a maximized window: the entries arrive
        // while it is open, and the wider menu still ends on the screen (issue 46 item 5).
        const QRect screen = QGuiApplication::primaryScreen()->availableGeometry();
        menu->popup(QPoint(screen.right() - 40, screen.top() + 100));
        QTRY_VERIFY(menu_action(menu, QStringLiteral("anthropic")));
        QTRY_VERIFY(menu->width() > 200);
        QVERIFY2(screen.contains(menu->geometry()), qPrintable(QStringLiteral("%1,%2 %3×%4")
                                                                   .arg(menu->x())
                                                                   .arg(menu->y())
                                                                   .arg(menu->width())
                                                                   .arg(menu->height())));
        menu->hide();
        QAction* anthropic = menu_action(menu, QStringLiteral("anthropic"));
        QVERIFY2(anthropic->text().contains(QStringLiteral("no key")),
                 qPrintable(anthropic->text()));
        anthropic->trigger();

        QVERIFY(s.window.settings());
        QVERIFY(s.window.settings()->isVisible());
        QCOMPARE(s.window.settings()->pages()->currentWidget(), s.window.settings()->providers());
        QTRY_COMPARE(s.window.settings()->providers()->shown_provider(),
                     QStringLiteral("anthropic"));
        // Nothing switched, nothing was remembered.
        QVERIFY(!round_trip(s.core).error);
        QCOMPARE(
            str(call(s.core, QStringLiteral("agent.status"), Json::object()).result["provider"]),
            "echo");
        QVERIFY(!QFile::exists(config_home() + QStringLiteral("/rio/config.json")));

        // "Providers…" at the menu's foot opens the page on the provider in use.
        s.window.settings()->hide();
        QAction* more = menu_action(menu, QStringLiteral("&Providers…"));
        QVERIFY(more);
        more->trigger();
        QVERIFY(s.window.settings()->isVisible());
        QTRY_COMPARE(s.window.settings()->providers()->shown_provider(), QStringLiteral("echo"));
    }

    // DESIGN §20: another model plans; the one in use takes over at approval. The chat's strip
    // names the planner in plan mode and the builder in build mode.
    void the_plan_model_is_chosen_and_cleared_on_the_page() {
        TempProject project;
        Session s(project);
        QVERIFY(s.settle());
        ProvidersPage* page = s.page_on(QStringLiteral("echo"));
        QVERIFY(page);
        QVERIFY(!page->plan_model_field()->isEnabled());
        QVERIFY2(page->plan_model_state()->text().startsWith(
                     QStringLiteral("The provider in use plans too")),
                 qPrintable(page->plan_model_state()->text()));
        QComboBox* who = page->plan_provider_box();
        // Each choice reads whole in the box ("the provi…" did).
        for (int i = 0; i < who->count(); ++i)
            QTRY_VERIFY2(who->width() > who->fontMetrics().horizontalAdvance(who->itemText(i)) + 24,
                         qPrintable(who->itemText(i)));
        const int openai = who->findData(QStringLiteral("openai"));
        QVERIFY(openai > 0);
        QVERIFY(who->findData(QStringLiteral("echo")) < 0); // a local provider cannot plan
        who->setCurrentIndex(openai);
        emit who->activated(openai);
        QVERIFY(page->plan_model_field()->isEnabled());
        QTest::keyClicks(page->plan_model_field(), QStringLiteral("planner-x"));
        QTest::keyClick(page->plan_model_field(), Qt::Key_Return);
        QTRY_VERIFY2(page->plan_model_state()->text().startsWith(
                         QStringLiteral("openai · planner-x plans; echo")),
                     qPrintable(page->plan_model_state()->text()));
        QFile config(config_home() + QStringLiteral("/rio/config.json"));
        QVERIFY(config.open(QIODevice::ReadOnly));
        const Json stored = Json::parse(config.readAll().toStdString());
        QCOMPARE(str(stored["plan_model"]["provider"]), "openai");
        QCOMPARE(str(stored["plan_model"]["model"]), "planner-x");
        config.close();

        ProviderStrip* strip = s.window.chat()->provider_strip();
        QVERIFY(!call(s.core, QStringLiteral("agent.mode.set"), Json{{"mode", "plan"}}).error);
        QTRY_COMPARE(strip->full_text(), QStringLiteral("openai · planner-x"));
        QVERIFY2(strip->toolTip().contains(QStringLiteral("takes over when you approve")),
                 qPrintable(strip->toolTip()));
        QVERIFY(!call(s.core, QStringLiteral("agent.mode.set"), Json{{"mode", "build"}}).error);
        QTRY_COMPARE(strip->full_text(), QStringLiteral("echo"));

        who->setCurrentIndex(0);
        emit who->activated(0);
        QTest::mouseClick(page->plan_apply_button(), Qt::LeftButton);
        QTRY_VERIFY(page->plan_model_state()->text().startsWith(
            QStringLiteral("The provider in use plans too")));
        QVERIFY(!call(s.core, QStringLiteral("agent.status"), Json::object())
                     .result.contains("plan_model"));
    }

    void settings_menu_opens_providers_with_ctrl_comma() {
        TempProject project;
        Session s(project);
        QVERIFY(s.settle());
        QAction* item = nullptr;
        for (QAction* menu : s.window.menuBar()->actions())
            if (menu->menu() && menu->text() == QStringLiteral("&Settings"))
                item = menu_action(menu->menu(), QStringLiteral("&Providers…"));
        QVERIFY(item);
        QCOMPARE(item->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_Comma));
        item->trigger();
        QVERIFY(s.window.settings()->isVisible());
        QCOMPARE(s.window.settings()->pages()->currentWidget(), s.window.settings()->providers());
        QCOMPARE(s.window.settings()->pages()->tabText(0), QStringLiteral("&Providers"));
    }

    void echo_says_once_how_to_connect_a_model() {
        TempProject project;
        Session s(project);
        QVERIFY(s.settle());
        ChatTranscript* transcript = s.window.chat()->transcript();
        QTRY_COMPARE(echo_notes(transcript).size(), 1);
        QVERIFY(echo_notes(transcript)
                    .front()
                    .startsWith(QStringLiteral(
                        "Replies come from echo, which only repeats your messages.")));
        for (const QString& text : {QStringLiteral("hello"), QStringLiteral("again")}) {
            const int replies = transcript->texts_of(ChatTranscript::Entry::message).size();
            s.window.chat()->send_message(text);
            QTRY_COMPARE(transcript->texts_of(ChatTranscript::Entry::message).size(), replies + 1);
        }
        QCOMPARE(echo_notes(transcript).size(), 1);
        // Another provider in use: the note no longer holds, and goes.
        QVERIFY(!call(s.core, QStringLiteral("agent.provider.set"),
                      Json{{"name", "anthropic"}, {"remember", false}})
                     .error);
        QTRY_VERIFY(echo_notes(transcript).isEmpty());

        // A script provider is no one's default: no such note.
        TempProject other;
        other.write("script.json", R"({"steps": [{"text": "hi"}]})");
        CoreClient core;
        MainWindow window(core);
        CoreOptions options = private_core(other);
        options.provider =
            QStringLiteral("script:") + other.path() + QStringLiteral("/script.json");
        core.start(options);
        window.show();
        QVERIFY(QTest::qWaitFor([&] { return window.settled(); }, 10000));
        QVERIFY(!round_trip(core).error);
        QTRY_VERIFY(
            window.chat()->provider_strip()->full_text().startsWith(QStringLiteral("script")));
        QVERIFY(echo_notes(window.chat()->transcript()).isEmpty());
    }

private:
    QString config_home() const { return home_.path() + QStringLiteral("/config"); }
    QString data_home() const { return home_.path() + QStringLiteral("/data"); }

    QTemporaryDir home_;
};

QTEST_MAIN(ProvidersTest)
#include "providers_test.moc"
