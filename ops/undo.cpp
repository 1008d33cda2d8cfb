#include "ops/undo.hpp"

#include "core/buffer_events.hpp"
#include "host/files/project_files.hpp"
#include "ops/buffer_disk.hpp"
#include "ops/project_access.hpp"

#include <algorithm>

namespace rio {
namespace {

std::string listed(const std::vector<std::string>& names) {
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i)
        out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
    return out;
}

// Why undoing this file would lose someone's work, or "" when it would not.
Result<std::string> changed_since(const Workspace& workspace, const FileCheckpoint& checkpoint,
                                  const ProjectPath& path) {
    if (auto open = workspace.buffers.find(path.rel);
        open != workspace.buffers.end() && open->second.dirty())
        return std::string("has unsaved edits in rio");
    auto bytes = read_project_file(path);
    if (!bytes && bytes.error().code == ErrorCode::not_found) return std::string("was deleted");
    if (!bytes) return bytes.error();
    if (fingerprint(*bytes) != checkpoint.written) return std::string("changed");
    return std::string();
}

// The buffer shows the restored file, with the unsaved edits it had before the turn's
// write (which saved them) as unsaved edits again.
void restore_buffer(Document& doc, const FilePrior& prior, const Emit& emit) {
    auto decoded = decode_text(prior.bytes, prior.path);
    if (!decoded) {
        // Bytes rio cannot show (no longer UTF-8): the buffer keeps a text and hears that the
        // disk differs; saving it would be a conflict.
        if (prior.buffer) replace_buffer_text(doc, *prior.buffer, false, emit);
        emit_event(emit, buffer_changed(doc, "disk_changed"));
        return;
    }
    Document file;
    file.path = doc.path;
    set_file_text(file, decoded->text);
    doc.head = std::move(file.head);
    doc.encoding = decoded->encoding;
    doc.disk_fingerprint = fingerprint(prior.bytes);
    replace_buffer_text(doc, prior.buffer.value_or(file.text), !prior.buffer, emit);
    if (!prior.buffer) emit_event(emit, buffer_changed(doc, "saved"));
}

// Puts one file back; `touched` gathers the paths fs.changed names.
Status restore(Workspace& workspace, const FilePrior& prior, const ProjectPath& path,
               const Emit& emit, std::vector<std::string>& touched) {
    auto open = workspace.buffers.find(path.rel);
    if (!prior.existed) {
        if (Status s = remove_project_file(path); !s && s.error().code != ErrorCode::not_found)
            return s;
        if (open != workspace.buffers.end()) {
            BufferChangedEvent closed = buffer_changed(open->second, "closed");
            workspace.buffers.erase(open);
            emit_event(emit, closed);
        }
        touched.push_back(path.rel);
        for (auto folder = prior.made_folders.rbegin(); folder != prior.made_folders.rend();
             ++folder) {
            auto at = project_path(workspace, *folder);
            // Left in place when something else is in it now.
            if (!at || !remove_project_folder(*at)) break;
            touched.push_back(*folder);
        }
        return Ok{};
    }
    if (Status s = write_project_file(path, prior.bytes); !s) return s;
    if (auto mode = project_file_mode(path); mode && *mode != prior.mode)
        if (Status s = set_project_file_mode(path, prior.mode); !s) return s;
    if (open != workspace.buffers.end()) restore_buffer(open->second, prior, emit);
    touched.push_back(path.rel);
    return Ok{};
}

} // namespace

Result<UndoneEvent> undo_turn(Workspace& workspace, Checkpoints& checkpoints, const Emit& emit,
                              std::uint64_t turn, const std::optional<std::string>& path) {
    std::optional<std::string> rel;
    if (path) {
        auto confined = project_path(workspace, *path);
        if (!confined) return confined.error();
        rel = confined->rel;
    }
    auto selected = checkpoints.select(turn, rel);
    if (!selected) return selected.error();

    struct Target {
        FilePrior prior;
        ProjectPath path;
    };
    std::vector<Target> targets;
    std::vector<std::string> changed;
    for (const FileCheckpoint* checkpoint : *selected) {
        auto at = project_path(workspace, checkpoint->prior.path);
        if (!at) return at.error();
        auto why = changed_since(workspace, *checkpoint, *at);
        if (!why) return why.error();
        if (!why->empty()) changed.push_back(checkpoint->prior.path + " " + *why);
        targets.push_back(Target{checkpoint->prior, std::move(*at)});
    }
    if (!changed.empty())
        return make_error(ErrorCode::conflict,
                          "nothing was undone: since the agent wrote them in turn " +
                              std::to_string(turn) + ", " + listed(changed));

    UndoneEvent undone{turn, {}, {}};
    std::vector<std::string> touched;
    Status failed = Ok{};
    // Newest first: a folder made for an earlier file of the turn empties last.
    for (auto target = targets.rbegin(); target != targets.rend(); ++target) {
        failed = restore(workspace, target->prior, target->path, emit, touched);
        if (!failed) break;
        (target->prior.existed ? undone.restored : undone.deleted).push_back(target->path.rel);
        checkpoints.forget(turn, target->path.rel);
    }
    std::reverse(undone.restored.begin(), undone.restored.end());
    std::reverse(undone.deleted.begin(), undone.deleted.end());
    if (!touched.empty()) emit_event(emit, FsChangedEvent{touched});
    if (!undone.restored.empty() || !undone.deleted.empty()) {
        emit_event(emit, undone);
        emit_event(emit, checkpoints.state());
    }
    if (!failed) {
        std::vector<std::string> done = undone.restored;
        done.insert(done.end(), undone.deleted.begin(), undone.deleted.end());
        return make_error(failed.error().code,
                          failed.error().message + (done.empty()
                                                        ? "; nothing was undone"
                                                        : "; undone before that: " + listed(done)));
    }
    return undone;
}

Result<std::vector<RewindFile>> rewind_files(const Workspace& workspace,
                                             const Checkpoints& checkpoints, std::uint64_t from) {
    std::vector<RewindFile> files;
    for (const Checkpoints::Span& span : checkpoints.since(from)) {
        auto at = project_path(workspace, span.prior.path);
        if (!at) return at.error();
        auto why = changed_since(workspace, FileCheckpoint{span.prior, span.written}, *at);
        if (!why) return why.error();
        files.push_back(
            RewindFile{at->rel, span.prior.existed ? RewindAction::restore : RewindAction::remove,
                       why->empty() ? std::nullopt : std::optional(*why)});
    }
    return files;
}

Result<std::vector<RewindFile>> put_back_since(Workspace& workspace, Checkpoints& checkpoints,
                                               const Emit& emit, std::uint64_t from) {
    auto files = rewind_files(workspace, checkpoints, from);
    if (!files) return files.error();
    std::vector<Checkpoints::Span> spans = checkpoints.since(from);
    std::vector<std::string> touched, done;
    Status failed = Ok{};
    for (auto span = spans.rbegin(); span != spans.rend(); ++span) {
        auto at = project_path(workspace, span->prior.path);
        if (!at) {
            failed = at.error();
            break;
        }
        failed = restore(workspace, span->prior, *at, emit, touched);
        if (!failed) break;
        done.push_back(at->rel);
    }
    if (!touched.empty()) emit_event(emit, FsChangedEvent{touched});
    if (!failed)
        return make_error(failed.error().code,
                          failed.error().message +
                              (done.empty() ? "; nothing was put back, and the conversation "
                                              "was not rewound"
                                            : "; put back before that: " + listed(done) +
                                                  "; the conversation was not rewound"));
    checkpoints.forget_since(from);
    emit_event(emit, checkpoints.state());
    return files;
}

} // namespace rio
