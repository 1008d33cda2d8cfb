// edit_file: prepare locates old_string (exactly once) and proposes the change; apply
// re-locates it in the live text and writes, after approval or under auto-accept.
#include "agent_tools/edit_support.hpp"
#include "agent_tools/tool_table.hpp"
#include "core/agent/edit_match.hpp"
#include "host/files/document_io.hpp"
#include "host/files/project_file.hpp"
#include "protocol/params.hpp"

namespace rio {
namespace {

ToolReport edit_file(ToolContext& context, const RunTool& run, std::string& written) {
    const nlohmann::json& input = run.call.input;
    auto path =
        writable_tool_path(context.workspace, context.dirs, require_string(input, "path", "input"));
    if (!path) return tool_error(run, path.error().message);
    std::string old_string = require_string(input, "old_string", "input");
    std::string new_string = require_string(input, "new_string", "input");
    auto text = live_text(context.workspace, *path);
    if (!text) {
        if (text.error().code == ErrorCode::not_found)
            return tool_error(run, path->rel + " does not exist; use create_file for a new file.");
        return tool_error(run, text.error().message);
    }
    auto edit = locate_edit(*text, old_string, new_string, path->rel);
    if (run.stage == ToolStage::prepare) {
        if (!edit)
            return tool_error(run, "The edit was not proposed: " + edit.error().message + ".");
        std::string after = *text;
        after.replace(edit->start, edit->end - edit->start, edit->text);
        return tool_ok(run, {}, edit_proposal(*path, *text, after));
    }
    if (!edit)
        return tool_error(run, path->rel + " changed since the edit was proposed (" +
                                   edit.error().message + "); the edit was not applied.");
    if (Status s = write_edit(context, run, *path, *edit); !s)
        return tool_error(run, "The edit could not be written: " + s.error().message);
    written = path->rel;
    return tool_ok(run, "Edited " + path->rel + ": replaced " + line_count(old_string) + " with " +
                            line_count(new_string) + ".");
}

} // namespace

AgentTool edit_file_tool() {
    return {
        ToolSpec{
            std::string(tool_words::edit_file.name), ToolKind::edit,
            "Replace one exact occurrence of old_string with new_string in a file. old_string must "
            "match the file exactly once (include enough surrounding lines to make it unique) and "
            "must come from the file as you last read it. The user may review the edit first.",
            object_schema({{"path", string_prop("Project-relative path of the file to change.")},
                           {"old_string", string_prop("The exact text to replace.")},
                           {"new_string", string_prop("The text to put in its place.")}},
                          {"path", "old_string", "new_string"})},
        [](ToolContext& context, const RunTool& run, const ToolReportFn& report) -> ToolCancel {
            std::string written;
            ToolReport result = edit_file(context, run, written);
            if (written.empty()) {
                report(std::move(result));
                return nullptr;
            }
            return report_written(context, run, written, std::move(result), report);
        }};
}

} // namespace rio
