#include "client/session.hpp"

#include "client/trace_words.hpp"

#include <algorithm>
#include <type_traits>

namespace rio::client {

void Session::apply(const CoreEvent& event) {
    std::visit(
        [this](const auto& e) {
            using E = std::decay_t<decltype(e)>;
            if constexpr (std::is_same_v<E, DeltaEvent>) {
                state_.streaming += e.text;
            } else if constexpr (std::is_same_v<E, MessageEvent>) {
                finish_message(e.text);
            } else if constexpr (std::is_same_v<E, ToolEvent>) {
                add_call(e);
            } else if constexpr (std::is_same_v<E, ToolResultEvent>) {
                add_result(e);
            } else if constexpr (std::is_same_v<E, ToolProgressEvent>) {
                add_progress(e);
            } else if constexpr (std::is_same_v<E, Proposal>) {
                state_.pending = e;
            } else if constexpr (std::is_same_v<E, DecidedEvent>) {
                if (state_.pending && state_.pending->id == e.id) state_.pending.reset();
                add(TranscriptEntry::Kind::note, decision_text(e));
                if (e.rejected()) note_rejection(e);
            } else if constexpr (std::is_same_v<E, ErrorEvent>) {
                add(TranscriptEntry::Kind::error,
                    "Error" + (e.code.empty() ? "" : " (" + e.code + ")") + ": " + e.message);
            } else if constexpr (std::is_same_v<E, StoppedEvent>) {
                state_.pending.reset();
                // A new message ends the turn before it too; that needs no word.
                if (e.is(StopReason::stop)) add(TranscriptEntry::Kind::note, "Stopped.");
            } else if constexpr (std::is_same_v<E, ResetEvent>) {
                state_.pending.reset();
                state_.plan.reset();
                clear_conversation();
            } else if constexpr (std::is_same_v<E, RewoundEvent>) {
                // What agent.history now says is the conversation; a frontend reads it again.
                state_.pending.reset();
                clear_conversation();
            } else if constexpr (std::is_same_v<E, FreshEvent>) {
                // What agent.history now says: the one message the new conversation has.
                clear_conversation();
                add(TranscriptEntry::Kind::user, e.text);
            } else if constexpr (std::is_same_v<E, PlanProgressEvent>) {
                state_.plan = e;
            } else if constexpr (std::is_same_v<E, PlanReportEvent>) {
                state_.last_report = e;
                if (state_.plan && state_.plan->turn == e.turn)
                    add(TranscriptEntry::Kind::note, plan_summary_text(*state_.plan));
                if (std::string words = plan_report_text(e); !words.empty())
                    add(TranscriptEntry::Kind::note, std::move(words));
                if (std::string receipt = receipt_summary_line(e); !receipt.empty()) {
                    if (receipt.ends_with('.')) receipt.pop_back();
                    if (!e.path.empty()) receipt += " — under the plan in " + e.path;
                    add(TranscriptEntry::Kind::note, "Receipt: " + receipt);
                }
            } else if constexpr (std::is_same_v<E, UsageEvent>) {
                add_usage(e);
            } else if constexpr (std::is_same_v<E, CompactedEvent>) {
                add(TranscriptEntry::Kind::note, compacted_text(e));
            } else if constexpr (std::is_same_v<E, NoteEvent>) {
                add(TranscriptEntry::Kind::note, note_text(e));
            } else if constexpr (std::is_same_v<E, ModeEvent>) {
                state_.mode = e.mode;
            } else if constexpr (std::is_same_v<E, AgentStatus>) {
                apply_status(e);
            }
        },
        event);
}

void Session::apply_status(const AgentStatus& status) {
    state_.mode = status.mode;
    state_.auto_accept = status.auto_accept;
    state_.busy = status.busy;
    state_.turn = status.turn;
    state_.provider = status.provider;
    state_.model = status.model;
    state_.plan_model = status.plan_model;
    state_.pending = status.pending;
    state_.session = status.session;
    state_.session_problem = status.session_problem;
    state_.context = status.context;
    state_.sandbox = status.sandbox;
    state_.plan_tally = status.plan;
    if (!status.plan) state_.plan.reset();
}

void Session::apply_history(const HistoryResult& history) {
    clear_conversation();
    for (const HistoryMessage& m : history.messages) {
        if (m.role == "user") {
            for (const ResultInfo& r : m.results.value_or(std::vector<ResultInfo>{})) {
                ToolResultEvent result;
                result.turn = history.turn;
                result.id = r.id;
                result.ok = r.ok;
                result.content = r.content;
                result.exit = r.exit;
                if (const TraceCall* known = call(r.id)) result.name = known->call.name;
                add_result(std::move(result));
            }
            if (!m.text.empty()) {
                add(TranscriptEntry::Kind::user, m.text);
                state_.transcript.back().turn = m.turn;
            }
            continue;
        }
        finish_message(m.text);
        for (const CallInfo& c : m.calls.value_or(std::vector<CallInfo>{})) {
            ToolEvent tool;
            tool.turn = history.turn;
            tool.id = c.id;
            tool.name = c.name;
            tool.input = c.input;
            add_call(std::move(tool));
        }
    }
}

void Session::clear_conversation() {
    state_.streaming.clear();
    state_.transcript.clear();
    state_.calls.clear();
}

void Session::sent(std::string text) {
    add(TranscriptEntry::Kind::user, std::move(text));
}

const TraceCall* Session::call(const std::string& id) const {
    for (const TraceCall& c : state_.calls)
        if (c.call.id == id) return &c;
    return nullptr;
}

void Session::add_call(ToolEvent call) {
    state_.calls.push_back({std::move(call), std::nullopt, std::nullopt, std::nullopt});
    state_.transcript.push_back({TranscriptEntry::Kind::tool, {}, state_.calls.size() - 1});
}

ToolOutcome Session::outcome(const ToolResultEvent& result) const {
    const TraceCall* traced = call(result.id);
    if (traced && traced->rejected && !result.ok) return {*traced->rejected, false, true};
    return tool_outcome(result);
}

void Session::note_rejection(const DecidedEvent& decided) {
    for (auto it = state_.calls.rbegin(); it != state_.calls.rend(); ++it)
        if (it->call.id == decided.id) {
            it->rejected = rejection_words(decided);
            return;
        }
}

void Session::add_result(ToolResultEvent result) {
    for (auto it = state_.calls.rbegin(); it != state_.calls.rend(); ++it)
        if (it->call.id == result.id) {
            it->result = std::move(result);
            return;
        }
}

void Session::add_progress(const ToolProgressEvent& progress) {
    for (auto it = state_.calls.rbegin(); it != state_.calls.rend(); ++it)
        if (it->call.id == progress.id) {
            if (!it->result) it->progress = progress;
            return;
        }
}

void Session::finish_message(std::string text) {
    state_.streaming.clear();
    if (!text.empty()) add(TranscriptEntry::Kind::assistant, std::move(text));
}

void Session::add_usage(const UsageEvent& usage) {
    if (state_.usage.turn != usage.turn) state_.usage = TurnUsage{usage.turn, 0, 0, 0, 0, 0};
    const auto count = [&](const char* key) {
        auto it = usage.counts.find(key);
        if (it == usage.counts.end() || !it->is_number_integer()) return std::uint64_t{0};
        return static_cast<std::uint64_t>(std::max<std::int64_t>(0, it->get<std::int64_t>()));
    };
    TurnUsage& u = state_.usage;
    ++u.calls;
    u.input_tokens += count("input_tokens");
    u.cache_read_tokens += count("cache_read_input_tokens");
    u.cache_write_tokens += count("cache_creation_input_tokens");
    u.output_tokens += count("output_tokens");
}

void Session::add(TranscriptEntry::Kind kind, std::string text) {
    state_.transcript.push_back({kind, std::move(text), 0});
}

} // namespace rio::client
