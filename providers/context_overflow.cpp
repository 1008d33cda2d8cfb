#include "providers/context_overflow.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace rio {

bool is_context_overflow(int status, std::string_view text) {
    // 413 is a body too large for the server's front door, not the model's window; 5xx and
    // auth failures are other trouble whatever their text says.
    if (status != 0 && status != 400) return false;
    std::string lower(text.substr(0, 64 * 1024));
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    static constexpr std::array<std::string_view, 8> wordings = {
        "prompt is too long",                      // Anthropic
        "context_length_exceeded",                 // OpenAI's code
        "exceed_context_size_error",               // llama.cpp's type
        "exceeds the available context size",      // llama.cpp's message
        "exceeds the context window",              // OpenAI's Responses API
        "maximum context length is",               // OpenAI's and vLLM's message
        "input length exceeds the context length", // Ollama
        "context length exceeded",
    };
    return std::any_of(wordings.begin(), wordings.end(),
                       [&](std::string_view w) { return lower.find(w) != std::string::npos; });
}

} // namespace rio
