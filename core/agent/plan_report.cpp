#include "core/agent/plan_report.hpp"

#include <algorithm>

namespace rio {
namespace {

bool path_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == '-' || c == '/';
}

std::string_view base_name(std::string_view path) {
    std::size_t slash = path.rfind('/');
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

bool has_extension(std::string_view name) {
    std::size_t dot = name.rfind('.');
    return dot != std::string_view::npos && dot > 0 && dot + 1 < name.size();
}

// A folder and a file name with an extension, or a folder ending in '/'.
bool clearly_a_path(std::string_view word) {
    if (word.back() == '/') return word.size() > 1;
    return word.find('/') != std::string_view::npos && has_extension(base_name(word));
}

bool answers_to(const std::string& touched, std::string_view named) {
    if (touched == named) return true;
    if (named.back() == '/') return touched.compare(0, named.size(), named) == 0;
    if (named.find('/') == std::string_view::npos && base_name(touched) == named) return true;
    return touched.size() > named.size() && touched.compare(0, named.size(), named) == 0 &&
           touched[named.size()] == '/';
}

} // namespace

std::vector<std::string> path_words(std::string_view plan) {
    std::vector<std::string> out;
    std::size_t at = 0;
    while (at < plan.size()) {
        if (!path_char(plan[at])) {
            ++at;
            continue;
        }
        std::size_t end = at;
        while (end < plan.size() && path_char(plan[end]))
            ++end;
        bool url = plan.substr(end, 3) == "://" || (at > 0 && plan[at - 1] == ':');
        std::string_view word = plan.substr(at, end - at);
        at = end;
        while (!word.empty() && (word.back() == '.' || word.back() == '-'))
            word.remove_suffix(1);
        while (word.substr(0, 2) == "./")
            word.remove_prefix(2);
        if (url || word.empty() || word.front() == '/' || word.front() == '-' ||
            word.find("..") != std::string_view::npos || word.substr(0, 5) == ".rio/" ||
            word == ".rio" || word.find("//") != std::string_view::npos)
            continue;
        if (word.find('.') == std::string_view::npos && word.find('/') == std::string_view::npos)
            continue;
        if (std::find(out.begin(), out.end(), word) == out.end()) out.emplace_back(word);
    }
    return out;
}

bool plan_names(std::string_view plan, const std::string& touched) {
    std::vector<std::string> words = path_words(plan);
    return std::any_of(words.begin(), words.end(),
                       [&](const std::string& w) { return answers_to(touched, w); });
}

PlanOutcome compare_with_plan(std::string_view plan, const std::vector<std::string>& touched,
                              const std::function<bool(const std::string&)>& exists) {
    std::vector<std::string> named;
    for (std::string& word : path_words(plan)) {
        bool answered = std::any_of(touched.begin(), touched.end(),
                                    [&](const std::string& t) { return answers_to(t, word); });
        if (answered || clearly_a_path(word) || exists(word)) named.push_back(std::move(word));
    }
    PlanOutcome outcome;
    outcome.touched = touched;
    for (const std::string& t : touched)
        if (std::none_of(named.begin(), named.end(),
                         [&](const std::string& n) { return answers_to(t, n); }))
            outcome.unplanned.push_back(t);
    for (const std::string& n : named)
        if (std::none_of(touched.begin(), touched.end(),
                         [&](const std::string& t) { return answers_to(t, n); }))
            outcome.untouched.push_back(n);
    return outcome;
}

} // namespace rio
