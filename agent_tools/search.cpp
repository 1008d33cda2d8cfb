// search: project-wide text search (host/search), open buffers searched instead of their
// files; rio's own folders left out. Runs at once in every mode.
#include "host/search/search.hpp"

#include "agent_tools/tool_table.hpp"
#include "host/files/project_file.hpp"
#include "protocol/params.hpp"

namespace rio {
namespace {

ToolReport search(ToolContext& context, const RunTool& run) {
    const nlohmann::json& input = run.call.input;
    if (!context.workspace.root)
        return tool_error(run, "No project is open, so there are no files to search.");
    SearchQuery query;
    query.pattern = require_string(input, "pattern", "input");
    query.path = optional_string(input, "path", "input").value_or(".");
    query.globs = optional_strings(input, "glob", "input");
    query.regex = optional_bool(input, "regex", false, "input");
    query.ignore_case = optional_bool(input, "ignore_case", false, "input");
    std::map<std::string, std::string, std::less<>> open_texts;
    for (const auto& [rel, doc] : context.workspace.buffers)
        open_texts.emplace(rel, doc.text);
    if (auto scope = tool_path(context.workspace, context.dirs, query.path); !scope)
        return tool_error(run, scope.error().message);
    auto result = search_project(*context.workspace.root, query, open_texts);
    if (!result) return tool_error(run, result.error().message);
    // rio's own folders may lie inside the project (a project that is the home folder); a
    // symlinked file is judged by what it points to.
    std::erase_if(result->matches, [&](const SearchMatch& m) {
        std::error_code ec;
        auto real = std::filesystem::weakly_canonical(*context.workspace.root / m.path, ec);
        return ec || in_rio_folders(real, context.dirs);
    });
    return tool_ok(run, capped_output(format_search_result(query, *result), context.output_cap,
                                      "narrow the pattern, the path or the glob to see the rest"));
}

} // namespace

AgentTool search_tool() {
    return {
        ToolSpec{
            std::string(tool_words::search.name), ToolKind::read,
            "Search the project's text files for a string (or a regular expression with "
            "regex: true). Respects .gitignore, skips binary files, and returns at most 200 "
            "matches as path:line: text. Use it to find where something is defined or used.",
            object_schema(
                {{"pattern", string_prop("The text to find (a literal unless regex is true).")},
                 {"path", string_prop("Project-relative folder or file to search in. Default: "
                                      "the whole project.")},
                 {"glob", Json{{"anyOf", Json::array({Json{{"type", "string"}},
                                                      Json{{"type", "array"},
                                                           {"items", Json{{"type", "string"}}}}})},
                               {"description",
                                "Only files matching this glob, as rg -g takes it: \"*.{ts,tsx}\", "
                                "\"src/**/*.h\", \"!*_test.go\" to leave out; an array for several "
                                "(the later wins where two match)."}}},
                 {"regex", Json{{"type", "boolean"},
                                {"description", "Treat pattern as an RE2 regular expression."}}},
                 {"ignore_case",
                  Json{{"type", "boolean"}, {"description", "Match letters in either case."}}}},
                {"pattern"})},
        sync_tool(search)};
}

} // namespace rio
