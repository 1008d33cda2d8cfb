// Planned vs actual (DESIGN §13): which project paths a plan names, and how the files its
// work created or edited compare with them. Pure; the host says which paths exist.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace rio {

// Words of the plan that look like project paths, in order, once each: runs of letters,
// digits and `_ . - /` that hold a '.' or a '/', without a leading "./" or trailing
// punctuation; absolute paths, URLs, ".." and rio's own .rio/ are not project paths.
std::vector<std::string> path_words(std::string_view plan);

struct PlanOutcome {
    std::vector<std::string> touched;   // as given
    std::vector<std::string> unplanned; // touched, but named nowhere in the plan
    std::vector<std::string> untouched; // named in the plan, touched by nothing
};

// A touched file is in the plan when the plan names its path, its file name, or a folder it
// is in. Of the path words, those count as named that exist in the project, that a touched
// file answers to, or that are clearly paths (a folder and a file name with an extension,
// like tests/test_cli.py, or a folder ending in '/'); prose like "e.g." or "os.path" is not.
// Whether the plan names `touched` (a file created or edited) by the rule above: some path
// word of the plan is its path, its file name or a folder it is in. What exists does not
// matter here — a word a touched file answers to counts as named — so drift can be told the
// moment a file changes (DESIGN §20), and agrees with compare_with_plan's `unplanned`.
bool plan_names(std::string_view plan, const std::string& touched);

PlanOutcome compare_with_plan(std::string_view plan, const std::vector<std::string>& touched,
                              const std::function<bool(const std::string&)>& exists);

} // namespace rio
