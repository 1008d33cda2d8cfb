// The events the core announces, as the protocol's structs (DESIGN §3): one variant from the
// code that emits to the server that writes the line, and to every frontend that reads it
// back. Only the server and a frontend's decoder turn it into JSON or back.
#pragma once

#include "protocol/messages.hpp"

#include <functional>
#include <string_view>
#include <variant>

namespace rio {

using CoreEvent =
    std::variant<DeltaEvent, ThinkingEvent, UsageEvent, MessageEvent, ToolEvent, ToolResultEvent,
                 ToolProgressEvent, Proposal, DecidedEvent, ErrorEvent, StoppedEvent, DoneEvent,
                 ModeEvent, AgentStatus, ResetEvent, FreshEvent, EditAppliedEvent, CheckpointsState,
                 UndoneEvent, BufferChangedEvent, FsChangedEvent, WatchInfo, PlansChangedEvent,
                 PlanReportEvent, ProjectChangedEvent, ProjectTrustState, McpChangedEvent,
                 EditorReadEvent, LspChangedEvent, LspDiagnosticsEvent, CompactedEvent,
                 PlanProgressEvent, NoteEvent, PlanCommentsEvent, TerminalOutputEvent,
                 TerminalExitedEvent, SubagentEvent, RewoundEvent>;

// How core code announces a change to every client.
using Emit = std::function<void(const CoreEvent& event)>;

template <typename E> void emit_event(const Emit& emit, E event) {
    emit(CoreEvent(std::in_place_type<E>, std::move(event)));
}

// The event's name on the wire ("agent.delta", …) and its params.
std::string_view event_name(const CoreEvent& event);
Json event_params(const CoreEvent& event);

} // namespace rio
