#include "core/agent/plan_file.hpp"

#include "core/agent/plan_receipt.hpp"
#include "core/front_matter.hpp"
#include "text/one_line.hpp"
#include "text/utf8.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace rio {
namespace {

constexpr std::string_view fence = "---\n";

// "# Title" as the first line with text: a level-1 heading. "## Steps" is not one, so the
// plan still gets its title above it.
bool starts_with_title(std::string_view text) {
    std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos || text[first] != '#') return false;
    return first + 1 == text.size() || text[first + 1] == ' ' || text[first + 1] == '\t' ||
           text[first + 1] == '\n' || text[first + 1] == '\r';
}

// Latin-1 Supplement and Latin Extended-A letters as ASCII: ranges of code points that
// share one spelling. Anything else is no letter of a slug.
struct Fold {
    char32_t first, last;
    const char* ascii;
};
constexpr Fold folds[] = {
    {0xC0, 0xC5, "a"},   {0xC6, 0xC6, "ae"},   {0xC7, 0xC7, "c"},   {0xC8, 0xCB, "e"},
    {0xCC, 0xCF, "i"},   {0xD0, 0xD0, "d"},    {0xD1, 0xD1, "n"},   {0xD2, 0xD6, "o"},
    {0xD8, 0xD8, "o"},   {0xD9, 0xDC, "u"},    {0xDD, 0xDD, "y"},   {0xDE, 0xDE, "th"},
    {0xDF, 0xDF, "ss"},  {0xE0, 0xE5, "a"},    {0xE6, 0xE6, "ae"},  {0xE7, 0xE7, "c"},
    {0xE8, 0xEB, "e"},   {0xEC, 0xEF, "i"},    {0xF0, 0xF0, "d"},   {0xF1, 0xF1, "n"},
    {0xF2, 0xF6, "o"},   {0xF8, 0xF8, "o"},    {0xF9, 0xFC, "u"},   {0xFD, 0xFD, "y"},
    {0xFE, 0xFE, "th"},  {0xFF, 0xFF, "y"},    {0x100, 0x105, "a"}, {0x106, 0x10D, "c"},
    {0x10E, 0x111, "d"}, {0x112, 0x11B, "e"},  {0x11C, 0x123, "g"}, {0x124, 0x127, "h"},
    {0x128, 0x131, "i"}, {0x132, 0x133, "ij"}, {0x134, 0x135, "j"}, {0x136, 0x138, "k"},
    {0x139, 0x142, "l"}, {0x143, 0x14B, "n"},  {0x14C, 0x151, "o"}, {0x152, 0x153, "oe"},
    {0x154, 0x159, "r"}, {0x15A, 0x161, "s"},  {0x162, 0x167, "t"}, {0x168, 0x173, "u"},
    {0x174, 0x175, "w"}, {0x176, 0x178, "y"},  {0x179, 0x17E, "z"}, {0x17F, 0x17F, "s"},
};

const char* fold(char32_t cp) {
    for (const Fold& f : folds)
        if (cp >= f.first && cp <= f.last) return f.ascii;
    return nullptr;
}

// Splits "---\n<fields>---\n<body>"; no front matter → empty fields, whole body.
std::pair<std::string_view, std::string_view> split_front_matter(std::string_view text) {
    std::size_t size = front_matter_size(text);
    if (size == 0) return {{}, text};
    return {text.substr(fence.size(), size - 2 * fence.size()), text.substr(size)};
}

// The fields in the order the file has them, so rewriting one keeps the others.
using Fields = std::vector<std::pair<std::string, std::string>>;

Fields read_fields(std::string_view block) {
    Fields out;
    std::size_t at = 0;
    while (at < block.size()) {
        std::size_t nl = block.find('\n', at);
        std::string_view line = block.substr(at, nl == std::string_view::npos ? nl : nl - at);
        if (std::size_t colon = line.find(':'); colon != std::string_view::npos) {
            std::string_view value = line.substr(colon + 1);
            while (!value.empty() && value.front() == ' ')
                value.remove_prefix(1);
            out.emplace_back(std::string(line.substr(0, colon)), std::string(value));
        }
        if (nl == std::string_view::npos) break;
        at = nl + 1;
    }
    return out;
}

std::string field(const Fields& fields, std::string_view key) {
    for (const auto& [k, v] : fields)
        if (k == key) return v;
    return {};
}

// Sets `key` (in place, or last); an empty value removes it.
void set_field(Fields& fields, std::string_view key, std::string value) {
    for (auto it = fields.begin(); it != fields.end(); ++it)
        if (it->first == key) {
            if (value.empty())
                fields.erase(it);
            else
                it->second = std::move(value);
            return;
        }
    if (!value.empty()) fields.emplace_back(std::string(key), std::move(value));
}

