// The read tools: list_dir, read_file, search. They run at once in every mode.
#include "protocol/params.hpp"
#include "host/document_io.hpp"
#include "host/project_files.hpp"
#include "host/search.hpp"
#include "agent_tools/project_file.hpp"
#include "agent_tools/tool_context.hpp"

#include <cstdio>

namespace rio {
namespace {

constexpr std::size_t default_read_lines = 2000;
constexpr std::size_t max_line_chars = 2000;
constexpr std::size_t max_read_bytes = std::size_t{256} * 1024;
constexpr std::size_t max_listed = 1000;

// Cuts at a character boundary so the result stays valid UTF-8.
std::string_view clip(std::string_view line, std::size_t max) {
    if (line.size() <= max) return line;
    while (max > 0 && !is_char_boundary(line, max))
        --max;
    return line.substr(0, max);
}

} // namespace

ToolReport list_dir_tool(ToolContext& context, const RunTool& run) {
    auto path =
        tool_path(context.workspace, context.dirs, require_string(run.call.input, "path", "input"));
    if (!path) return tool_error(run, path.error().message);
    auto entries = list_project_dir(*path);
    if (!entries) return tool_error(run, entries.error().message);
    if (entries->empty()) return tool_ok(run, path->rel + " is empty.");
    std::string out;
    std::size_t shown = 0;
    for (const DirEntry& e : *entries) {
        if (shown++ == max_listed) {
            out +=
                "(" + std::to_string(entries->size() - max_listed) + " more entries not shown)\n";
            break;
        }
        out += e.name + (e.type == "dir" ? "/" : "") + "\n";
    }
    return tool_ok(run, out);
}

ToolReport read_file_tool(ToolContext& context, const RunTool& run) {
    const nlohmann::json& input = run.call.input;
    auto path = tool_path(context.workspace, context.dirs, require_string(input, "path", "input"));
    if (!path) return tool_error(run, path.error().message);
    auto text = live_text(context.workspace, *path);
    if (!text) return tool_error(run, text.error().message);
    std::size_t first =
        std::max<std::uint64_t>(1, optional_count(input, "offset", "input").value_or(1));
    std::size_t limit = std::max<std::uint64_t>(
        1, optional_count(input, "limit", "input").value_or(default_read_lines));
    if (text->empty()) return tool_ok(run, path->rel + " is empty.");

    std::string out;
    std::size_t number = 0, at = 0, last_shown = 0;
    bool clipped_bytes = false;
    std::string_view all = *text;
    while (at < all.size()) {
        std::size_t nl = all.find('\n', at);
        std::size_t end = nl == std::string_view::npos ? all.size() : nl;
        ++number;
        if (number >= first && number < first + limit && !clipped_bytes) {
            std::string_view line = all.substr(at, end - at);
            if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
            char prefix[24];
            std::snprintf(prefix, sizeof prefix, "%6zu\t", number);
            out += prefix;
            out += clip(line, max_line_chars);
            if (line.size() > max_line_chars) out += " […line cut]";
            out += "\n";
            last_shown = number;
            clipped_bytes = out.size() > max_read_bytes;
        }
        at = end + 1;
    }
    if (first > number)
        return tool_error(run, path->rel + " has only " + std::to_string(number) +
                                   " lines; offset " + std::to_string(first) + " is past the end.");
    if (last_shown < number)
        out += "(showing lines " + std::to_string(first) + "-" + std::to_string(last_shown) +
               " of " + std::to_string(number) + "; read more with offset " +
               std::to_string(last_shown + 1) + ")\n";
    return tool_ok(run, out);
}

ToolReport search_tool(ToolContext& context, const RunTool& run) {
    const nlohmann::json& input = run.call.input;
    if (!context.workspace.root)
        return tool_error(run, "No project is open, so there are no files to search.");
    SearchQuery query;
    query.pattern = require_string(input, "pattern", "input");
    query.path = optional_string(input, "path", "input").value_or(".");
    query.glob = optional_string(input, "glob", "input").value_or("");
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
    return tool_ok(run, format_search_result(query, *result));
}

} // namespace rio
