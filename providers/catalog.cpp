#include "providers/catalog.hpp"

#include <algorithm>
#include <array>

namespace rio {
namespace {

// The window a conversation is held to (DESIGN §18): every provider that answers in turns has
// one, the script provider's stated by its test.
std::vector<OptionSpec> budget_options() {
    return {{"context_window",
             "The model's context window in tokens; empty for what rio knows of the model "
             "(32768 for a model it does not know).",
             {}},
            {"compact_at",
             "Compact the conversation when it fills this share of the window (0.2 to 0.95); "
             "empty for 0.8.",
             {}}};
}

std::vector<OptionSpec> network_options(const char* effort_note) {
    return {{"model", "Model id; the default is used when empty.", {}},
            {"effort", effort_note, {"", "low", "medium", "high"}},
            {"base_url", "API endpoint; empty for the default (or the environment's).", {}},
            {"max_tokens", "Largest reply, in tokens.", {}},
            {"idle_timeout_s", "Seconds without a byte from the server before the call fails.", {}},
            {"ca_file",
             "PEM file of the certificate authorities to trust (a company proxy's, a local "
             "server's); empty for SSL_CERT_FILE or the system's.",
             {}},
            budget_options()[0],
            budget_options()[1]};
}

// OpenAI-compatible servers speak Chat Completions; OpenAI's own newest models answer only on
// the Responses API.
std::vector<OptionSpec> openai_options() {
    std::vector<OptionSpec> options =
        network_options("reasoning_effort for reasoning models; empty to leave it out.");
    options.insert(options.begin() + 1,
                   {"wire",
                    "The API to speak: chat (Chat Completions, which every compatible server "
                    "speaks) or responses (OpenAI's Responses API); empty to choose by the model "
                    "— responses for the models that answer only there (the Codex, pro and deep "
                    "research models).",
                    {"", "chat", "responses"}});
    return options;
}

std::vector<ProviderSpec> make_specs() {
    return {
        {"echo",
         "Echo",
         "Offline: repeats your message. For trying rio without a model.",
         "",
         "",
         "",
         "echo",
         {}},
        {"script", "Script", "Replays model steps from a JSON file (tests, demos).", "", "", "",
         "script", budget_options()},
        {"anthropic", "Anthropic", "Anthropic Messages API (Claude).", "ANTHROPIC_API_KEY",
         "ANTHROPIC_BASE_URL", "https://api.anthropic.com", "claude-sonnet-4-5",
         network_options("Extended thinking budget: low, medium or high; empty for none.")},
        {"openai", "OpenAI",
         "OpenAI (Chat Completions or the Responses API) and compatible servers: Ollama, "
         "llama.cpp server, vLLM, OpenRouter.",
         "OPENAI_API_KEY", "OPENAI_BASE_URL", "https://api.openai.com/v1", "gpt-5",
         openai_options()},
    };
}

} // namespace

const std::vector<ProviderSpec>& provider_specs() {
    static const std::vector<ProviderSpec> specs = make_specs(); // immutable data
    return specs;
}

bool answers_only_on_responses(std::string_view model) {
    if (model.find('/') != std::string_view::npos) return false;
    constexpr std::array<std::string_view, 4> marks = {"codex", "-pro", "deep-research",
                                                       "computer-use"};
    return std::any_of(marks.begin(), marks.end(),
                       [&](std::string_view mark) { return model.find(mark) != model.npos; });
}

WireFormat openai_wire(std::string_view wire_option, std::string_view model) {
    if (wire_option == "responses") return WireFormat::responses;
    if (wire_option == "chat") return WireFormat::openai;
    return answers_only_on_responses(model) ? WireFormat::responses : WireFormat::openai;
}

const ProviderSpec* find_provider_spec(std::string_view name) {
    for (const ProviderSpec& spec : provider_specs())
        if (spec.name == name) return &spec;
    return nullptr;
}

} // namespace rio
