// The edit tools, edit_file and create_file: prepare builds the proposal (a unified diff and
// both texts) without touching anything; apply writes, after approval or under auto-accept.
#include "core/agent/edit_match.hpp"
#include "core/buffer_events.hpp"
#include "protocol/params.hpp"
#include "core/unified_diff.hpp"
#include "host/document_io.hpp"
#include "host/project_files.hpp"
#include "agent_tools/project_file.hpp"
#include "agent_tools/tool_context.hpp"

namespace rio {
namespace {

nlohmann::json proposal(const ProjectPath& path, std::string_view before, std::string_view after) {
    return {{"path", path.rel},
            {"diff", unified_diff(before, after, path.rel)},
            {"before", before},
            {"after", after}};
}

std::string line_count(std::string_view text) {
    std::size_t lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
    if (!text.empty() && text.back() != '\n') ++lines;
    return std::to_string(lines) + (lines == 1 ? " line" : " lines");
}

// Writes through the open buffer when there is one, so every editor sees the change, and
// saves it: the model edited the text it read, which is the buffer's.
Status write_edit(ToolContext& context, const ProjectPath& path, const TextEdit& edit) {
    auto open = context.workspace.buffers.find(path.rel);
    Document loaded;
    if (open == context.workspace.buffers.end()) {
        auto doc = load_document(path);
        if (!doc) return doc.error();
        loaded = std::move(*doc);
    }
    Document& doc = open != context.workspace.buffers.end() ? open->second : loaded;
    if (Status s = apply_edit(doc, edit); !s) return s;
    if (open != context.workspace.buffers.end())
        context.emit("buffer.changed", buffer_edited(doc, edit));
    if (Status s = save_document(doc, path); !s) return s;
    if (open != context.workspace.buffers.end())
        context.emit("buffer.changed", buffer_changed(doc, "saved"));
    context.emit("fs.changed", {{"paths", {path.rel}}});
    return Ok{};
}

} // namespace

ToolReport edit_file_tool(ToolContext& context, const RunTool& run) {
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
        return tool_ok(run, {}, proposal(*path, *text, after));
    }
    if (!edit)
        return tool_error(run, path->rel + " changed since the edit was proposed (" +
                                   edit.error().message + "); the edit was not applied.");
    if (Status s = write_edit(context, *path, *edit); !s)
        return tool_error(run, "The edit could not be written: " + s.error().message);
    return tool_ok(run, "Edited " + path->rel + ": replaced " + line_count(old_string) + " with " +
                            line_count(new_string) + ".");
}

ToolReport create_file_tool(ToolContext& context, const RunTool& run) {
    const nlohmann::json& input = run.call.input;
    auto path =
        writable_tool_path(context.workspace, context.dirs, require_string(input, "path", "input"));
    if (!path) return tool_error(run, path.error().message);
    std::string content = require_string(input, "content", "input");
    std::error_code ec;
    if (std::filesystem::exists(path->real, ec) || context.workspace.buffers.count(path->rel))
        return tool_error(run, path->rel + " already exists; use edit_file to change it.");
    if (run.stage == ToolStage::prepare) return tool_ok(run, {}, proposal(*path, "", content));

    auto folder =
        tool_path(context.workspace, context.dirs, path->rel.substr(0, path->rel.rfind('/') + 1));
    if (!folder) return tool_error(run, folder.error().message);
    if (Status s = make_project_folders(*folder); !s)
        return tool_error(run, "Could not create the folder for " + path->rel + ": " +
                                   s.error().message);
    Document doc;
    doc.path = path->rel;
    doc.text = content;
    if (Status s = save_document(doc, *path); !s)
        return tool_error(run, "The file could not be written: " + s.error().message);
    context.emit("fs.changed", {{"paths", {path->rel}}});
    return tool_ok(run, "Created " + path->rel + " (" + line_count(content) + ").");
}

} // namespace rio