std::string write_fields(const Fields& fields) {
    std::string out(fence);
    for (const auto& [key, value] : fields)
        out += key + ": " + value + "\n";
    return out + std::string(fence);
}

// Paths as a YAML flow sequence that is also JSON: ["a.py", "b c.md"].
std::string path_list(const std::vector<std::string>& paths) {
    return nlohmann::json(paths).dump();
}

std::optional<std::vector<std::string>> read_path_list(const std::string& value) {
    if (value.empty()) return std::nullopt;
    nlohmann::json parsed = nlohmann::json::parse(value, nullptr, false);
    std::vector<std::string> out;
    if (!parsed.is_array()) return out;
    for (const nlohmann::json& item : parsed)
        if (item.is_string()) out.push_back(item.get<std::string>());
    return out;
}

// Declared steps as one line of JSON, also a YAML flow sequence, like path_list.
std::string step_list(const std::vector<DeclaredStep>& steps) {
    return nlohmann::json(steps).dump();
}

std::vector<DeclaredStep> read_step_list(const std::string& value) {
    std::vector<DeclaredStep> out;
    nlohmann::json parsed = nlohmann::json::parse(value, nullptr, false);
    if (!parsed.is_array()) return out;
    for (const nlohmann::json& item : parsed)
        if (item.is_object())
            if (auto step = item.get<DeclaredStep>(); !step.text.empty())
                out.push_back(std::move(step));
    return out;
}

