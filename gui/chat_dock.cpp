#include "gui/chat_dock.hpp"

#include "gui/agent_mode.hpp"
#include "gui/approval_bar.hpp"
#include "gui/chat_transcript.hpp"
#include "gui/composer.hpp"
#include "gui/core_client.hpp"
#include "gui/json_text.hpp"
#include "gui/main_window.hpp"
#include "gui/mode_control.hpp"
#include "gui/provider_strip.hpp"
#include "gui/review_flow.hpp"
#include "gui/trace_text.hpp"

#include <QHBoxLayout>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>
#include <iterator>
#include <memory>

namespace rio::gui {
namespace {

QString failure(const QString& what, const Error& error) {
    return what + QStringLiteral(": ") + QString::fromStdString(error.message);
}

} // namespace

ChatDock::ChatDock(MainWindow& window)
    : QDockWidget(tr("Agent"), &window), window_(window), mode_(new ModeControl),
      provider_(new ProviderStrip), clear_(new QPushButton(tr("Clear"))),
      transcript_(new ChatTranscript), composer_(new Composer),
      review_(new ReviewFlow(window, this)) {
    setObjectName(QStringLiteral("chat"));
    setFeatures(QDockWidget::DockWidgetMovable);

    clear_->setAutoDefault(false);
    clear_->setToolTip(tr("Clear the conversation (the agent forgets it)"));
    auto* top = new QHBoxLayout;
    top->setContentsMargins(8, 6, 8, 6);
    top->setSpacing(6);
    top->addWidget(mode_);
    top->addStretch(1);
    top->addWidget(provider_);
    top->addWidget(clear_);

    auto* panel = new QWidget;
    auto* layout = new QVBoxLayout(panel);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(top);
    layout->addWidget(transcript_, 1);
    layout->addWidget(review_->bar());
    layout->addWidget(composer_);
    setWidget(panel);
    // The person's path through the panel: write, send, decide, then the controls on top.
    // Hidden buttons (those the pending proposal does not offer) are skipped by Tab.
    ApprovalBar* bar = review_->bar();
    QWidget* const path[] = {composer_->input(),
                             composer_->send_button(),
                             bar->approve_button(),
                             bar->edit_plan_button(),
                             bar->compare_button(),
                             bar->reject_button(),
                             bar->plan_button(),
                             bar->reason_field(),
                             mode_->button(ModeChoice::plan),
                             mode_->button(ModeChoice::review),
                             mode_->button(ModeChoice::auto_accept),
                             provider_,
                             clear_};
    for (std::size_t i = 1; i < std::size(path); ++i)
        setTabOrder(path[i - 1], path[i]);

    connect(composer_, &Composer::send_requested, this, &ChatDock::send_message);
    connect(composer_, &Composer::stop_requested, this, &ChatDock::stop);
    connect(clear_, &QPushButton::clicked, this, &ChatDock::clear_conversation);
    connect(mode_, &ModeControl::choice_requested, this,
            [this](ModeChoice choice) { request_mode(static_cast<int>(choice)); });
    connect(provider_, &ProviderStrip::menu_opening, this, &ChatDock::load_providers);
    connect(provider_, &ProviderStrip::provider_chosen, this, &ChatDock::switch_provider);
    connect(review_, &ReviewFlow::problem, this, &ChatDock::show_problem);

    CoreClient& core = window_.core();
    connect(&core, &CoreClient::connected, this, &ChatDock::on_connected);
    connect(&core, &CoreClient::core_event, this, &ChatDock::on_event);
    connect(&core, &CoreClient::disconnected, this, [this] {
        composer_->set_connected(false);
        clear_->setEnabled(false);
        review_->bar()->set_deciding(true); // nothing can be decided without the core
    });
    clear_->setEnabled(false);
}

void ChatDock::on_connected() {
    composer_->set_connected(true);
    clear_->setEnabled(true);
    CoreClient& core = window_.core();
    // The conversation so far (another client's, when attached to a running core), then the
    // state, which may hold a proposal waiting for a decision.
    core.request(QStringLiteral("agent.history"), Json::object(), this,
                 [this](const Json& result, const std::optional<Error>& error) {
                     if (error) return;
                     std::map<std::string, std::string> names; // call id → tool name
                     for (const Json& m : result.value("messages", Json::array())) {
                         const QString text = json_string(m, "text");
                         if (json_string(m, "role") == QLatin1String("user")) {
                             for (const Json& r : m.value("results", Json::array()))
                                 transcript_->add_tool_result(
                                     Json{{"id", r.value("call_id", "")},
                                          {"name", names[r.value("call_id", "")]},
                                          {"ok", !r.value("is_error", false)},
                                          {"content", r.value("content", "")}});
                             if (!text.isEmpty()) transcript_->add_user(text);
                             continue;
                         }
                         transcript_->finish_message(text);
                         for (const Json& call : m.value("calls", Json::array())) {
                             names[call.value("id", "")] = call.value("name", "");
                             transcript_->add_tool(call);
                         }
                     }
                 });
    core.request(QStringLiteral("agent.status"), Json::object(), this,
                 [this](const Json& result, const std::optional<Error>& error) {
                     if (!error) on_status(result);
                 });
}

void ChatDock::on_event(const QString& name, const Json& params) {
    if (!name.startsWith(QLatin1String("agent."))) return;
    if (name == QLatin1String("agent.status")) {
        on_status(params);
        return; // on_status tells the review flow
    }
    review_->on_event(name, params);
    if (name == QLatin1String("agent.delta")) {
        transcript_->add_delta(json_string(params, "text"));
    } else if (name == QLatin1String("agent.thinking")) {
        transcript_->add_thinking(json_string(params, "text"));
    } else if (name == QLatin1String("agent.message")) {
        transcript_->finish_message(json_string(params, "text"));
    } else if (name == QLatin1String("agent.tool")) {
        transcript_->add_tool(params);
    } else if (name == QLatin1String("agent.tool_result")) {
        transcript_->add_tool_result(params);
    } else if (name == QLatin1String("agent.error")) {
        QString code = json_string(params, "code");
        transcript_->add_error(tr("Error") + (code.isEmpty() ? QString() : " (" + code + ")") +
                               QStringLiteral(": ") + json_string(params, "message"));
    } else if (name == QLatin1String("agent.decided")) {
        transcript_->add_note(decision_text(params));
    } else if (name == QLatin1String("agent.stopped")) {
        // A new message ends the turn before it too; that needs no word.
        if (json_string(params, "reason") == QLatin1String("stop"))
            transcript_->add_note(tr("Stopped."));
    } else if (name == QLatin1String("agent.reset")) {
        transcript_->clear();
    } else if (name == QLatin1String("agent.mode")) {
        mode_->show_state(json_string(params, "mode"), auto_accept_);
    }
}

void ChatDock::on_status(const Json& status) {
    auto_accept_ = status.value("auto_accept", false);
    mode_->show_state(json_string(status, "mode"), auto_accept_);
    provider_->show_status(json_string(status, "provider"), json_string(status, "model"));
    composer_->set_busy(status.value("busy", false), status.value("pending", Json()).is_object());
    review_->on_status(status);
}

void ChatDock::send_message(const QString& text) {
    if (text.trimmed().isEmpty()) return;
    transcript_->add_user(text);
    window_.core().request(QStringLiteral("agent.send"), Json{{"text", text.toStdString()}}, this,
                           [this, text](const Json&, const std::optional<Error>& error) {
                               if (!error) return;
                               show_problem(failure(tr("Not sent"), *error));
                               if (composer_->text().isEmpty()) composer_->set_text(text);
                           });
}

void ChatDock::stop() {
    window_.core().request(QStringLiteral("agent.stop"), Json::object(), this,
                           [this](const Json&, const std::optional<Error>& error) {
                               if (error) show_problem(failure(tr("Cannot stop"), *error));
                           });
}

void ChatDock::clear_conversation() {
    window_.core().request(QStringLiteral("agent.reset"), Json::object(), this,
                           [this](const Json&, const std::optional<Error>& error) {
                               if (error) show_problem(failure(tr("Cannot clear"), *error));
                           });
}

void ChatDock::request_mode(int choice) {
    for (CoreRequest& request : mode_requests(static_cast<ModeChoice>(choice)))
        window_.core().request(request.op, std::move(request.params), this,
                               [this](const Json&, const std::optional<Error>& error) {
                                   if (error) show_problem(failure(tr("Mode not changed"), *error));
                               });
}

void ChatDock::load_providers() {
    window_.core().request(QStringLiteral("agent.providers"), Json::object(), this,
                           [this](const Json& result, const std::optional<Error>& error) {
                               if (error)
                                   show_problem(failure(tr("Cannot list providers"), *error));
                               else
                                   provider_->show_providers(result);
                           });
}

void ChatDock::switch_provider(const QString& name) {
    window_.core().request(QStringLiteral("agent.provider.set"), Json{{"name", name.toStdString()}},
                           this, [this](const Json&, const std::optional<Error>& error) {
                               if (error) show_problem(failure(tr("Provider not changed"), *error));
                           });
}

void ChatDock::show_problem(const QString& text) {
    transcript_->add_error(text);
}

} // namespace rio::gui
