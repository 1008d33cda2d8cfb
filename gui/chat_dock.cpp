#include "gui/chat_dock.hpp"

#include "client/trace_words.hpp"
#include "client/user_commands.hpp"
#include "gui/agent_mode.hpp"
#include "gui/approval_bar.hpp"
#include "gui/change_cards.hpp"
#include "gui/chat_transcript.hpp"
#include "gui/command_card.hpp"
#include "gui/composer.hpp"
#include "gui/context_meter.hpp"
#include "gui/core_client.hpp"
#include "gui/main_window.hpp"
#include "gui/mode_control.hpp"
#include "gui/plans_panel.hpp"
#include "gui/provider_strip.hpp"
#include "gui/review_flow.hpp"
#include "gui/working_indicator.hpp"
#include "protocol/tool_words.hpp"

#include <QApplication>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>
#include <iterator>
#include <memory>
#include <utility>

namespace rio::gui {
namespace {

QString failure(const QString& what, const Error& error) {
    return what + QStringLiteral(": ") + QString::fromStdString(error.message);
}

} // namespace

ChatDock::ChatDock(MainWindow& window)
    : QDockWidget(tr("Agent"), &window), window_(window), mode_(new ModeControl),
      provider_(new ProviderStrip), meter_(new ContextMeter), clear_(new QPushButton(tr("Clear"))),
      transcript_(new ChatTranscript), plan_line_(new QPushButton), composer_(new Composer),
      review_(new ReviewFlow(window, this)), changes_(new ChangeCards(window, *transcript_, this)) {
    setObjectName(QStringLiteral("chat"));
    setFeatures(QDockWidget::DockWidgetMovable);

    clear_->setAutoDefault(false);
    clear_->setToolTip(tr("Clear the conversation (the agent forgets it)"));
    auto* top = new QHBoxLayout;
    top->setContentsMargins(8, 6, 8, 6);
    top->setSpacing(6);
    top->addWidget(mode_);
    top->addStretch(1);
    top->addWidget(clear_);
    // The model and the meter measuring its context on a line of their own: beside the mode
    // buttons the label was cut to "ant…4-5" at every size (issue 46), and the meter made the
    // chat too wide to leave the side bar its width.
    auto* context = new QHBoxLayout;
    context->setContentsMargins(8, 0, 8, 4);
    context->setSpacing(6);
    context->addWidget(provider_, 0, Qt::AlignLeft);
    context->addStretch(1);
    context->addWidget(meter_);

    auto* panel = new QWidget;
    auto* layout = new QVBoxLayout(panel);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(top);
    layout->addLayout(context);
    layout->addWidget(transcript_, 1);
    plan_line_->setObjectName(QStringLiteral("plan_line"));
    plan_line_->setFlat(true);
    plan_line_->setAutoDefault(false);
    plan_line_->setStyleSheet(QStringLiteral("text-align: left; padding: 3px 8px;"));
    plan_line_->setToolTip(tr("The approved plan's progress: open the plan"));
    plan_line_->hide();
    connect(plan_line_, &QPushButton::clicked, this, [this] {
        if (const auto& tally = session_.state().plan_tally; tally && !tally->path.empty())
            window_.plans()->open(QString::fromStdString(tally->path));
    });
    layout->addWidget(plan_line_);
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
    connect(transcript_, &ChatTranscript::rewind_requested, this, &ChatDock::rewind_to);
    connect(composer_, &Composer::commands_wanted, this, [this] {
        window_.core().call(CommandsListParams{}, this,
                            [this](const client::Typed<CommandsListParams>& listed) {
                                if (listed) composer_->set_commands(listed->commands);
                            });
    });
    connect(clear_, &QPushButton::clicked, this, &ChatDock::clear_conversation);
    connect(meter_, &ContextMeter::compact_requested, this, [this] { compact_conversation(); });
    connect(mode_, &ModeControl::choice_requested, this, &ChatDock::request_mode);
    // DESIGN §9: Shift+Tab cycles Plan → Review → Auto anywhere in the chat; in the editor it
    // stays unindent. Taken from the key events themselves rather than a QShortcut: a
    // shortcut never sees the key when the focused widget claims it first (focus chains take
    // Backtab), and X11 spells the key differently from what a test sends.
    qApp->installEventFilter(this);
    connect(provider_, &ProviderStrip::menu_opening, this, &ChatDock::load_providers);
    connect(provider_, &ProviderStrip::provider_chosen, this, &ChatDock::switch_provider);
    connect(provider_, &ProviderStrip::setup_requested, this,
            [this](const QString& name) { window_.show_providers(name); });
    connect(review_, &ReviewFlow::problem, this, &ChatDock::show_problem);
    connect(changes_, &ChangeCards::problem, this, &ChatDock::show_problem);
    connect(transcript_, &ChatTranscript::plan_line_activated, this, &ChatDock::show_plan_of);

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

WorkingIndicator* ChatDock::indicator() const {
    return composer_->indicator();
}

void ChatDock::on_connected() {
    composer_->set_connected(true);
    clear_->setEnabled(true);
    // Connected again (a new core, here or over ssh): the conversation this dock showed lives
    // on in its session file, a pending proposal included, and is picked up from there.
    const std::string session = session_.state().session;
    if (std::exchange(connected_before_, true) && !session.empty()) return resume_session(session);
    load_conversation();
}

void ChatDock::resume_session(const std::string& id) {
    window_.core().call(
        SessionResumeParams{id}, this, [this](const client::Typed<SessionResumeParams>& resumed) {
            if (!resumed)
                return show_problem(tr("Cannot continue that conversation: ") +
                                    QString::fromStdString(resumed.error().message));
            if (resumed->warning && !resumed->warning->empty())
                show_problem(QString::fromStdString(*resumed->warning));
            // A switch's agent.reset read the conversation as well (the one already running
            // sends none); only the last reading is shown.
            transcript_->clear();
            load_conversation();
        });
}

void ChatDock::load_conversation() {
    CoreClient& core = window_.core();
    // The conversation so far (another client's, when attached to a running core), then the
    // state, which may hold a proposal waiting for a decision.
    core.call(HistoryParams{}, this,
              [this, reading = ++readings_](const client::Typed<HistoryParams>& history) {
                  if (reading != readings_) return; // a later reading replaces this one
                  if (!history) {
                      if (history.error().code == ErrorCode::bad_response)
                          show_problem(tr("Cannot read the conversation so far: ") +
                                       QString::fromStdString(history.error().message));
                      return;
                  }
                  session_.apply_history(*history);
                  replay_history();
                  changes_->offer_kept_turns();
              });
    core.call(StatusParams{}, this, [this](const client::Typed<StatusParams>& status) {
        if (!status) return;
        session_.apply_status(*status);
        show_state();
        review_->on_status(session_.state().pending, session_.state().sandbox);
        composer_->indicator()->follow(*status, status->busy);
    });
}

bool ChatDock::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() != QEvent::KeyPress && event->type() != QEvent::ShortcutOverride)
        return QDockWidget::eventFilter(watched, event);
    const auto* key = static_cast<QKeyEvent*>(event);
    const Qt::KeyboardModifiers mods = key->modifiers();
    const bool others = mods.testFlag(Qt::ControlModifier) || mods.testFlag(Qt::AltModifier) ||
                        mods.testFlag(Qt::MetaModifier);
    const bool back_tab = key->key() == Qt::Key_Backtab ||
                          (key->key() == Qt::Key_Tab && mods.testFlag(Qt::ShiftModifier));
    auto* widget = qobject_cast<QWidget*>(watched);
    if (!back_tab || others || !widget || !isAncestorOf(widget))
        return QDockWidget::eventFilter(watched, event);
    if (event->type() == QEvent::ShortcutOverride) {
        event->accept(); // the key is the chat's: it comes back as the key press
        return true;
    }
    cycle_mode();
    return true;
}

