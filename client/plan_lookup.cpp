#include "client/plan_lookup.hpp"

#include "text/trim.hpp"

#include <string_view>

namespace rio::client {
namespace {

std::string json_text(const Json& input, const char* key) {
    auto it = input.is_object() ? input.find(key) : input.end();
    return it != input.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The first line that starts with '#', without its marks: what a plan file is titled by.
std::string first_heading(std::string_view text) {
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t nl = text.find('\n', at);
        std::string_view line = text.substr(at, nl == std::string_view::npos ? nl : nl - at);
        if (!line.empty() && line.front() == '#') {
            const std::size_t start = line.find_first_not_of("# ");
            return start == std::string_view::npos ? std::string()
                                                   : std::string(line.substr(start));
        }
        if (nl == std::string_view::npos) break;
        at = nl + 1;
    }
    return {};
}

} // namespace

PresentedPlan presented_plan(const Json& input) {
    return {json_text(input, "title"), json_text(input, "plan")};
}

std::vector<std::string> plan_candidates(const PlansListResult& plans,
                                         const PresentedPlan& presented) {
    const std::string heading = first_heading(presented.plan);
    std::vector<std::string> paths;
    for (const PlanInfo& plan : plans.plans)
        if ((!presented.title.empty() && plan.title == presented.title) ||
            (!heading.empty() && plan.title == heading))
            paths.push_back(plan.path);
    return paths;
}

bool holds_plan(const PlanFull& filed, const PresentedPlan& presented) {
    const std::string_view text = trimmed(presented.plan);
    return !text.empty() && filed.plan.find(text) != std::string::npos;
}

} // namespace rio::client
