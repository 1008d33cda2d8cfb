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

std::vector<std::string> argv_words(std::string_view line, bool comments) {
    std::vector<std::string> words;
    std::string word;
    bool in_word = false;
    char quote = 0;
    for (char c : line) {
        if (quote) {
            if (c == quote)
                quote = 0;
            else
                word.push_back(c);
        } else if (c == '\'' || c == '"') {
            quote = c;
            in_word = true;
        } else if (comments && c == '#' && !in_word) {
            break;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            if (in_word) words.push_back(std::move(word));
            word.clear();
            in_word = false;
        } else {
            word.push_back(c);
            in_word = true;
        }
    }
    if (in_word) words.push_back(std::move(word));
    return words;
}

} // namespace rio
