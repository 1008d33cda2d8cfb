// The provider-neutral conversation the agent loop keeps: alternating user and assistant
// entries, every tool call answered in the next user entry.
#pragma once

#include "protocol/messages.hpp"

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace rio {

enum class Role { user, assistant };

// What a user entry tells the model about the mode (decision 0053): the plan layer rides in
// the conversation where plan mode began, and a note where it ended, so the request's prefix
// (tools, system) is the same in both modes and approving a plan keeps the cache.
enum class ModeNote { none, plan, build };

struct ToolCall {
    std::string id; // the provider's id, echoed in the result
    std::string name;
    nlohmann::json input;
};

struct ToolOutcome {
    std::string call_id;
    std::string content; // what the model reads
    bool is_error = false;
    std::optional<CommandExit> exit;   // run_command, once the program ran
    std::optional<std::string> output; // run_command: what it printed (ToolResultEvent)
};

struct Message {
    Role role = Role::user;
    std::string text;
    std::vector<ToolCall> calls;      // assistant entries
    std::vector<ToolOutcome> results; // user entries; they come before the text
    // Assistant entries: provider blocks to send back verbatim, each {"provider", "block"};
    // a provider replays only its own (a signed thinking block, say).
    std::vector<nlohmann::json> kept;
    ModeNote note = ModeNote::none; // user entries
    std::string model{};            // assistant entries: the model that answered (DESIGN §20)
};

// Entries never change once recorded, so every provider call shares them instead of copying
// the whole history each step (and a provider on another thread may read them safely).
using Conversation = std::vector<std::shared_ptr<const Message>>;

// Where a turn's message sits (agent.rewind returns to just before it): the entry its text
// is in, and that entry as it was before the text joined it (a stopped turn's results).
struct TurnStart {
    std::uint64_t turn = 0;
    std::size_t index = 0;
    std::optional<Message> joined = std::nullopt;
    std::string text;
};

// As agent.history and the script provider's log show it: results spelled as agent.tool_result
// events are ({id, ok, content, exit?}).
HistoryMessage history_entry(const Message& message);
nlohmann::json to_json(const Message& message);

} // namespace rio
