#include "gui/change_cards.hpp"

#include "gui/centre_area.hpp"
#include "gui/chat_transcript.hpp"
#include "gui/compare_view.hpp"
#include "gui/core_client.hpp"
#include "gui/edit_card.hpp"
#include "gui/main_window.hpp"
#include "gui/turn_summary.hpp"

#include <QPushButton>
#include <algorithm>
#include <set>

namespace rio::gui {
namespace {

QString joined(const std::vector<std::string>& paths) {
    QStringList names;
    for (const std::string& path : paths)
        names << QString::fromStdString(path);
    return names.join(QStringLiteral(", "));
}

// "Nothing was undone: since …": the core's message, as a sentence.
QString sentence(const std::string& message) {
    QString text = QString::fromStdString(message);
    if (!text.isEmpty()) text[0] = text[0].toUpper();
    return text;
}

} // namespace

ChangeCards::ChangeCards(MainWindow& window, ChatTranscript& transcript, QObject* parent)
    : QObject(parent), window_(window), transcript_(transcript), compare_view_(new CompareView) {
    compare_view_->setObjectName(QStringLiteral("change_compare_view"));
    window_.centre()->add_view(compare_view_);
    connect(compare_view_, &CompareView::close_requested, this, [this] {
        if (window_.centre()->current_view() == compare_view_) window_.centre()->show_editors();
    });
}

void ChangeCards::on_event(const client::CoreEvent& event) {
    if (auto* applied = std::get_if<EditAppliedEvent>(&event)) {
        add_card(*applied);
    } else if (auto* state = std::get_if<CheckpointsState>(&event)) {
        checkpoints_ = *state;
        show_undo_state();
    } else if (auto* undone = std::get_if<UndoneEvent>(&event)) {
        mark_undone(*undone);
    } else if (std::holds_alternative<ResetEvent>(event)) {
        // The transcript goes, and with it every card: the new conversation has none.
        cards_.clear();
        summaries_.clear();
    }
}

void ChangeCards::add_card(const EditAppliedEvent& applied) {
    forget_gone();
    auto* card = new EditCard(applied);
    cards_.emplace_back(card);
    connect(card, &EditCard::compare_requested, this, [this, card] { compare(*card); });
    connect(card, &EditCard::undo_requested, this, [this, card] {
        undo(card->applied().turn, QString::fromStdString(card->applied().path));
    });
    connect(card->toggle(), &QPushButton::toggled, this, [this, card](bool open) {
        if (open) transcript_.reveal(card);
    });
    transcript_.add_card(QString::fromStdString(applied.id), card, card->summary());
    show_undo_state();
}

void ChangeCards::end_turn(std::uint64_t turn, const QString& usage) {
    forget_gone();
    std::set<std::string> files;
    for (const QPointer<EditCard>& card : cards_)
        if (card->applied().turn == turn) files.insert(card->applied().path);
    if (files.empty() && usage.isEmpty()) return;
    add_summary(turn, static_cast<int>(files.size()), usage);
    show_undo_state();
}

void ChangeCards::add_summary(std::uint64_t turn, int files, const QString& words) {
    auto* summary = new TurnSummary(turn);
    summary->show_turn(files, words);
    connect(summary, &TurnSummary::undo_requested, this, [this, turn] { undo(turn, {}); });
    summaries_[turn] = summary;
    transcript_.add_entry(summary, ChatTranscript::Entry::summary, summary->text());
}

void ChangeCards::offer_kept_turns() {
    forget_gone();
    for (const TurnCheckpoint& kept : checkpoints_.turns)
        if (!summaries_.count(kept.turn))
            add_summary(kept.turn, static_cast<int>(kept.files.size()),
                        tr("in turn %1").arg(kept.turn));
    show_undo_state();
}

bool ChangeCards::undoable(std::uint64_t turn, const std::string& path) const {
    for (const TurnCheckpoint& checkpoint : checkpoints_.turns)
        if (checkpoint.turn == turn)
            return path.empty() ||
                   std::any_of(checkpoint.files.begin(), checkpoint.files.end(),
                               [&](const CheckpointFile& file) { return file.path == path; });
    return false;
}

void ChangeCards::show_undo_state() {
    forget_gone();
    const QString gone = tr("rio no longer keeps what this held before: rio-core started again, "
                            "or older changes were let go to save memory");
    std::map<std::uint64_t, bool> all_done;
    for (const QPointer<EditCard>& card : cards_) {
        const EditAppliedEvent& applied = card->applied();
        if (card->undo() != EditCard::Undo::done)
            card->set_undo(undoable(applied.turn, applied.path) ? EditCard::Undo::possible
                                                                : EditCard::Undo::impossible,
                           gone);
        bool& done = all_done.try_emplace(applied.turn, true).first->second;
        done = done && card->undo() == EditCard::Undo::done;
        ChatTranscript::set_entry_text(card, card->summary());
    }
    for (const auto& [turn, summary] : summaries_) {
        const bool done = all_done.count(turn) && all_done[turn];
        summary->set_undo(!done && undoable(turn, {}), done, gone);
    }
}

void ChangeCards::mark_undone(const UndoneEvent& undone) {
    forget_gone();
    std::set<std::string> paths(undone.restored.begin(), undone.restored.end());
    paths.insert(undone.deleted.begin(), undone.deleted.end());
    for (const QPointer<EditCard>& card : cards_)
        if (card->applied().turn == undone.turn && paths.count(card->applied().path))
            card->set_undo(EditCard::Undo::done);
    QStringList parts;
    if (!undone.restored.empty()) parts << tr("put back %1").arg(joined(undone.restored));
    if (!undone.deleted.empty()) parts << tr("deleted %1").arg(joined(undone.deleted));
    transcript_.add_note(tr("Undone: %1").arg(parts.join(QStringLiteral("; "))));
    show_undo_state();
}

void ChangeCards::undo(std::uint64_t turn, const std::optional<QString>& path) {
    UndoParams params{turn, std::nullopt};
    if (path) params.path = path->toStdString();
    window_.core().call(params, this, [this](const client::Typed<UndoParams>& undone) {
        if (!undone) emit problem(sentence(undone.error().message));
    });
}

void ChangeCards::compare(const EditCard& card) {
    const EditAppliedEvent applied = card.applied();
    CoreClient& core = window_.core();
    core.call(
        ChangeParams{applied.turn, applied.id}, this,
        [this, applied, &core](const client::Typed<ChangeParams>& change) {
            if (!change)
                return emit problem(tr("Cannot compare: %1").arg(sentence(change.error().message)));
            const QString before = QString::fromStdString(change->before);
            const QString after = QString::fromStdString(change->after);
            core.call(DiffLinesParams{change->before, change->after, std::nullopt, std::nullopt},
                      this,
                      [this, applied, before, after](const client::Typed<DiffLinesParams>& diff) {
                          if (!diff)
                              return emit problem(
                                  tr("Cannot compare: %1").arg(sentence(diff.error().message)));
                          const QString path = QString::fromStdString(applied.path);
                          const QString heading =
                              applied.created
                                  ? tr("New file — %1 · as the agent created it").arg(path)
                                  : tr("Change — %1 · before | after").arg(path);
                          compare_view_->show_compare(path, {heading, tr("Before"), tr("After")},
                                                      before, after, diff->hunks);
                          compare_view_->set_decidable(false);
                          window_.centre()->show_view(compare_view_);
                          compare_view_->setFocus(Qt::OtherFocusReason);
                          emit compare_shown();
                      });
        });
}

std::vector<EditCard*> ChangeCards::cards() const {
    std::vector<EditCard*> shown;
    for (const QPointer<EditCard>& card : cards_)
        if (card) shown.push_back(card);
    return shown;
}

TurnSummary* ChangeCards::summary(std::uint64_t turn) const {
    auto it = summaries_.find(turn);
    return it == summaries_.end() ? nullptr : it->second.data();
}

void ChangeCards::forget_gone() {
    cards_.erase(std::remove_if(cards_.begin(), cards_.end(),
                                [](const QPointer<EditCard>& card) { return card.isNull(); }),
                 cards_.end());
    for (auto it = summaries_.begin(); it != summaries_.end();)
        it = it->second ? std::next(it) : summaries_.erase(it);
}

} // namespace rio::gui
