// What the agent loop's files (loop.cpp, loop_gate.cpp, loop_compaction.cpp, loop_plan.cpp,
// loop_resume.cpp, loop_rewind.cpp) share; nothing outside the loop includes it.
#pragma once

#include "core/agent/conversation.hpp"
#include "core/agent/tools.hpp"
#include "protocol/messages.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace rio::loop_shared {

std::string switched_refusal(const ToolCall& call);

// A tool event's kind: the tool's, "unknown" for a tool the loop does not have.
Wire<ToolKind> kind_of(const ToolSpec* spec);

// Where the entries a compaction keeps whole begin: the newest step (an assistant entry's
// calls and the user entry answering them), or a step stopped at a proposal.
std::size_t kept_tail(const Conversation& c);

// The mode a conversation last told the model of: its last mode note, or build once a plan
// was approved after it (a restored or rewound conversation).
Mode told_mode_of(const Conversation& c);

} // namespace rio::loop_shared
