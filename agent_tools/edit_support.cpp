#include "agent_tools/edit_support.hpp"

#include "agent_tools/edit_checks.hpp"
#include "core/buffer_events.hpp"
#include "core/diff.hpp"
#include "core/unified_diff.hpp"
#include "host/files/document_io.hpp"
#include "host/files/project_files.hpp"

#include <algorithm>

namespace rio {
namespace {

// The start of the line `at` is on.
std::size_t line_start(std::string_view text, std::size_t at) {
    if (at == 0) return 0;
    std::size_t newline = text.rfind('\n', at - 1);
    return newline == std::string_view::npos ? 0 : newline + 1;
}

// Just past the end of the line `at` is on (its '\n' included).
std::size_t line_end(std::string_view text, std::size_t at) {
    std::size_t newline = text.find('\n', at);
    return newline == std::string_view::npos ? text.size() : newline + 1;
}

// The lines an edit touches and three lines around them, before and after it: their diff is
// the edit's +/− and its unified diff, without diffing the whole file.
void describe_edit(std::string_view before, const TextEdit& edit, const std::string& path,
                   WrittenEdit& out) {
    constexpr std::size_t context = 3;
    std::size_t touched_from = line_start(before, edit.start);
    std::size_t touched_to = line_end(before, edit.end);
    std::size_t from = touched_from, to = touched_to;
    for (std::size_t i = 0; i < context && from > 0; ++i)
        from = line_start(before, from - 1);
    for (std::size_t i = 0; i < context && to < before.size(); ++i)
        to = line_end(before, to);
    auto replaced = [&](std::size_t a, std::size_t b) {
        std::string after(before.substr(a, edit.start - a));
        after += edit.text;
        after += before.substr(edit.end, b - edit.end);
        return after;
    };
    LineDiff lines = diff_lines(before.substr(touched_from, touched_to - touched_from),
                                replaced(touched_from, touched_to));
    out.added = lines.added;
    out.removed = lines.removed;
    auto first_line =
        static_cast<std::size_t>(std::count(before.begin(), before.begin() + from, '\n'));
    out.diff =
        unified_diff(before.substr(from, to - from), replaced(from, to), path, context, first_line);
}

} // namespace

ProposalBody edit_proposal(const ProjectPath& path, std::string_view before,
                           std::string_view after) {
    return EditProposal{path.rel, unified_diff(before, after, path.rel), std::string(before),
                        std::string(after)};
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

void announce_edit(ToolContext& context, const RunTool& run, const ProjectPath& path,
                   WrittenEdit written) {
    context.checkpoints.wrote(run.turn, path.rel, written.fingerprint);
    emit_event(context.emit,
               EditAppliedEvent{run.turn, run.call.id, path.rel, written.created, written.added,
                                written.removed, std::move(written.diff)});
    context.changes.keep(AppliedChange{run.turn, run.call.id, path.rel, written.created,
                                       std::move(written.before), std::move(written.after)});
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
    WrittenEdit written;
    describe_edit(doc.text, edit, path.rel, written);
    written.before = doc.text;
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
    written.after = doc.text;
    written.fingerprint = doc.disk_fingerprint;
    announce_edit(context, run, path, std::move(written));
    return Ok{};
}

ToolCancel report_written(ToolContext& context, const RunTool& run, const std::string& rel,
                          ToolReport result, const ToolReportFn& report) {
    if (context.checks) context.checks->expect(run.turn, rel);
    report(std::move(result));
    return nullptr;
}

} // namespace rio
