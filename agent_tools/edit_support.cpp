#include "agent_tools/edit_support.hpp"

#include "core/buffer_events.hpp"
#include "core/diff.hpp"
#include "core/unified_diff.hpp"
#include "host/document_io.hpp"
#include "host/project_files.hpp"

#include <algorithm>

namespace rio {
namespace {

// The lines an edit touches, before and after it: the diff of those is the edit's +/−,
// without diffing the whole file.
LineDiff edit_lines(std::string_view before, const TextEdit& edit) {
    std::size_t from = before.rfind('\n', edit.start == 0 ? 0 : edit.start - 1);
    from = edit.start == 0 || from == std::string_view::npos ? 0 : from + 1;
    std::size_t to = before.find('\n', edit.end);
    to = to == std::string_view::npos ? before.size() : to + 1;
    std::string after(before.substr(from, edit.start - from));
    after += edit.text;
    after += before.substr(edit.end, to - edit.end);
    return diff_lines(before.substr(from, to - from), after);
}

} // namespace

nlohmann::json edit_proposal(const ProjectPath& path, std::string_view before,
                             std::string_view after) {
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

Status keep_prior(ToolContext& context, const RunTool& run, const ProjectPath& path,
                  std::vector<std::string> made_folders) {
    if (context.checkpoints.holds(run.turn, path.rel)) return Ok{};
    FilePrior prior;
    prior.path = path.rel;
    prior.made_folders = std::move(made_folders);
    auto bytes = read_project_file(path);
    if (bytes) {
        auto mode = project_file_mode(path);
        if (!mode) return mode.error();
        prior.bytes = std::move(*bytes);
        prior.mode = *mode;
    } else if (bytes.error().code == ErrorCode::not_found) {
        prior.existed = false;
    } else {
        return make_error(bytes.error().code,
                          "no copy could be kept for undo: " + bytes.error().message);
    }
    if (auto open = context.workspace.buffers.find(path.rel);
        open != context.workspace.buffers.end() && open->second.dirty())
        prior.buffer = open->second.text;
    context.checkpoints.keep(run.turn, std::move(prior));
    return Ok{};
}

void announce_edit(ToolContext& context, const RunTool& run, const ProjectPath& path, bool created,
                   std::uint64_t added, std::uint64_t removed, std::uint64_t fingerprint) {
    context.checkpoints.wrote(run.turn, path.rel, fingerprint);
    emit_event(context.emit,
               EditAppliedEvent{run.turn, run.call.id, path.rel, created, added, removed});
    emit_event(context.emit, context.checkpoints.state());
}

Status write_edit(ToolContext& context, const RunTool& run, const ProjectPath& path,
                  const TextEdit& edit) {
    auto open = context.workspace.buffers.find(path.rel);
    Document loaded;
    if (open == context.workspace.buffers.end()) {
        auto doc = load_document(path);
        if (!doc) return doc.error();
        loaded = std::move(*doc);
    }
    Document& doc = open != context.workspace.buffers.end() ? open->second : loaded;
    if (edit.start > edit.end || edit.end > doc.text.size())
        return make_error(ErrorCode::internal, "the edit does not fit " + path.rel);
    LineDiff lines = edit_lines(doc.text, edit);
    bool first = !context.checkpoints.holds(run.turn, path.rel);
    if (Status s = keep_prior(context, run, path); !s) return s;
    auto failed = [&](Status s) {
        if (first) context.checkpoints.retract(run.turn, path.rel);
        return s;
    };
    if (Status s = apply_edit(doc, edit); !s) return failed(s);
    if (open != context.workspace.buffers.end()) emit_event(context.emit, buffer_edited(doc, edit));
    if (Status s = save_document(doc, path); !s) return failed(s);
    if (open != context.workspace.buffers.end())
        emit_event(context.emit, buffer_changed(doc, "saved"));
    emit_event(context.emit, FsChangedEvent{{path.rel}});
    announce_edit(context, run, path, false, lines.added, lines.removed, doc.disk_fingerprint);
    return Ok{};
}

} // namespace rio