void ChatDock::cycle_mode() {
    // The next mode follows the one the core last said it is in.
    if (auto now = mode_->shown()) request_mode(client::next_choice(*now));
}

void ChatDock::show_result(const ToolResultEvent& result) {
    const client::TraceCall* traced = nullptr;
    for (const client::TraceCall& call : session_.state().calls)
        if (call.call.id == result.id) traced = &call;
    if (!result.exit || !traced)
        return transcript_->add_tool_result(result, session_.outcome(result));
    auto* card = new CommandCard(traced->call, result);
    connect(card, &CommandCard::unfolded, transcript_, [this, card] { transcript_->reveal(card); });
    transcript_->add_card(QString::fromStdString(result.id), card, card->summary(),
                          ChatTranscript::Entry::command);
}

void ChatDock::replay_history() {
    const client::SessionState& st = session_.state();
    for (const client::TranscriptEntry& entry : st.transcript) {
        const QString text = QString::fromStdString(entry.text);
        switch (entry.kind) {
        case client::TranscriptEntry::Kind::user:
            transcript_->add_user(text, entry.turn);
            break;
        case client::TranscriptEntry::Kind::assistant:
            transcript_->finish_message(text);
            break;
        case client::TranscriptEntry::Kind::tool:
            transcript_->add_tool(st.calls[entry.call].call);
            if (const auto& result = st.calls[entry.call].result) show_result(*result);
            break;
        case client::TranscriptEntry::Kind::note:
            transcript_->add_note(text);
            break;
        case client::TranscriptEntry::Kind::error:
            transcript_->add_error(text);
            break;
        }
    }
}

