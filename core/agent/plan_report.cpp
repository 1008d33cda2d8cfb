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

// What may stand between the two ends of a range of files: "`mod1.py` .. `mod5.py`",
// "mod1.py to mod5.py", "mod1.py–mod5.py".
bool range_gap(std::string_view gap) {
    std::string word;
    for (char c : gap)
        if (c != ' ' && c != '`' && c != '*' && c != '"' && c != '\'') word += c;
    return word == ".." || word == "..." || word == "\u2026" || word == "\u2013" ||
           word == "\u2014" || word == "-" || word == "to" || word == "through" || word == "thru";
}

// The files from `first` to `last` when they differ only in a number ("mod1.py", "mod5.py"
// -> mod1.py … mod5.py; "f08.c", "f10.c" keep the width), else none.
std::vector<std::string> numbered_range(std::string_view first, std::string_view last) {
    constexpr unsigned long most = 1000;
    auto digit = [](char c) { return c >= '0' && c <= '9'; };
    std::size_t head = 0;
    while (head < first.size() && head < last.size() && first[head] == last[head])
        ++head;
    while (head > 0 && digit(first[head - 1]))
        --head;
    std::size_t tail = 0;
    while (tail < first.size() - head && tail < last.size() - head &&
           first[first.size() - 1 - tail] == last[last.size() - 1 - tail])
        ++tail;
    while (tail > 0 && digit(first[first.size() - tail]))
        --tail;
    std::string_view a = first.substr(head, first.size() - head - tail);
    std::string_view b = last.substr(head, last.size() - head - tail);
    if (a.empty() || b.empty() || a.size() > 6 || b.size() > 6 ||
        !std::all_of(a.begin(), a.end(), digit) || !std::all_of(b.begin(), b.end(), digit))
        return {};
    unsigned long from = std::stoul(std::string(a)), to = std::stoul(std::string(b));
    if (from >= to || to - from > most) return {};
    std::size_t width = a.size() == b.size() && a.front() == '0' ? a.size() : 0;
    std::vector<std::string> out;
    for (unsigned long n = from; n <= to; ++n) {
        std::string number = std::to_string(n);
        if (number.size() < width) number.insert(0, width - number.size(), '0');
        out.push_back(std::string(first.substr(0, head)) + number +
                      std::string(first.substr(first.size() - tail)));
    }
    return out;
}

} // namespace

std::vector<std::string> path_words(std::string_view plan) {
    std::vector<std::string> out;
    auto add = [&out](std::string word) {
        if (std::find(out.begin(), out.end(), word) == out.end()) out.push_back(std::move(word));
    };
    std::string_view previous; // the last word taken, and where it ended
    std::size_t previous_end = 0;
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
        std::size_t start = at;
        at = end;
        // "mod1.py..mod5.py" written as one word.
        if (std::size_t dots = word.find("..");
            dots != std::string_view::npos && dots > 0 &&
            word.find("..", dots + 2) == std::string_view::npos) {
            for (std::string& w : numbered_range(word.substr(0, dots), word.substr(dots + 2)))
                add(std::move(w));
        }
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
        if (!previous.empty() && range_gap(plan.substr(previous_end, start - previous_end)))
            for (std::string& w : numbered_range(previous, word))
                add(std::move(w));
        add(std::string(word));
        previous = word;
        previous_end = end;
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
