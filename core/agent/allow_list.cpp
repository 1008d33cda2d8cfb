#include "core/agent/allow_list.hpp"

namespace rio {
namespace {

AllowRule split_words(std::string_view line) {
    AllowRule words;
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
        } else if (c == '#' && !in_word) {
            break;
        } else if (c == ' ' || c == '\t' || c == '\r') {
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

} // namespace

std::vector<AllowRule> parse_allow_rules(std::string_view text) {
    std::vector<AllowRule> rules;
    std::size_t at = 0;
    while (at <= text.size()) {
        std::size_t nl = text.find('\n', at);
        std::string_view line = text.substr(at, nl == std::string_view::npos ? nl : nl - at);
        if (AllowRule rule = split_words(line); !rule.empty()) rules.push_back(std::move(rule));
        if (nl == std::string_view::npos) break;
        at = nl + 1;
    }
    return rules;
}

bool command_allowed(const std::vector<AllowRule>& rules, const std::vector<std::string>& argv) {
    for (const AllowRule& rule : rules) {
        if (rule.size() > argv.size()) continue;
        bool match = true;
        for (std::size_t i = 0; i < rule.size() && match; ++i)
            match = rule[i] == argv[i];
        if (match) return true;
    }
    return false;
}

} // namespace rio
