#include "core/agent/context_budget.hpp"

#include <algorithm>
#include <array>

namespace rio {
namespace {

bool starts_with(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
}

struct Family {
    std::string_view prefix;
    std::uint64_t window;
};

// Longest prefix first within a family: gpt-4o before gpt-4.
constexpr std::array<Family, 15> families = {{
    {"claude-", 200'000},
    {"codex-mini", 200'000},
    {"gpt-5", 400'000},
    {"gpt-4.1", 1'047'576},
    {"gpt-4o", 128'000},
    {"gpt-4-turbo", 128'000},
    {"gpt-4-0125", 128'000},
    {"gpt-4-1106", 128'000},
    {"gpt-4-32k", 32'768},
    {"gpt-4", 8'192},
    {"gpt-3.5-turbo", 16'385},
    {"o1-mini", 128'000},
    {"o1", 200'000},
    {"o3", 200'000},
    {"o4-mini", 200'000},
}};

} // namespace

std::uint64_t known_context_window(std::string_view model) {
    // Providers may prefix the family: "anthropic/claude-…", "openai/gpt-4o".
    if (auto slash = model.rfind('/'); slash != std::string_view::npos)
        model.remove_prefix(slash + 1);
    for (const Family& f : families)
        if (starts_with(model, f.prefix)) return f.window;
    return 0;
}

std::size_t message_bytes(const Message& m) {
    std::size_t n = m.text.size();
    for (const ToolCall& c : m.calls)
        n += c.id.size() + c.name.size() + c.input.dump().size();
    for (const ToolOutcome& r : m.results)
        n += r.call_id.size() + r.content.size();
    for (const nlohmann::json& k : m.kept)
        n += k.dump().size();
    return n + 16; // the role and framing around it
}

std::size_t conversation_bytes(const Conversation& conversation) {
    std::size_t n = 0;
    for (const auto& m : conversation)
        if (m) n += message_bytes(*m);
    return n;
}

std::size_t tool_output_cap(std::uint64_t window_tokens) {
    std::size_t share = bytes_for_tokens(window_tokens) / 10;
    return std::clamp<std::size_t>(share, 8 * 1024, 64 * 1024);
}

} // namespace rio
