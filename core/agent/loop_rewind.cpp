// The agent loop returning to an earlier message (agent.rewind, DESIGN §23): the
// conversation as it was just before the person sent it. Files are the host's to put back.
#include "core/agent/loop.hpp"
#include "core/agent/loop_shared.hpp"

#include <algorithm>

namespace rio {

void AgentLoop::rewritten() {
    turn_starts_.clear();
    rewind_floor_ = turn_;
}

Result<RewindTarget> AgentLoop::rewind_target(TurnId turn) const {
    auto start = std::find_if(turn_starts_.begin(), turn_starts_.end(),
                              [turn](const TurnStart& s) { return s.turn == turn; });
    if (start == turn_starts_.end()) {
        if (turn > 0 && turn <= rewind_floor_)
            return make_error(ErrorCode::refused,
                              "cannot rewind to turn " + std::to_string(turn) +
                                  ": the conversation was compacted or continued in a fresh "
                                  "context during turn " +
                                  std::to_string(rewind_floor_) +
                                  ", so what came before is a summary now; rewind to a later "
                                  "message, or start a new conversation");
        return make_error(
            ErrorCode::not_found,
            "there is no message of turn " + std::to_string(turn) + " in this conversation" +
                (turn_starts_.empty()
                     ? std::string()
                     : " (its messages are turns " + std::to_string(turn_starts_.front().turn) +
                           " to " + std::to_string(turn_starts_.back().turn) + ")"));
    }
    RewindTarget target{turn, start->text, conversation_.size() - start->index, busy()};
    if (start->joined) --target.dropped; // the entry stays, as it was before the text
    return target;
}

void AgentLoop::rewind(TurnId turn, Effects& out) {
    auto target = rewind_target(turn);
    if (!target) return;
    if (busy()) { // as Stop would: the running turn or the waiting proposal ends
        abandon_pending_plan(out);
        abort_turn("interrupted: the user rewound the conversation", out);
        emit(out, StoppedEvent{turn_, std::string(to_wire(StopReason::stop))});
        report_carried_plan(out);
    }
    auto start = std::find_if(turn_starts_.begin(), turn_starts_.end(),
                              [turn](const TurnStart& s) { return s.turn == turn; });
    conversation_.resize(start->index);
    if (start->joined) record(std::move(*start->joined));
    turn_starts_.erase(start, turn_starts_.end());
    if (plan_ && plan_->turn >= turn) { // approved after that message: not any more
        plan_.reset();
        ++plan_revision_;
    }
    last_plan_.clear();
    told_mode_ = loop_shared::told_mode_of(conversation_);
    reported_.reset();
    summary_declined_ = false;
    ++compactions_; // a rewrite, for the session recorder
    emit(out, RewoundEvent{turn, target->text});
    emit_status(out);
}

std::optional<TurnId> AgentLoop::turn_begun_at(std::size_t index) const {
    auto start = std::find_if(turn_starts_.begin(), turn_starts_.end(),
                              [index](const TurnStart& s) { return s.index == index; });
    return start == turn_starts_.end() ? std::nullopt : std::optional<TurnId>(start->turn);
}

} // namespace rio