void ChatDock::on_event(const client::CoreEvent& event) {
    const std::size_t shown = session_.state().transcript.size();
    session_.apply(event);
    composer_->indicator()->follow(event, session_.state().busy);
    if (std::holds_alternative<AgentStatus>(event)) {
        show_state();
        review_->on_status(session_.state().pending, session_.state().sandbox);
        return;
    }
    if (std::holds_alternative<ModeEvent>(event)) return show_state();
    review_->on_event(event);
    changes_->on_event(event);
    if (auto* proposal = std::get_if<Proposal>(&event); proposal && proposal->plan())
        if (const std::string path = proposal->plan()->path; !path.empty())
            plan_paths_[QString::fromStdString(proposal->id)] = QString::fromStdString(path);
    if (auto* delta = std::get_if<DeltaEvent>(&event)) {
        transcript_->add_delta(QString::fromStdString(delta->text));
    } else if (auto* thinking = std::get_if<ThinkingEvent>(&event)) {
        transcript_->add_thinking(QString::fromStdString(thinking->text));
    } else if (auto* message = std::get_if<MessageEvent>(&event)) {
        transcript_->finish_message(QString::fromStdString(message->text));
    } else if (auto* tool = std::get_if<ToolEvent>(&event)) {
        transcript_->add_tool(*tool);
    } else if (auto* progress = std::get_if<ToolProgressEvent>(&event)) {
        transcript_->add_tool_progress(*progress);
    } else if (auto* sub = std::get_if<SubagentEvent>(&event)) {
        transcript_->add_subagent(*sub);
    } else if (std::holds_alternative<RewoundEvent>(event)) {
        transcript_->clear(); // whoever rewound it: the conversation is read again
        load_conversation();
    } else if (auto* result = std::get_if<ToolResultEvent>(&event)) {
        show_result(*result);
    } else if (auto* reset = std::get_if<ResetEvent>(&event)) {
        transcript_->clear();
        plan_line_->hide();
        // A saved conversation continues (a resume, from here or another client, or another
        // project's): what it said so far is read back.
        if (reset->resumed) load_conversation();
    } else if (auto* plan = std::get_if<PlanProgressEvent>(&event)) {
        plan_line_->setText(QString::fromStdString(client::plan_progress_line(*plan)));
        plan_line_->show();
    } else {
        // Errors, decisions and "Stopped.": whatever the session added, in its words.
        const auto& entries = session_.state().transcript;
        for (std::size_t i = shown; i < entries.size(); ++i) {
            const QString text = QString::fromStdString(entries[i].text);
            if (entries[i].kind == client::TranscriptEntry::Kind::error)
                transcript_->add_error(text);
            else if (entries[i].kind == client::TranscriptEntry::Kind::note)
                transcript_->add_note(text);
        }
    }
    if (auto* done = std::get_if<DoneEvent>(&event)) close_turn(done->turn);
    if (auto* stopped = std::get_if<StoppedEvent>(&event)) close_turn(stopped->turn);
}

void ChatDock::close_turn(std::uint64_t turn) {
    const client::TurnUsage& usage = session_.state().usage;
    changes_->end_turn(turn, usage.turn == turn ? QString::fromStdString(client::usage_text(usage))
                                                : QString());
}

