// Making a conversation smaller (DESIGN §18), as pure transformations the loop applies:
// clearing old tool outputs to one-line notes, the text a summary request carries, and the
// conversation that goes on from a summary. The loop decides when; nothing here does I/O.
#pragma once

#include "core/agent/conversation.hpp"
#include "core/agent/tools.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace rio {

struct Cleared {
    Conversation conversation;
    std::size_t cleared = 0; // tool outputs replaced by a note
};

// Replaces tool outputs with a one-line note each, oldest first, until the conversation
// takes at most `target_bytes`. Entries from `keep_from` on are left whole (the newest
// step's results: what the model just asked for), and so are a plan's results (an approved
// plan travels verbatim) and outputs shorter than their note. `tools` says which calls are a
// plan's and how each tool's calls are named.
Cleared clear_tool_outputs(const Conversation& conversation, const std::vector<ToolSpec>& tools,
                           std::size_t target_bytes, std::size_t keep_from);

// The note a cleared output leaves: what the call was (as its tool `spec` names it, if any),
// and how to get it again.
std::string cleared_note(const ToolCall& call, const ToolSpec* spec, std::size_t bytes);

// What a summary request sends as its one user message: the conversation as a transcript,
// cut to `max_bytes` (the start and the end kept, the middle's tool outputs first to go),
// then the user's instructions for the summary, if any.
std::string summary_request_text(const Conversation& conversation, std::size_t max_bytes,
                                 const std::string& instructions);

// Whether a summary can stand in for the conversation: not blank, and not longer than what
// it summarizes or than `max_bytes`.
bool usable_summary(const std::string& summary, std::size_t summarized_bytes,
                    std::size_t max_bytes);

// What a compacted conversation keeps besides the summary.
struct CompactionKeep {
    std::vector<std::string> user_messages; // in order; the latest is kept whole
    std::string approved_plan;              // verbatim, "" when none was approved
    std::string progress;                   // its steps' statuses and notes, one a line
    std::vector<std::string> changed_files; // project-relative, in order
};

// The user entry a compacted conversation starts with.
std::string compacted_seed(const std::string& summary, const CompactionKeep& keep,
                           std::size_t max_user_bytes);

// The user's own messages of a conversation (tool results left out), in order.
std::vector<std::string> user_messages(const Conversation& conversation);

} // namespace rio
