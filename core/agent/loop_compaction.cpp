// The agent loop's compaction (DESIGN §18): when the conversation is made smaller, and how a
// step goes on after it.
#include "core/agent/compaction.hpp"
#include "core/agent/loop.hpp"
#include "core/agent/loop_shared.hpp"

#include <algorithm>

namespace rio {
namespace {

std::string_view reason_name(int reason) {
    static constexpr std::string_view names[] = {"threshold", "overflow", "request"};
    return names[reason];
}

} // namespace

Status AgentLoop::compact(std::string instructions, Effects& out) {
    if (state_ == State::streaming || state_ == State::running_tool || state_ == State::compacting)
        return make_error(ErrorCode::busy,
                          "turn " + std::to_string(turn_) +
                              " is running; compact once it is done (or stop it first)");
    if (conversation_.empty())
        return make_error(ErrorCode::bad_request, "there is no conversation to compact");
    begin_compaction(CompactReason::request, instructions, state_, out);
    return Ok{};
}

std::uint64_t AgentLoop::window() const {
    return ceiling_ ? std::min(ceiling_, budget_.window) : budget_.window;
}

std::uint64_t AgentLoop::estimated_tokens() const {
    return estimate_tokens(budget_.prefix_bytes + conversation_bytes(conversation_));
}

// The provider's count for the last request plus an estimate of what came after it; rio's
// own estimate when that is larger (a server that truncates input reports what it kept) or
// when there is no count (decision 0054).
ContextInfo AgentLoop::context() const {
    std::uint64_t estimate = estimated_tokens();
    ContextInfo info{estimate, window(), true};
    if (reported_) {
        std::size_t now = conversation_bytes(conversation_);
        std::uint64_t counted =
            reported_->first +
            estimate_tokens(now > reported_->second ? now - reported_->second : 0);
        if (counted >= estimate) info = {counted, window(), false};
    }
    return info;
}

bool AgentLoop::over_threshold() const {
    return static_cast<double>(context().used) > budget_.compact_at * static_cast<double>(window());
}

void AgentLoop::begin_compaction(CompactReason reason, const std::string& instructions,
                                 State resume, Effects& out) {
    Compaction c;
    c.reason = reason;
    c.resume = resume;
    c.before = context().used;
    c.keep_from = loop_shared::kept_tail(conversation_);
    // Down to half the window, so the next steps have room before the threshold again; on
    // request, every older output goes.
    std::size_t room = bytes_for_tokens(window() / 2);
    std::size_t target = reason == CompactReason::request || room <= budget_.prefix_bytes
                             ? 0
                             : room - budget_.prefix_bytes;
    auto clear = [&](std::size_t keep_from) {
        Cleared cleared = clear_tool_outputs(conversation_, tools_, target, keep_from);
        c.cleared += cleared.cleared;
        if (cleared.cleared == 0) return;
        conversation_ = std::move(cleared.conversation);
        ++compactions_;
        reported_.reset(); // the count was of the conversation as it was
    };
    clear(c.keep_from);
    bool fits = reason != CompactReason::request && !over_threshold();
    if (!fits && reason != CompactReason::request) {
        // The newest step alone is too much (a window smaller than it seemed): its outputs
        // go too; the model can read again, in smaller pieces.
        clear(conversation_.size());
        fits = !over_threshold();
    }
    Conversation older(conversation_.begin(), conversation_.begin() + c.keep_from);
    c.older_bytes = conversation_bytes(older);
    bool may_summarize = reason != CompactReason::threshold || !summary_declined_;
    if (!fits && !may_summarize && c.cleared == 0) { // nothing new to say: go on as it is
        resume_after_compaction(resume, out);
        return;
    }
    if (fits || older.empty() || !may_summarize) {
        compaction_ = std::move(c);
        finish_compaction(false,
                          fits            ? ""
                          : older.empty() ? "there is nothing older than the newest step to "
                                            "summarize"
                                          : "a summary already came to nothing in this turn",
                          out);
        return;
    }
    // The summary request must fit too: its transcript gets half the window.
    std::string text = summary_request_text(older, bytes_for_tokens(window()) / 2, instructions);
    state_ = State::compacting;
    ++step_;
    compaction_ = std::move(c);
    Conversation request{std::make_shared<const Message>(
        Message{Role::user, std::move(text), {}, {}, {}, ModeNote::none})};
    out.push_back(CallProvider{turn_, step_, mode_, {}, std::move(request), true});
    emit_status(out);
}

// `ok`: a summary came (it may still be unusable); else `failure` says why there is none ("" when
// clearing was enough).
void AgentLoop::finish_compaction(bool ok, const std::string& failure, Effects& out) {
    Compaction c = std::move(*compaction_);
    compaction_.reset();
    std::string note = failure;
    bool summarized = false;
    std::size_t max_summary = bytes_for_tokens(window()) / 5;
    if (ok && usable_summary(c.summary, c.older_bytes, max_summary)) {
        Conversation older(conversation_.begin(), conversation_.begin() + c.keep_from);
        CompactionKeep keep{user_messages(older), approved_plan(),
                            plan_ ? progress_text(plan_->steps) : std::string(), changed_files_};
        Message seed{Role::user, compacted_seed(c.summary, keep, bytes_for_tokens(window()) / 5),
                     {},         {},
                     {},         mode_ == Mode::plan ? ModeNote::plan : ModeNote::none};
        Conversation compacted{std::make_shared<const Message>(std::move(seed))};
        compacted.insert(compacted.end(), conversation_.begin() + c.keep_from, conversation_.end());
        if (conversation_bytes(compacted) < conversation_bytes(conversation_)) {
            told_mode_ = mode_;
            conversation_ = std::move(compacted);
            ++compactions_;
            rewritten();
            reported_.reset();
            summarized = true;
        } else {
            note = "the conversation is already smaller than a summary of it";
        }
    } else if (ok) {
        note = c.summary.find_first_not_of(" \t\r\n") == std::string::npos
                   ? "the summary came back empty"
                   : "the summary was longer than what it was to replace";
    }
    if (!note.empty()) note += "; only old tool outputs were cleared";
    if (ok && !summarized) summary_declined_ = true;
    if (!ok && !failure.empty() && c.reason == CompactReason::threshold) summary_declined_ = true;
    emit(out, CompactedEvent{turn_, c.before, context().used, c.cleared, summarized,
                             std::string(reason_name(static_cast<int>(c.reason))), note});
    resume_after_compaction(c.resume, out);
}

void AgentLoop::resume_after_compaction(State resume, Effects& out) {
    if (resume != State::streaming) {
        state_ = resume;
        emit_status(out);
        return;
    }
    if (context().used > window()) {
        state_ = State::streaming;
        emit(out,
             ErrorEvent{turn_, std::string(to_string(ErrorCode::context_full)),
                        "The conversation does not fit the model's context window (about " +
                            std::to_string(context().used) + " of " + std::to_string(window()) +
                            " tokens), even after compacting it. Use /compact with "
                            "instructions on what to keep, or start a new conversation."});
        end_turn("error", out);
        return;
    }
    send_step(out);
    emit_status(out);
}

} // namespace rio