void ChatDock::show_state() {
    const client::SessionState& st = session_.state();
    mode_->show_state(QString::fromStdString(st.mode), st.auto_accept);
    if (wire_is(st.mode, Mode::plan) && st.plan_model)
        provider_->show_status(QString::fromStdString(st.plan_model->provider),
                               QString::fromStdString(st.plan_model->model),
                               QString::fromStdString(st.provider + " · " + st.model));
    else
        provider_->show_status(QString::fromStdString(st.provider),
                               QString::fromStdString(st.model));
    meter_->show_context(st.context, st.busy);
    composer_->set_busy(st.busy);
    // After a resume the status has the tally before any plans.progress has the steps.
    if (!st.plan_tally) {
        plan_line_->hide();
    } else if (!st.plan) {
        plan_line_->setText(
            tr("%1/%2 ▸ the approved plan").arg(st.plan_tally->done).arg(st.plan_tally->total));
        plan_line_->show();
    }
    // rio starts on echo when no model is set up: say once what it is and where to connect one.
    if (st.provider == "echo" && !told_about_echo_) {
        told_about_echo_ = true;
        echo_note_ =
            transcript_->add_note(tr("Replies come from echo, which only repeats your messages. "
                                     "To connect a model, open Settings ▸ Providers (Ctrl+,)."));
    }
    // Another provider now: the note no longer holds.
    if (st.provider != "echo" && echo_note_) transcript_->remove_entry(echo_note_);
    if (!st.provider.empty()) emit model_connected(st.provider != "echo");
}

void ChatDock::send_message(const QString& text) {
    if (text.trimmed().isEmpty()) return;
    session_.sent(text.toStdString());
    transcript_->add_user(text);
    // "/NAME args": the user's or the project's command (DESIGN §23), expanded by the core.
    if (auto command = client::command_call(text.toStdString())) {
        window_.core().call(*command, this,
                            [this, text](const client::Typed<CommandsRunParams>& ran) {
                                if (ran) return transcript_->set_last_user_turn(ran->turn);
                                show_problem(failure(tr("Not sent"), ran.error()));
                                if (composer_->text().isEmpty()) composer_->set_text(text);
                            });
        return;
    }
    window_.core().call(SendParams{text.toStdString()}, this,
                        [this, text](const client::Typed<SendParams>& sent) {
                            if (sent) return transcript_->set_last_user_turn(sent->turn);
                            show_problem(failure(tr("Not sent"), sent.error()));
                            if (composer_->text().isEmpty()) composer_->set_text(text);
                        });
}

// A preview first (what it drops, the files it puts back and those it cannot), then the
// rewind; the message comes back to the composer to send again or change.
void ChatDock::rewind_to(std::uint64_t turn) {
    window_.core().call(
        RewindParams{turn, true, std::nullopt, std::nullopt}, this,
        [this, turn](const client::Typed<RewindParams>& seen) {
            if (!seen) return show_problem(failure(tr("Cannot rewind"), seen.error()));
            QString text = tr("Return the conversation to just before “%1”? The %n later "
                              "entries are dropped.",
                              nullptr, static_cast<int>(seen->messages))
                               .arg(QString::fromStdString(client::first_line(seen->text, 80)));
            if (seen->withdrawn) text += tr(" What is running or waiting for you ends.");
            bool changed = false;
            QStringList files;
            for (const RewindFile& f : seen->files) {
                files << (f.action == RewindAction::remove ? tr("delete %1") : tr("restore %1"))
                                 .arg(QString::fromStdString(f.path)) +
                             (f.changed ? tr(" (%1 since the agent wrote it)")
                                              .arg(QString::fromStdString(*f.changed))
                                        : QString());
                changed = changed || f.changed;
            }
            for (const RewindKept& k : seen->kept)
                files << tr("not put back: %1 — %2")
                             .arg(QString::fromStdString(k.path), QString::fromStdString(k.why));
            QMessageBox box(QMessageBox::Question, tr("Rewind"), text, QMessageBox::NoButton, this);
            if (!files.isEmpty()) box.setInformativeText(files.join(QLatin1Char('\n')));
            QPushButton* go = box.addButton(changed ? tr("Rewind and Overwrite") : tr("Rewind"),
                                            QMessageBox::AcceptRole);
            QPushButton* only = seen->files.empty() ? nullptr
                                                    : box.addButton(tr("Conversation Only"),
                                                                    QMessageBox::ActionRole);
            box.addButton(QMessageBox::Cancel);
            box.exec();
            if (box.clickedButton() != go && (!only || box.clickedButton() != only)) return;
            RewindParams run{turn, std::nullopt,
                             box.clickedButton() == only ? std::optional(false) : std::nullopt,
                             changed ? std::optional(true) : std::nullopt};
            window_.core().call(run, this, [this](const client::Typed<RewindParams>& done) {
                if (!done) return show_problem(failure(tr("Cannot rewind"), done.error()));
                composer_->set_text(QString::fromStdString(done->text));
                composer_->input()->setFocus();
            });
        });
}

