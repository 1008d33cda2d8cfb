#include "client/activity.hpp"

#include "client/trace_words.hpp"

#include <algorithm>
#include <type_traits>

namespace rio::client {

namespace {

const char* const waiting_for_model = "waiting for the model";

std::string two_digits(long n) {
    return (n < 10 ? "0" : "") + std::to_string(n);
}

} // namespace

void Activity::apply(const CoreEvent& event) {
    std::visit(
        [this](const auto& e) {
            using E = std::decay_t<decltype(e)>;
            if constexpr (std::is_same_v<E, AgentStatus>) {
                if (!e.busy) {
                    words_.clear();
                    call_.clear();
                } else if (e.state == AgentState::awaiting_decision) {
                    words_ = "waiting for your approval";
                } else if (e.state == AgentState::checking) {
                    words_ = "waiting for the language servers";
                } else if (words_.empty()) {
                    words_ = waiting_for_model;
                }
            } else if constexpr (std::is_same_v<E, DeltaEvent>) {
                words_ = "writing";
            } else if constexpr (std::is_same_v<E, MessageEvent>) {
                words_ = "working"; // a step done: its calls, or the turn's end, come next
            } else if constexpr (std::is_same_v<E, ThinkingEvent>) {
                words_ = "thinking";
            } else if constexpr (std::is_same_v<E, ToolEvent>) {
                call_ = tool_activity(e);
                words_ = call_;
            } else if constexpr (std::is_same_v<E, ToolProgressEvent>) {
                if (!call_.empty()) words_ = call_ + " · " + progress_text(e);
            } else if constexpr (std::is_same_v<E, ToolResultEvent>) {
                call_.clear();
                words_ = waiting_for_model;
            } else if constexpr (std::is_same_v<E, Proposal>) {
                words_ = "waiting for your approval";
            } else if constexpr (std::is_same_v<E, DecidedEvent>) {
                // Approved, the call goes on (a command runs now); rejected, the model hears so.
                words_ = e.approved() && !call_.empty() ? call_ : waiting_for_model;
            } else if constexpr (std::is_same_v<E, DoneEvent> || std::is_same_v<E, StoppedEvent> ||
                                 std::is_same_v<E, ResetEvent>) {
                words_.clear();
                call_.clear();
            }
        },
        event);
}

std::string elapsed_text(std::chrono::seconds elapsed) {
    long seconds = std::max(0L, static_cast<long>(elapsed.count()));
    if (seconds < 60) return std::to_string(seconds) + "s";
    if (seconds < 3600) return std::to_string(seconds / 60) + "m " + two_digits(seconds % 60) + "s";
    return std::to_string(seconds / 3600) + "h " + two_digits(seconds / 60 % 60) + "m";
}

} // namespace rio::client
