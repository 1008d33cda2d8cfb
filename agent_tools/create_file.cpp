// create_file: prepare proposes the new file (refusing one that exists); apply creates its
// folders and writes it, after approval or under auto-accept.
#include "agent_tools/edit_support.hpp"
#include "agent_tools/tool_table.hpp"
#include "core/diff.hpp"
#include "core/unified_diff.hpp"
#include "host/files/document_io.hpp"
#include "host/files/project_file.hpp"
#include "host/files/project_files.hpp"
#include "protocol/params.hpp"

namespace rio {
namespace {

// The folders on the way to `path` that do not exist yet, outermost first: undoing the
// creation removes them again.
std::vector<std::string> missing_folders(const std::filesystem::path& root,
                                         const ProjectPath& path) {
    std::vector<std::string> missing;
    for (std::size_t slash = path.rel.find('/'); slash != std::string::npos;
         slash = path.rel.find('/', slash + 1)) {
        std::string folder = path.rel.substr(0, slash);
        std::error_code ec;
        if (!missing.empty() || !std::filesystem::exists(root / folder, ec))
            missing.push_back(std::move(folder));
    }
    return missing;
}

ToolReport create_file(ToolContext& context, const RunTool& run, std::string& written) {
    const nlohmann::json& input = run.call.input;
    auto path =
        writable_tool_path(context.workspace, context.dirs, require_string(input, "path", "input"));
    if (!path) return tool_error(run, path.error().message);
    std::string content = require_string(input, "content", "input");
    std::error_code ec;
    if (std::filesystem::exists(path->real, ec) || context.workspace.buffers.count(path->rel))
        return tool_error(run, path->rel + " already exists; use edit_file to change it.");
    if (run.stage == ToolStage::prepare) return tool_ok(run, {}, edit_proposal(*path, "", content));

    auto folder =
        tool_path(context.workspace, context.dirs, path->rel.substr(0, path->rel.rfind('/') + 1));
    if (!folder) return tool_error(run, folder.error().message);
    bool first = !context.checkpoints.holds(run.turn, path->rel);
    if (Status s = keep_prior(context, run, *path, missing_folders(*context.workspace.root, *path));
        !s)
        return tool_error(run, "The file was not created: " + s.error().message);
    auto failed = [&](const std::string& what, const Error& e) {
        if (first) context.checkpoints.retract(run.turn, path->rel);
        return tool_error(run, what + e.message);
    };
    if (Status s = make_project_folders(*folder); !s)
        return failed("Could not create the folder for " + path->rel + ": ", s.error());
    Document doc;
    doc.path = path->rel;
    doc.text = content;
    if (Status s = save_document(doc, *path); !s)
        return failed("The file could not be written: ", s.error());
    emit_event(context.emit, FsChangedEvent{{path->rel}});
    announce_edit(context, run, *path,
                  WrittenEdit{true, diff_lines("", content).added, 0,
                              unified_diff("", content, path->rel), "", content,
                              doc.disk_fingerprint});
    written = path->rel;
    return tool_ok(run, "Created " + path->rel + " (" + line_count(content) + ").");
}

} // namespace

AgentTool create_file_tool() {
    return {ToolSpec{
                std::string(tool_words::create_file.name), ToolKind::edit,
                "Create a new file with the given content. Refuses a file that already exists (use "
                "edit_file for those). The user may review it first.",
                object_schema({{"path", string_prop("Project-relative path of the new file.")},
                               {"content", string_prop("The whole content of the file.")}},
                              {"path", "content"})},
            [](ToolContext& context, const RunTool& run, const ToolReportFn& report) -> ToolCancel {
                std::string written;
                ToolReport result = create_file(context, run, written);
                if (written.empty()) {
                    report(std::move(result));
                    return nullptr;
                }
                return report_written(context, run, written, std::move(result), report);
            }};
}

} // namespace rio
