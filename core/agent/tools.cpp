#include "core/agent/tools.hpp"

namespace rio {
namespace {

using Json = nlohmann::json;

Json object_schema(Json properties, std::vector<std::string> required) {
    return Json{{"type", "object"},
                {"properties", std::move(properties)},
                {"required", std::move(required)},
                {"additionalProperties", false}};
}

Json string_prop(const char* description) {
    return Json{{"type", "string"}, {"description", description}};
}

std::vector<ToolSpec> make_tools() {
    std::vector<ToolSpec> tools;
    tools.push_back(
        {"list_dir", ToolKind::read,
         "List the entries of a folder in the project. Folders end with '/'. Use it to find "
         "your way around before reading files.",
         object_schema({{"path", string_prop("Project-relative folder; \".\" is the project "
                                             "root.")}},
                       {"path"})});
    tools.push_back(
        {"read_file", ToolKind::read,
         "Read a text file of the project, with line numbers. Shows the editor's unsaved text "
         "when the file is open. Long files are cut off; read further with offset and limit. "
         "Read a file before you change it.",
         object_schema(
             {{"path", string_prop("Project-relative path of the file.")},
              {"offset", Json{{"type", "integer"},
                              {"minimum", 1},
                              {"description", "First line to show (1-based). Default 1."}}},
              {"limit", Json{{"type", "integer"},
                             {"minimum", 1},
                             {"description", "How many lines to show. Default 2000."}}}},
             {"path"})});
    tools.push_back(
        {"search", ToolKind::read,
         "Search the project's text files for a string (or a regular expression with "
         "regex: true). Respects .gitignore, skips binary files, and returns at most 200 "
         "matches as path:line: text. Use it to find where something is defined or used.",
         object_schema(
             {{"pattern", string_prop("The text to find (a literal unless regex is true).")},
              {"path", string_prop("Project-relative folder or file to search in. Default: "
                                   "the whole project.")},
              {"glob", string_prop("Only files whose path matches this glob, e.g. \"*.cpp\" or "
                                   "\"src/**/*.h\".")},
              {"regex", Json{{"type", "boolean"},
                             {"description", "Treat pattern as an RE2 regular expression."}}},
              {"ignore_case",
               Json{{"type", "boolean"}, {"description", "Match letters in either case."}}}},
             {"pattern"})});
    tools.push_back(
        {"edit_file", ToolKind::edit,
         "Replace one exact occurrence of old_string with new_string in a file. old_string must "
         "match the file exactly once (include enough surrounding lines to make it unique) and "
         "must come from the file as you last read it. The user may review the edit first.",
         object_schema({{"path", string_prop("Project-relative path of the file to change.")},
                        {"old_string", string_prop("The exact text to replace.")},
                        {"new_string", string_prop("The text to put in its place.")}},
                       {"path", "old_string", "new_string"})});
    tools.push_back(
        {"create_file", ToolKind::edit,
         "Create a new file with the given content. Refuses a file that already exists (use "
         "edit_file for those). The user may review it first.",
         object_schema({{"path", string_prop("Project-relative path of the new file.")},
                        {"content", string_prop("The whole content of the file.")}},
                       {"path", "content"})});
    tools.push_back(
        {"run_command", ToolKind::command,
         "Run a program in the project, without a shell: argv[0] is the program, the rest are "
         "its arguments (no pipes, redirections or globbing). Use it to build, test and verify. "
         "The user approves each command unless it is on their allow-list. Output is capped.",
         object_schema(
             {{"argv", Json{{"type", "array"},
                            {"items", {{"type", "string"}}},
                            {"minItems", 1},
                            {"description", "Program and arguments, e.g. [\"make\", \"test\"]."}}},
              {"cwd", string_prop("Project-relative working folder. Default: the project root.")},
              {"timeout_s", Json{{"type", "integer"},
                                 {"minimum", 1},
                                 {"maximum", 600},
                                 {"description", "Seconds before the command is killed. "
                                                 "Default 120, at most 600."}}}},
             {"argv"})});
    tools.push_back(
        {"present_plan", ToolKind::plan,
         "Present a plan to the user for approval. Write it in Markdown for a person to read: "
         "what you understood, the changes file by file, how you will verify them, and what "
         "you are not doing. Nothing may change until the user approves; they may edit the "
         "plan, approve it, or reject it with feedback.",
         object_schema({{"title", string_prop("A short title for the plan.")},
                        {"plan", string_prop("The plan, in Markdown.")}},
                       {"title", "plan"})});
    return tools;
}

} // namespace

std::string_view to_string(Mode mode) {
    return mode == Mode::plan ? "plan" : "build";
}

std::optional<Mode> mode_from_string(std::string_view name) {
    if (name == "plan") return Mode::plan;
    if (name == "build") return Mode::build;
    return std::nullopt;
}

std::string_view to_string(ToolKind kind) {
    switch (kind) {
    case ToolKind::read:
        return "read";
    case ToolKind::edit:
        return "edit";
    case ToolKind::command:
        return "command";
    case ToolKind::plan:
        return "plan";
    }
    return "read";
}

const std::vector<ToolSpec>& all_tools() {
    static const std::vector<ToolSpec> tools = make_tools(); // immutable data, built once
    return tools;
}

const ToolSpec* find_tool(std::string_view name) {
    for (const ToolSpec& spec : all_tools())
        if (spec.name == name) return &spec;
    return nullptr;
}

std::vector<ToolSpec> offered_tools(Mode mode) {
    std::vector<ToolSpec> offered;
    for (const ToolSpec& spec : all_tools())
        if (mode == Mode::build || spec.kind == ToolKind::read || spec.kind == ToolKind::plan)
            offered.push_back(spec);
    return offered;
}

nlohmann::json to_json(const ToolSpec& spec) {
    return nlohmann::json{{"name", spec.name},
                          {"kind", to_string(spec.kind)},
                          {"description", spec.description},
                          {"input_schema", spec.input_schema}};
}

} // namespace rio
