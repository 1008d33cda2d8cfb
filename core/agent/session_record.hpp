// What a conversation's session file says (DESIGN §14): one JSON object per line — a header,
// then the conversation's entries, mode changes and the pending proposal as they happen — and
// how those lines replay into the state a resumed loop starts from. No I/O here:
// host/session_files reads and appends the lines, ops/session_recorder decides when.
#pragma once

#include "core/agent/conversation.hpp"
#include "core/agent/plan_track.hpp"
#include "core/agent/tools.hpp"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace rio {

struct SessionHeader {
    std::string id;
    std::string project; // "" without a project
    std::string title;
    std::string created; // ISO 8601, UTC
};

// A step stopped at a proposal: the calls answered before it, and the proposal itself (with
// its full texts), so a resumed loop can ask again.
struct PendingStep {
    std::vector<ToolOutcome> results;
    Proposal proposal;
};

struct RestoredSession {
    SessionHeader header;
    std::string updated; // the time of the last entry
    Conversation conversation;
    Mode mode = Mode::build;
    bool auto_accept = false;
    std::uint64_t turn = 0;
    std::optional<PendingStep> pending;
    // From the last compaction line: what the compacted conversation carried besides itself.
    std::string approved_plan;
    std::vector<std::string> changed_files;
    // From the last plan line: the approved plan's steps and progress (DESIGN §20).
    std::optional<PlanTrack> plan;
    // The turns' messages agent.rewind can return to, and the turn before which it cannot
    // (the last compaction's).
    std::vector<TurnStart> turn_starts = {};
    std::uint64_t rewritten_at = 0;
};

// Lines. `time` is ISO 8601; each line carries it so `updated` needs no stat().
nlohmann::json header_line(const SessionHeader& header, Mode mode, bool auto_accept);
// `replaces_last`: the conversation's last entry changed (text joined to a user entry).
nlohmann::json message_line(const Message& message, std::uint64_t turn, bool replaces_last,
                            const std::string& time);
nlohmann::json mode_line(Mode mode, bool auto_accept, const std::string& time);
// `step` null: nothing is pending any more.
nlohmann::json pending_line(const PendingStep* step, std::uint64_t turn, const std::string& time);

// The approved plan's track changed (approved, a step's status, a file outside it); null: the
// conversation has no approved plan any more.
nlohmann::json plan_line(const PlanTrack* track, const std::string& time);

// The conversation was compacted (DESIGN §18): the whole of it as it now is replaces what the
// lines before said, with the approved plan and the files changed so far.
// A rewind writes one too, with the turns' messages it kept (`starts`) and the turn before
// which none can be returned to (`floor`).
nlohmann::json compacted_line(const Conversation& conversation, std::uint64_t turn,
                              const std::string& approved_plan,
                              const std::vector<std::string>& changed_files,
                              const std::string& time, const std::vector<TurnStart>& starts = {},
                              std::uint64_t floor = 0);

struct SessionReplay {
    RestoredSession session;
    std::size_t lines_used = 0;
    std::string problem; // why replay stopped before the end ("" when every line fit)
};
// Replays lines in order; the first line that does not fit stops it, and everything before it
// is kept. A first line that is not a header yields lines_used 0.
SessionReplay replay_session(const std::vector<nlohmann::json>& lines);

// The session's title from the first request: its first non-blank line, at most 80 characters.
std::string session_title(const std::string& request);

} // namespace rio
