#include "agent_tools/declared_steps.hpp"

#include "text/one_line.hpp"
#include "text/utf8.hpp"

#include <string>

namespace rio {
namespace {

using Json = nlohmann::json;

Error bad(const std::string& where, const std::string& what) {
    return make_error(ErrorCode::bad_request, where + " " + what);
}

bool has_control(const std::string& s) {
    for (char c : s)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) return true;
    return false;
}

// A list of strings, each non-empty and without control characters when `plain`.
std::optional<std::vector<std::string>> strings(const Json& j, bool plain) {
    if (!j.is_array()) return std::nullopt;
    std::vector<std::string> out;
    for (const Json& item : j) {
        if (!item.is_string()) return std::nullopt;
        std::string s = item.get<std::string>();
        if (plain && (s.empty() || has_control(s))) return std::nullopt;
        out.push_back(std::move(s));
    }
    return out;
}

Result<StepCheck> read_check(const Json& j, const std::string& where) {
    if (!j.is_object()) return bad(where, "must be an object {argv, cwd?, writes?}");
    for (const auto& [key, value] : j.items())
        if (key != "argv" && key != "cwd" && key != "writes")
            return bad(where, "has an unknown field \"" + one_line(to_valid_utf8(key)) +
                                  "\"; a check has argv, cwd and writes");
    StepCheck check;
    auto argv = j.find("argv");
    auto words = argv == j.end() ? std::nullopt : strings(*argv, false);
    if (!words || words->empty() || words->front().empty())
        return bad(where + ".argv", "must be a non-empty list of strings");
    check.argv = std::move(*words);
    if (auto cwd = j.find("cwd"); cwd != j.end() && !cwd->is_null()) {
        if (!cwd->is_string() || has_control(cwd->get<std::string>()))
            return bad(where + ".cwd", "must be a string: a folder of the project");
        check.cwd = cwd->get<std::string>();
    }
    if (auto writes = j.find("writes"); writes != j.end() && !writes->is_null()) {
        if (!writes->is_boolean()) return bad(where + ".writes", "must be true or false");
        check.writes = writes->get<bool>();
    }
    return check;
}

Result<DeclaredStep> read_step(const Json& j, const std::string& where) {
    if (!j.is_object()) return bad(where, "must be an object {text, files?, check?}");
    for (const auto& [key, value] : j.items())
        if (key != "text" && key != "files" && key != "check")
            return bad(where, "has an unknown field \"" + one_line(to_valid_utf8(key)) +
                                  "\"; a step has text, files and check");
    DeclaredStep step;
    auto text = j.find("text");
    if (text != j.end() && text->is_string())
        step.text = one_line(to_valid_utf8(text->get<std::string>()));
    if (step.text.empty()) return bad(where + ".text", "must be a non-empty string");
    if (auto files = j.find("files"); files != j.end() && !files->is_null()) {
        auto paths = strings(*files, true);
        if (!paths)
            return bad(where + ".files", "must be a list of project paths or globs (strings)");
        step.files = std::move(*paths);
    }
    if (auto check = j.find("check"); check != j.end() && !check->is_null()) {
        auto read = read_check(*check, where + ".check");
        if (!read) return read.error();
        step.check = std::move(*read);
    }
    return step;
}

} // namespace

Result<std::vector<DeclaredStep>> read_declared_steps(const Json& input) {
    std::vector<DeclaredStep> out;
    auto steps = input.find("steps");
    if (steps == input.end() || steps->is_null()) return out;
    if (!steps->is_array()) return bad("steps", "must be a list of objects {text, files?, check?}");
    if (steps->size() > max_declared_steps)
        return bad("steps", "has " + std::to_string(steps->size()) + " items; a plan may declare " +
                                "at most " + std::to_string(max_declared_steps));
    for (std::size_t i = 0; i < steps->size(); ++i) {
        auto step = read_step((*steps)[i], "steps[" + std::to_string(i) + "]");
        if (!step) return step.error();
        out.push_back(std::move(*step));
    }
    return out;
}

// Short: the schema rides in every request, and the tool's words say what steps are for.
Json declared_steps_schema() {
    Json strings = {{"type", "array"}, {"items", {{"type", "string"}}}};
    Json argv = strings;
    argv["minItems"] = 1;
    Json check = {
        {"type", "object"},
        {"description", "A command that proves the step; writes: true if it writes to "
                        "the project."},
        {"properties",
         {{"argv", argv}, {"cwd", {{"type", "string"}}}, {"writes", {{"type", "boolean"}}}}},
        {"required", {"argv"}},
        {"additionalProperties", false}};
    Json files = strings;
    files["description"] = "Project paths or globs the step may change.";
    Json step = {
        {"type", "object"},
        {"properties", {{"text", {{"type", "string"}}}, {"files", files}, {"check", check}}},
        {"required", {"text"}},
        {"additionalProperties", false}};
    return Json{{"type", "array"},
                {"description", "The changes, in order: the checklist you report progress on."},
                {"items", step}};
}

} // namespace rio