// Rewrites the front matter with `change`, keeping the body byte for byte. A file whose
// front matter the user removed gets a fresh block.
template <typename Change> std::string with_fields(std::string_view text, Change change) {
    auto [block, body] = split_front_matter(text);
    Fields fields = read_fields(block);
    change(fields);
    return write_fields(fields) + std::string(body);
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

std::string plan_title(std::string_view title) {
    std::string out;
    std::size_t chars = 0;
    bool space = false;
    for (std::size_t at = 0; at < title.size() && chars < max_plan_title_chars;) {
        std::size_t from = at;
        char32_t cp = next_code_point(title, at);
        if (cp < 0x20 || cp == ' ' || (cp >= 0x7F && cp < 0xA0) || cp == 0xFFFD) {
            space = !out.empty();
            continue;
        }
        if (space) {
            out.push_back(' ');
            ++chars;
            space = false;
        }
        out.append(title.substr(from, at - from));
        ++chars;
    }
    return out.empty() ? "Plan" : out;
}

std::string plan_body(std::string_view plan) {
    std::string out(plan);
    std::erase(out, '\0');
    return out;
}

std::string plan_slug(std::string_view title) {
    std::string slug;
    for (std::size_t at = 0; at < title.size();) {
        char32_t cp = next_code_point(title, at);
        std::string letters;
        if (cp < 0x80)
            letters = std::string(1, static_cast<char>(cp));
        else if (const char* ascii = fold(cp))
            letters = ascii;
        for (char c : letters.empty() ? std::string("-") : letters) {
            char lower = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
            bool keep = (lower >= 'a' && lower <= 'z') || (lower >= '0' && lower <= '9');
            if (keep)
                slug.push_back(lower);
            else if (!slug.empty() && slug.back() != '-')
                slug.push_back('-');
        }
    }
    if (slug.size() > 48) slug.resize(48);
    while (!slug.empty() && slug.back() == '-')
        slug.pop_back();
    return slug.empty() ? "plan" : slug;
}

std::string plan_file_path(WallTime presented, std::string_view slug, int attempt) {
    std::time_t seconds = std::chrono::system_clock::to_time_t(presented);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    std::string path = ".rio/plans/" + std::string(stamp) + "-" + std::string(slug);
    if (attempt > 1) path += "-" + std::to_string(attempt);
    return path + ".md";
}

std::string iso_time(WallTime t, bool with_millis) {
    auto since = t.time_since_epoch();
    auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(since).count() % 1000;
    if (millis < 0) millis += 1000;
    std::time_t seconds = std::chrono::system_clock::to_time_t(t);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    char buf[40];
    std::size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
    std::snprintf(buf + n, sizeof buf - n, with_millis ? ".%03lldZ" : "Z",
                  static_cast<long long>(millis));
    return buf;
}

std::optional<long long> parse_iso_time(std::string_view text) {
    std::tm tm{};
    int millis = 0;
    std::string copy(text);
    int consumed = 0;
    if (std::sscanf(copy.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                    &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &consumed) != 6)
        return std::nullopt;
    if (copy[static_cast<std::size_t>(consumed)] == '.')
        std::sscanf(copy.c_str() + consumed, ".%3d", &millis);
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    return static_cast<long long>(timegm(&tm)) * 1000 + millis;
}

std::string render_plan_file(std::string_view title, std::string_view plan, WallTime presented,
                             std::string_view revises, const std::vector<DeclaredStep>& steps) {
    Fields fields{{"status", std::string(to_wire(PlanStatus::presented))},
                  {"presented", iso_time(presented, true)}};
    if (!revises.empty()) fields.emplace_back("revises", std::string(revises));
    if (!steps.empty()) fields.emplace_back("steps", step_list(steps));
    return write_fields(fields) + plan_file_body(title, plan);
}

std::string plan_file_body(std::string_view title, std::string_view plan) {
    std::string out;
    if (!starts_with_title(plan)) out += "# " + std::string(title) + "\n\n";
    out += plan;
    if (!plan.empty() && plan.back() != '\n') out.push_back('\n');
    return out;
}

PlanFileInfo parse_plan_file(std::string_view text) {
    auto [block, body] = split_front_matter(text);
    Fields fields = read_fields(block);
    PlanFileInfo info;
    info.status = field(fields, "status");
    info.presented = field(fields, "presented");
    info.decided = field(fields, "decided");
    info.policy = field(fields, "policy");
    info.approved_in = field(fields, "approved_in");
    info.revises = field(fields, "revises");
    info.touched = read_path_list(field(fields, "touched"));
    info.unplanned = read_path_list(field(fields, "unplanned"));
    for (const auto& [key, value] : fields)
        if (key == "progress")
            info.progress = value;
        else if (key == "checks")
            info.checks = value;
    info.steps = read_step_list(field(fields, "steps"));
    info.title = first_heading(body);
    info.body = std::string(body);
    info.plan = info.body;
    // The receipt comes last and, like the review, is the core's only when the front matter
    // says it wrote one.
    if (!field(fields, "receipt").empty())
        if (std::size_t at = info.plan.rfind(receipt_heading);
            at != std::string::npos && (at == 0 || info.plan[at - 1] == '\n')) {
            info.receipt = info.plan.substr(at);
            info.plan.resize(at);
            while (info.plan.size() >= 2 && info.plan.substr(info.plan.size() - 2) == "\n\n")
                info.plan.pop_back();
        }
    // The review section is the core's only when the front matter says it added one; a
    // plan's own "## Review" heading stays part of the plan.
    if (!field(fields, "comments").empty())
        if (std::size_t at = info.plan.rfind(review_heading);
            at != std::string::npos && (at == 0 || info.plan[at - 1] == '\n')) {
            info.review = info.plan.substr(at);
            info.plan = info.plan.substr(0, at);
            while (info.plan.size() >= 2 && info.plan.substr(info.plan.size() - 2) == "\n\n")
                info.plan.pop_back();
        }
    return info;
}

std::string set_plan_status(std::string_view text, PlanStatus status, WallTime decided,
                            std::string_view policy, std::string_view approved_in) {
    return with_fields(text, [&](Fields& fields) {
        if (field(fields, "presented").empty()) set_field(fields, "presented", iso_time(decided));
        set_field(fields, "status", std::string(to_wire(status)));
        // Presented again (a resumed session): undecided once more.
        set_field(fields, "decided", status == PlanStatus::presented ? "" : iso_time(decided));
        set_field(fields, "policy", std::string(policy));
        if (!approved_in.empty()) set_field(fields, "approved_in", one_line(approved_in));
    });
}

std::string add_plan_review(std::string_view text, std::string_view section, std::size_t comments) {
    std::string out = with_fields(
        text, [&](Fields& fields) { set_field(fields, "comments", std::to_string(comments)); });
    while (!out.empty() && out.back() == '\n')
        out.pop_back();
    return out + "\n\n" + std::string(section);
}

std::string set_plan_open_comments(std::string_view text, std::size_t open) {
    return with_fields(text, [&](Fields& fields) {
        set_field(fields, "open_comments", open ? std::to_string(open) : std::string());
    });
}

std::string set_plan_progress(std::string_view text, std::string_view progress,
                              std::string_view checks) {
    return with_fields(text, [&](Fields& fields) {
        set_field(fields, "progress", std::string(progress));
        set_field(fields, "checks", std::string(checks));
    });
}

std::string set_plan_receipt(std::string_view text, std::string_view section) {
    PlanFileInfo info = parse_plan_file(text);
    std::string out(text);
    if (!info.receipt.empty()) { // the one written before goes
        out.resize(out.size() - info.receipt.size());
        while (!out.empty() && out.back() == '\n')
            out.pop_back();
    }
    out = with_fields(out, [&](Fields& fields) { set_field(fields, "receipt", "yes"); });
    while (!out.empty() && out.back() == '\n')
        out.pop_back();
    return out + "\n\n" + std::string(section);
}

std::string set_plan_outcome(std::string_view text, const std::vector<std::string>& touched,
                             const std::vector<std::string>& unplanned) {
    return with_fields(text, [&](Fields& fields) {
        set_field(fields, "touched", path_list(touched));
        set_field(fields, "unplanned", path_list(unplanned));
    });
}

} // namespace rio
