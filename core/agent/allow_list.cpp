#include "core/agent/allow_list.hpp"

#include "text/argv_text.hpp"

#include <algorithm>

namespace rio {
namespace {

// "./docs/" and "docs" name the same folder; "" and "./" the root.
std::string normal_folder(std::string_view path) {
    while (path.starts_with("./"))
        path.remove_prefix(2);
    while (path.size() > 1 && path.ends_with('/'))
        path.remove_suffix(1);
    return path.empty() || path == "." ? std::string(".") : std::string(path);
}

} // namespace

std::vector<AllowRule> parse_allow_rules(std::string_view text) {
    std::vector<AllowRule> rules;
    std::size_t at = 0;
    while (at <= text.size()) {
        std::size_t nl = text.find('\n', at);
        std::string_view line = text.substr(at, nl == std::string_view::npos ? nl : nl - at);
        std::vector<std::string> words = argv_words(line, true);
        AllowRule rule;
        if (!words.empty() && words.front().starts_with("cwd=")) {
            rule.cwd = normal_folder(std::string_view(words.front()).substr(4));
            words.erase(words.begin());
        }
        rule.argv = std::move(words);
        if (!rule.argv.empty()) rules.push_back(std::move(rule));
        if (nl == std::string_view::npos) break;
        at = nl + 1;
    }
    return rules;
}

bool command_allowed(const std::vector<AllowRule>& rules, const std::vector<std::string>& argv,
                     std::string_view cwd) {
    const std::string where = normal_folder(cwd);
    for (const AllowRule& rule : rules) {
        if (rule.argv.size() > argv.size()) continue;
        if (rule.cwd != "*" && rule.cwd != where) continue;
        if (std::equal(rule.argv.begin(), rule.argv.end(), argv.begin())) return true;
    }
    return false;
}

std::string rule_text(const AllowRule& rule) {
    std::string text = "`" + argv_text(rule.argv) + "`";
    if (rule.cwd == "*") return text + " in any folder";
    return rule.cwd == "." ? text : text + " in " + rule.cwd;
}

} // namespace rio
