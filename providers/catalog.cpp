#include "providers/catalog.hpp"

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
         "OpenAI-compatible Chat Completions: OpenAI, Ollama, llama.cpp server, vLLM, "
         "OpenRouter.",
         "OPENAI_API_KEY", "OPENAI_BASE_URL", "https://api.openai.com/v1", "gpt-5",
         network_options("reasoning_effort for reasoning models; empty to leave it out.")},
    };
}

} // namespace

const std::vector<ProviderSpec>& provider_specs() {
    static const std::vector<ProviderSpec> specs = make_specs(); // immutable data
    return specs;
}

const ProviderSpec* find_provider_spec(std::string_view name) {
    for (const ProviderSpec& spec : provider_specs())
        if (spec.name == name) return &spec;
    return nullptr;
}

} // namespace rio
