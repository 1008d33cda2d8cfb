#include "core/agent/plan_file.hpp"

#include <cstdio>

namespace rio {
namespace {

constexpr std::string_view fence = "---\n";

bool starts_with_heading(std::string_view text) {
    std::size_t first = text.find_first_not_of(" \t\r\n");
    return first != std::string_view::npos && text[first] == '#';
}

// Splits "---\n<fields>---\n<body>"; no front matter → empty fields, whole body.
std::pair<std::string_view, std::string_view> split_front_matter(std::string_view text) {
    if (text.substr(0, fence.size()) != fence) return {{}, text};
    std::size_t end = text.find("\n---\n", fence.size() - 1);
    if (end == std::string_view::npos) return {{}, text};
    return {text.substr(fence.size(), end + 1 - fence.size()), text.substr(end + 5)};
}

std::string field(std::string_view fields, std::string_view key) {
    std::size_t at = 0;
    while (at < fields.size()) {
        std::size_t nl = fields.find('\n', at);
        std::string_view line = fields.substr(at, nl == std::string_view::npos ? nl : nl - at);
        if (line.substr(0, key.size()) == key && line.substr(key.size(), 1) == ":") {
            std::string_view value = line.substr(key.size() + 1);
            while (!value.empty() && value.front() == ' ')
                value.remove_prefix(1);
            return std::string(value);
        }
        if (nl == std::string_view::npos) break;
        at = nl + 1;
    }
    return {};
}

std::string front_matter(std::string_view status, std::string_view presented,
                         std::string_view decided, std::string_view policy) {
    std::string out(fence);
    out += "status: " + std::string(status) + "\n";
    out += "presented: " + std::string(presented) + "\n";
    if (!decided.empty()) out += "decided: " + std::string(decided) + "\n";
    if (!policy.empty()) out += "policy: " + std::string(policy) + "\n";
    out += fence;
    return out;
}

std::string first_heading(std::string_view body) {
    std::size_t at = 0;
    while (at < body.size()) {
        std::size_t nl = body.find('\n', at);
        std::string_view line = body.substr(at, nl == std::string_view::npos ? nl : nl - at);
        if (!line.empty() && line.front() == '#') {
            std::size_t text = line.find_first_not_of("# ");
            return text == std::string_view::npos ? std::string() : std::string(line.substr(text));
        }
        if (nl == std::string_view::npos) break;
        at = nl + 1;
    }
    return {};
}

} // namespace

std::string plan_slug(std::string_view title) {
    std::string slug;
    for (char c : title) {
        char lower = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
        bool keep = (lower >= 'a' && lower <= 'z') || (lower >= '0' && lower <= '9');
        if (keep)
            slug.push_back(lower);
        else if (!slug.empty() && slug.back() != '-')
            slug.push_back('-');
    }
    if (slug.size() > 48) slug.resize(48);
    while (!slug.empty() && slug.back() == '-')
        slug.pop_back();
    return slug.empty() ? "plan" : slug;
}

std::string plan_file_path(std::time_t presented, std::string_view slug, int attempt) {
    std::tm tm{};
    gmtime_r(&presented, &tm);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    std::string path = ".rio/plans/" + std::string(stamp) + "-" + std::string(slug);
    if (attempt > 1) path += "-" + std::to_string(attempt);
    return path + ".md";
}

std::string iso_time(std::time_t t) {
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::string render_plan_file(std::string_view title, std::string_view plan, std::time_t presented) {
    std::string out = front_matter("presented", iso_time(presented), {}, {});
    if (!starts_with_heading(plan)) out += "# " + std::string(title) + "\n\n";
    out += plan;
    if (!plan.empty() && plan.back() != '\n') out.push_back('\n');
    return out;
}

PlanFileInfo parse_plan_file(std::string_view text) {
    auto [fields, body] = split_front_matter(text);
    PlanFileInfo info;
    info.status = field(fields, "status");
    info.presented = field(fields, "presented");
    info.decided = field(fields, "decided");
    info.policy = field(fields, "policy");
    info.title = first_heading(body);
    info.body = std::string(body);
    return info;
}

std::string set_plan_status(std::string_view text, std::string_view status, std::time_t decided,
                            std::string_view policy) {
    auto [fields, body] = split_front_matter(text);
    std::string presented = field(fields, "presented");
    return front_matter(status, presented.empty() ? iso_time(decided) : presented,
                        iso_time(decided), policy) +
           std::string(body);
}

} // namespace rio
