// What a frontend knows about the agent, folded from the core's events: a reducer with no
// I/O, so every frontend shows the same state and the tests drive it with recorded events.
#pragma once

#include "client/events.hpp"
#include "client/modes.hpp"
#include "client/trace_words.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace rio::client {

// A tool call and, once it came, its result (with a command's exit as data).
struct TraceCall {
    ToolEvent call;
    std::optional<ToolResultEvent> result;
    std::optional<ToolProgressEvent> progress; // the last agent.tool_progress, while it runs
    // The person rejected it: what they said, in their words (rejection_words), from the
    // agent.decided that comes before the result.
    std::optional<std::string> rejected;
};

struct TranscriptEntry {
    enum class Kind { user, assistant, tool, note, error };
    Kind kind;
    std::string text;     // user, assistant, note, error
    std::size_t call = 0; // tool: index into SessionState::calls
    // user: the turn the message began, which agent.rewind can return to (known once the
    // core said so: agent.history, or agent.send's answer)
    std::optional<std::uint64_t> turn = std::nullopt;
};

// A turn's token counts, summed over its provider calls (agent.usage).
struct TurnUsage {
    std::uint64_t turn = 0;
    std::uint64_t calls = 0; // provider calls that reported counts
    // In agent.usage's terms (Anthropic's): input_tokens are the uncached ones; cached input
    // is counted apart, read from the provider's prompt cache or written to it.
    std::uint64_t input_tokens = 0;
    std::uint64_t cache_read_tokens = 0;
    std::uint64_t cache_write_tokens = 0;
    std::uint64_t output_tokens = 0;
};

struct SessionState {
    std::string mode = "build";
    bool auto_accept = false;
    bool busy = false;
    std::uint64_t turn = 0;
    std::string provider, model;
    std::optional<PlanModel> plan_model; // who answers in plan mode, when not the builder
    std::optional<Proposal> pending;     // waiting for a person
    std::string session;                 // the saved session the conversation goes to
    std::string session_problem;         // why it is not being saved, "" while it is
    std::string streaming;               // the assistant's text of the message being written
    std::vector<TranscriptEntry> transcript;
    std::vector<TraceCall> calls;
    // The last plans.report: what the last approved plan's work changed against the plan.
    std::optional<PlanReportEvent> last_report;
    // The approved plan's steps and drift as plans.progress last said them (DESIGN §20).
    std::optional<PlanProgressEvent> plan;
    // How far it has come as agent.status says it (also after a resume, before any event).
    std::optional<PlanTally> plan_tally;
    TurnUsage usage;                     // of the turn that reported counts last
    std::optional<ContextInfo> context;  // how full the model's window is (agent.status)
    std::optional<SandboxState> sandbox; // how commands run here (agent.status)

    ModeChoice choice() const { return mode_choice(mode, auto_accept); }
};

class Session {
public:
    void apply(const CoreEvent& event);
    // agent.status as a reply (the same shape as the event).
    void apply_status(const AgentStatus& status);
    // agent.history: the conversation so far (another client's, on a shared core).
    void apply_history(const HistoryResult& history);
    // agent.autoaccept.set's answer, which comes before the status that reports it.
    void apply_auto_accept(bool on) { state_.auto_accept = on; }
    // The person's message, as this frontend sent it (the core does not echo it).
    void sent(std::string text);

    const SessionState& state() const { return state_; }
    // The call with this id, if the session has seen it.
    const TraceCall* call(const std::string& id) const;
    // What became of a call, as every frontend says it: the person's own words for a call they
    // rejected — never the tool result's words for the model — else tool_outcome's.
    ToolOutcome outcome(const ToolResultEvent& result) const;

private:
    void clear_conversation();
    void add_call(ToolEvent call);
    void add_result(ToolResultEvent result);
    void add_progress(const ToolProgressEvent& progress);
    void note_rejection(const DecidedEvent& decided);
    void finish_message(std::string text);
    void add(TranscriptEntry::Kind kind, std::string text);
    void add_usage(const UsageEvent& usage);

    SessionState state_;
};

} // namespace rio::client
