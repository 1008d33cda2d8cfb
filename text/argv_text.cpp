#include "text/argv_text.hpp"

namespace rio {

std::string argv_text(const std::vector<std::string>& argv) {
    std::string out;
    for (const std::string& word : argv) {
        bool plain = !word.empty() && word.find_first_of(" \t\"'\\$") == std::string::npos;
        if (!out.empty()) out += ' ';
        out += plain ? word : "'" + word + "'";
    }
    return out;
}

} // namespace rio
