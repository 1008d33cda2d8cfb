#include "core/agent/prompt.hpp"

namespace rio {

std::string compose_prompt(const std::vector<PromptLayer>& layers) {
    std::string out;
    for (const PromptLayer& layer : layers) {
        if (!layer.active) continue;
        std::string_view text = layer.text;
        while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
            text.remove_suffix(1);
        if (text.empty()) continue;
        if (!out.empty()) out += "\n\n";
        out += text;
    }
    return out;
}

} // namespace rio
