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
    auto listing = list_project_dir(*path);
    if (!listing) return tool_error(run, listing.error().message);
    const std::vector<DirEntry>& entries = listing->entries;
    std::string out;
    if (entries.empty() && listing->left_out.empty()) return tool_ok(run, path->rel + " is empty.");
    std::size_t shown = 0;
    for (const DirEntry& e : entries) {
        if (shown++ == max_listed) {
            out += "(" + std::to_string(entries.size() - max_listed) + " more entries not shown)\n";
            break;
        }
        out += e.name + (e.type == EntryType::dir ? "/" : "") + "\n";
    }
    if (!listing->left_out.empty()) {
        out += "(left out, because their names are not valid UTF-8 and no tool can name them:";
        for (std::size_t i = 0; i < listing->left_out.size() && i < 10; ++i)
            out += " " + listing->left_out[i];
        if (listing->left_out.size() > 10) out += " …";
        out += ")\n";
    }
    return tool_ok(
        run, capped_output(std::move(out), context.output_cap, "list a subfolder to see the rest"));
}

std::string listed_as(const nlohmann::json& input) {
    std::string path = input.is_object() ? input.value("path", "") : "";
    return "listed `" + (path.empty() ? "." : path) + "`";
}

} // namespace

AgentTool list_dir_tool() {
    return {ToolSpec{
                std::string(tool_words::list_dir.name), ToolKind::read,
                "List the entries of a folder in the project. Folders end with '/'. Use it to find "
                "your way around before reading files.",
                object_schema({{"path", string_prop("Project-relative folder; \".\" is the project "
                                                    "root.")}},
                              {"path"}),
                listed_as},
            sync_tool(list_dir)};
}

} // namespace rio