void ChatDock::stop() {
    window_.core().call(StopParams{}, this, [this](const client::Typed<StopParams>& stopped) {
        if (!stopped) show_problem(failure(tr("Cannot stop"), stopped.error()));
    });
}

void ChatDock::compact_conversation(const QString& instructions) {
    CompactParams params;
    if (!instructions.trimmed().isEmpty()) params.instructions = instructions.toStdString();
    window_.core().call(params, this, [this](const client::Typed<CompactParams>& compacted) {
        if (!compacted) show_problem(failure(tr("Cannot compact"), compacted.error()));
    });
}

void ChatDock::clear_conversation() {
    window_.core().call(ResetParams{}, this, [this](const client::Typed<ResetParams>& reset) {
        if (!reset) show_problem(failure(tr("Cannot clear"), reset.error()));
    });
}

void ChatDock::request_mode(ModeChoice choice) {
    const client::ModeRequests requests = client::mode_requests(choice);
    auto report = [this](const auto& answer) {
        if (!answer) show_problem(failure(tr("Mode not changed"), answer.error()));
    };
    if (requests.auto_accept)
        window_.core().call(*requests.auto_accept, this,
                            [report](const client::Typed<AutoAcceptSetParams>& r) { report(r); });
    window_.core().call(requests.mode, this,
                        [report](const client::Typed<ModeSetParams>& r) { report(r); });
}

void ChatDock::load_providers() {
    window_.core().call(ProvidersParams{}, this,
                        [this](const client::Typed<ProvidersParams>& list) {
                            if (!list)
                                show_problem(failure(tr("Cannot list providers"), list.error()));
                            else
                                provider_->show_providers(*list);
                        });
}

void ChatDock::switch_provider(const QString& name) {
    window_.core().call(ProviderSetParams{name.toStdString(), std::nullopt}, this,
                        [this](const client::Typed<ProviderSetParams>& set) {
                            if (!set)
                                show_problem(failure(tr("Provider not changed"), set.error()));
                        });
}

void ChatDock::show_problem(const QString& text) {
    transcript_->add_error(text);
}

void ChatDock::show_plan_of(const QString& call_id) {
    // Still waiting: the plan view with its decision; else the filed plan, read-only.
    const auto& pending = review_->pending();
    if (pending && QString::fromStdString(pending->id) == call_id) return review_->reopen_plan();
    auto found = plan_paths_.find(call_id);
    if (found != plan_paths_.end()) return window_.plans()->open(found->second);
    // A line from the history: its call says what was presented, not where it was filed.
    for (const client::TraceCall& traced : session_.state().calls)
        if (traced.call.id == call_id.toStdString() &&
            traced.call.name == tool_words::present_plan.name)
            return find_plan(call_id, client::presented_plan(traced.call.input));
}

void ChatDock::find_plan(const QString& call_id, const client::PresentedPlan& presented) {
    window_.core().call(
        PlansListParams{}, this,
        [this, call_id, presented](const client::Typed<PlansListParams>& plans) {
            if (!plans) return show_problem(failure(tr("Cannot find the plan"), plans.error()));
            std::vector<std::string> candidates = client::plan_candidates(*plans, presented);
            if (candidates.empty())
                return show_problem(tr("No filed plan is titled “%1”.")
                                        .arg(QString::fromStdString(presented.title)));
            check_plan(call_id, presented, std::move(candidates), 0);
        });
}

void ChatDock::check_plan(const QString& call_id, const client::PresentedPlan& presented,
                          std::vector<std::string> candidates, std::size_t next) {
    // One edited before its decision holds none: the newest filed under the title is it then.
    if (next >= candidates.size()) return open_plan_of(call_id, candidates.front());
    const std::string path = candidates[next];
    window_.core().call(PlansGetParams{path}, this,
                        [this, call_id, presented, candidates, next,
                         path](const client::Typed<PlansGetParams>& plan) {
                            if (plan && client::holds_plan(*plan, presented))
                                return open_plan_of(call_id, path);
                            check_plan(call_id, presented, candidates, next + 1);
                        });
}

void ChatDock::open_plan_of(const QString& call_id, const std::string& path) {
    plan_paths_[call_id] = QString::fromStdString(path);
    window_.plans()->open(QString::fromStdString(path));
}

} // namespace rio::gui
