#include "core/command_text.hpp"

#include "text/argv_text.hpp"

namespace rio {

std::string expand_command(std::string_view body, std::string_view args) {
    const std::vector<std::string> words = argv_words(args);
    constexpr std::string_view all = "$ARGUMENTS";
    std::string out;
    bool used = false;
    for (std::size_t i = 0; i < body.size();) {
        if (body.substr(i, all.size()) == all) {
            out += args;
            i += all.size();
            used = true;
        } else if (body[i] == '$' && i + 1 < body.size() && body[i + 1] >= '1' &&
                   body[i + 1] <= '9') {
            const std::size_t n = static_cast<std::size_t>(body[i + 1] - '1');
            if (n < words.size()) out += words[n];
            i += 2;
            used = true;
        } else {
            out += body[i++];
        }
    }
    if (!used && !args.empty()) out += "\n\n" + std::string(args);
    return out;
}

} // namespace rio
