// How much of the model's context window a conversation takes (DESIGN §18): the known
// models' windows, the estimate rio makes before a provider reports a count, and the share
// of the window one tool call may fill. Pure: the loop and the runtime ask.
#pragma once

#include "core/agent/conversation.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace rio {

// An unknown model's window (decision 0054): small enough for most local servers as they
// are configured, so rio compacts before such a server cuts the conversation silently.
inline constexpr std::uint64_t default_context_window = 32'768;
// Compact between steps once the context passes this share of the window.
inline constexpr double default_compact_at = 0.8;

// The window of a model rio knows by its id's family (Anthropic's and OpenAI's), else 0.
std::uint64_t known_context_window(std::string_view model);

// Tokens for a number of bytes: about four bytes a token for English text and code.
constexpr std::uint64_t estimate_tokens(std::size_t bytes) {
    return (static_cast<std::uint64_t>(bytes) + 3) / 4;
}
constexpr std::size_t bytes_for_tokens(std::uint64_t tokens) {
    return static_cast<std::size_t>(tokens * 4);
}

// Bytes of what an entry sends: its texts, tool inputs, results and kept blocks.
std::size_t message_bytes(const Message& message);
std::size_t conversation_bytes(const Conversation& conversation);

// The most one tool call's output may take (decision 0056): a tenth of the window, within
// [8 KB, 64 KB].
std::size_t tool_output_cap(std::uint64_t window_tokens);

// The window and threshold a conversation is held to.
struct ContextBudget {
    std::uint64_t window = default_context_window;
    double compact_at = default_compact_at;
    std::size_t prefix_bytes = 0; // the system prompt and tool list, as last sent
};

} // namespace rio
