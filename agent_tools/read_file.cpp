// read_file: a project file with line numbers, paged and capped: the open buffer's text when
// the core has one, else the editor's when a frontend offers it (host/editor_reader), else
// the disk's. Runs in every mode without asking.
#include "agent_tools/tool_table.hpp"
#include "host/files/document_io.hpp"
#include "host/files/project_file.hpp"
#include "host/server/editor_reader.hpp"
#include "protocol/params.hpp"
#include "text/utf8.hpp"

#include <algorithm>
#include <cstdio>

namespace rio {
namespace {

constexpr std::size_t default_read_lines = 2000;
constexpr std::size_t max_line_chars = 2000;
constexpr std::size_t max_read_bytes = std::size_t{256} * 1024;

// Cuts at a character boundary so the result stays valid UTF-8.
std::string_view clip(std::string_view line, std::size_t max) {
    if (line.size() <= max) return line;
    while (max > 0 && !is_char_boundary(line, max))
        --max;
    return line.substr(0, max);
}

struct Lines {
    std::size_t first = 1;
    std::size_t limit = default_read_lines;
    std::size_t max_bytes = max_read_bytes;
};

ToolReport numbered(const RunTool& run, const std::string& rel, std::string_view all, Lines lines) {
    if (all.empty()) return tool_ok(run, rel + " is empty.");
    std::string out;
    std::size_t number = 0, at = 0, last_shown = 0;
    bool clipped_bytes = false;
    while (at < all.size()) {
        std::size_t nl = all.find('\n', at);
        std::size_t end = nl == std::string_view::npos ? all.size() : nl;
        ++number;
        if (number >= lines.first && number < lines.first + lines.limit && !clipped_bytes) {
            std::string_view line = all.substr(at, end - at);
            if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
            char prefix[24];
            std::snprintf(prefix, sizeof prefix, "%6zu\t", number);
            out += prefix;
            out += clip(line, max_line_chars);
            if (line.size() > max_line_chars) out += " […line cut]";
            out += "\n";
            last_shown = number;
            clipped_bytes = out.size() > lines.max_bytes;
        }
        at = end + 1;
    }
    if (lines.first > number)
        return tool_error(run, rel + " has only " + std::to_string(number) + " lines; offset " +
                                   std::to_string(lines.first) + " is past the end.");
    if (last_shown < number)
        out += "(showing lines " + std::to_string(lines.first) + "-" + std::to_string(last_shown) +
               " of " + std::to_string(number) + "; read more with offset " +
               std::to_string(last_shown + 1) + (clipped_bytes ? " and a smaller limit" : "") +
               ")\n";
    return tool_ok(run, out);
}

ToolReport from_core(const Workspace& workspace, const RunTool& run, const ProjectPath& path,
                     Lines lines) {
    auto text = live_text(workspace, path);
    if (!text) return tool_error(run, text.error().message);
    return numbered(run, path.rel, *text, lines);
}

ToolCancel run_read_file(ToolContext& context, const RunTool& run, const ToolReportFn& report) {
    const nlohmann::json& input = run.call.input;
    auto path = tool_path(context.workspace, context.dirs, require_string(input, "path", "input"));
    if (!path) {
        report(tool_error(run, path.error().message));
        return nullptr;
    }
    Lines lines{std::max<std::uint64_t>(1, optional_count(input, "offset", "input").value_or(1)),
                std::max<std::uint64_t>(
                    1, optional_count(input, "limit", "input").value_or(default_read_lines)),
                std::min(max_read_bytes, context.output_cap)};
    // A core buffer (the desktop's) is the newest text there is. Without one, an editor that
    // rio-acp speaks for may hold unsaved text; it is asked, and the disk read if it has none.
    EditorReader* editor = context.editor;
    const Workspace& workspace = context.workspace;
    if (!editor || !editor->active() || workspace.buffers.count(path->rel) || !workspace.root) {
        report(from_core(workspace, run, *path, lines));
        return nullptr;
    }
    std::uint64_t request =
        editor->read((*workspace.root / path->rel).lexically_normal().string(),
                     [&workspace, run, report, at = *path, lines](std::optional<std::string> text) {
                         report(text ? numbered(run, at.rel, *text, lines)
                                     : from_core(workspace, run, at, lines));
                     });
    return [editor, request] { editor->cancel(request); };
}

// "read `a.py`", "read `a.py` lines 40–79": what a cleared read was.
std::string read_as(const Json& in) {
    std::string path = in.is_object() ? in.value("path", "") : "";
    if (path.empty()) return {};
    std::string words = "read `" + path + "`";
    auto number = [&](const char* key) -> std::uint64_t {
        return in.contains(key) && in[key].is_number_unsigned() ? in[key].get<std::uint64_t>() : 0;
    };
    if (std::uint64_t offset = number("offset"), limit = number("limit"); offset || limit) {
        std::uint64_t first = offset ? offset : 1;
        words += " lines " + std::to_string(first) + "–" +
                 (limit ? std::to_string(first + limit - 1) : std::string("end"));
    }
    return words;
}

} // namespace

AgentTool read_file_tool() {
    return {
        ToolSpec{
            std::string(tool_words::read_file.name), ToolKind::read,
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
                {"path"}),
            read_as},
        run_read_file};
}

} // namespace rio
