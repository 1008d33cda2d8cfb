// list_dir: the entries of a project folder, folders marked. Runs at once in every mode.
#include "agent_tools/tool_table.hpp"
#include "host/files/project_file.hpp"
#include "host/files/project_files.hpp"
#include "protocol/params.hpp"

namespace rio {
namespace {

constexpr std::size_t max_listed = 1000;

ToolReport list_dir(ToolContext& context, const RunTool& run) {
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
    return tool_ok(
        run, capped_output(std::move(out), context.output_cap, "list a subfolder to see the rest"));
}

} // namespace

AgentTool list_dir_tool() {
    return {ToolSpec{
                "list_dir", ToolKind::read,
                "List the entries of a folder in the project. Folders end with '/'. Use it to find "
                "your way around before reading files.",
                object_schema({{"path", string_prop("Project-relative folder; \".\" is the project "
                                                    "root.")}},
                              {"path"})},
            sync_tool(list_dir)};
}

} // namespace rio
