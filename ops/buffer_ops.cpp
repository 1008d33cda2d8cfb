// The buffer ops: open documents the core holds for every client, edited through the
// protocol and saved atomically.
#include "core/buffer_events.hpp"
#include "core/front_matter.hpp"
#include "host/files/document_io.hpp"
#include "host/files/project_files.hpp"
#include "ops/buffer_disk.hpp"
#include "ops/ops.hpp"
#include "ops/project_access.hpp"

namespace rio {
namespace {

// An edit is the whole text unless a range is given; a stale base version is a conflict.
Result<TextEdit> requested_edit(const Document& doc, const BufferReplaceParams& p) {
    if (p.version && *p.version != doc.version)
        return make_error(ErrorCode::conflict, doc.path + " is at version " +
                                                   std::to_string(doc.version) + ", not " +
                                                   std::to_string(*p.version));
    if (p.start.has_value() != p.end.has_value())
        return make_error(ErrorCode::bad_request, "give both start and end, or neither");
    return TextEdit{p.start.value_or(0), p.end.value_or(doc.text.size()), p.text};
}

// What a file written by a client means to every client: the tree changed, and a plan may
// have (a power-granting file's change follows from fs.changed: ops/trust_ops).
void announce_written(OpContext& context, const Document& doc) {
    emit_event(context.emit, FsChangedEvent{{doc.path}});
    // The plan view shows the plan as filed: a saved edit of it is news there too.
    if (keeps_front_matter(doc.path)) emit_event(context.emit, PlansChangedEvent{doc.path});
}

// The new file's document: empty, or the text (front matter included) and encoding of `from`.
Result<Document> new_document(Workspace& ws, const ProjectPath& path,
                              const std::optional<std::string>& from) {
    Document doc;
    doc.path = path.rel;
    if (!from) return doc;
    auto source = open_buffer(ws, *from);
    if (!source) return source.error();
    set_file_text(doc, source->doc->file_text());
    doc.encoding = source->doc->encoding;
    return doc;
}

// buffer.create: a new file (Save As when `from` is given), written, then open.
Result<BufferState> create_buffer(OpContext& context, const BufferCreateParams& p) {
    Workspace& ws = context.workspace;
    auto path = project_path(ws, p.path);
    if (!path) return path.error();
    if (path->rel.empty() || path->rel == ".")
        return make_error(ErrorCode::bad_request, "give the new file's name");
    auto open = ws.buffers.find(path->rel);
    std::error_code ec;
    const bool exists = open != ws.buffers.end() || std::filesystem::exists(path->real, ec);
    if (exists && !p.overwrite.value_or(false))
        return make_error(ErrorCode::conflict, path->rel + " already exists");
    if (open != ws.buffers.end() && open->second.dirty())
        return make_error(ErrorCode::conflict,
                          path->rel + " is open with unsaved changes; save or close it first");
    auto doc = new_document(ws, *path, p.from);
    if (!doc) return doc.error();
    auto folder = project_path(ws, path->rel.substr(0, path->rel.rfind('/') + 1));
    if (!folder) return folder.error();
    if (Status s = make_project_folders(*folder); !s) return s.error();
    if (Status s = save_document(*doc, *path); !s) return s.error();
    if (open != ws.buffers.end()) {
        // Already open and clean: it shows what is on disk now.
        Document& shown = open->second;
        shown.head = doc->head;
        shown.encoding = doc->encoding;
        shown.disk_fingerprint = doc->disk_fingerprint;
        replace_buffer_text(shown, doc->text, true, context.emit);
        emit_event(context.emit, buffer_changed(shown, "saved"));
        announce_written(context, shown);
        return buffer_state(shown, true);
    }
    Document& opened = ws.buffers.emplace(path->rel, std::move(*doc)).first->second;
    emit_event(context.emit, buffer_changed(opened, "opened"));
    announce_written(context, opened);
    return buffer_state(opened, true);
}

} // namespace

void register_buffer_ops(Dispatcher& dispatcher, OpContext& context) {
    Workspace& ws = context.workspace;

    dispatcher.on<BufferOpenParams>(
        [&ws, &context](const BufferOpenParams& p) -> Result<BufferState> {
            auto path = project_path(ws, p.path);
            if (!path) return path.error();
            if (auto it = ws.buffers.find(path->rel); it != ws.buffers.end())
                return buffer_state(it->second, true);
            auto doc = load_document(*path);
            if (!doc) return doc.error();
            Document& opened = ws.buffers.emplace(path->rel, std::move(*doc)).first->second;
            emit_event(context.emit, buffer_changed(opened, "opened"));
            return buffer_state(opened, true);
        });

    dispatcher.on<BufferTextParams>([&ws](const BufferTextParams& p) -> Result<BufferState> {
        auto buffer = open_buffer(ws, p.path);
        if (!buffer) return buffer.error();
        return buffer_state(*buffer->doc, true);
    });

    dispatcher.on<BufferListParams>([&ws](const BufferListParams&) -> Result<BufferListResult> {
        if (!ws.root) return make_error(ErrorCode::no_project, "no project is open");
        BufferListResult list;
        for (const auto& [path, doc] : ws.buffers)
            list.buffers.push_back(buffer_state(doc, false));
        return list;
    });

    dispatcher.on<BufferReplaceParams>(
        [&ws, &context](const BufferReplaceParams& p) -> Result<BufferState> {
            auto buffer = open_buffer(ws, p.path);
            if (!buffer) return buffer.error();
            Document& doc = *buffer->doc;
            auto edit = requested_edit(doc, p);
            if (!edit) return edit.error();
            if (Status s = apply_edit(doc, *edit); !s) return s.error();
            emit_event(context.emit, buffer_edited(doc, *edit));
            return buffer_state(doc, false);
        });

    dispatcher.on<BufferSaveParams>(
        [&ws, &context](const BufferSaveParams& p) -> Result<BufferState> {
            auto buffer = open_buffer(ws, p.path);
            if (!buffer) return buffer.error();
            Document& doc = *buffer->doc;
            if (!p.force.value_or(false))
                if (Status s = disk_unchanged(doc, buffer->path); !s) return s.error();
            if (Status s = save_document(doc, buffer->path); !s) return s.error();
            emit_event(context.emit, buffer_changed(doc, "saved"));
            announce_written(context, doc);
            return buffer_state(doc, false);
        });

    dispatcher.on<BufferCreateParams>(
        [&context](const BufferCreateParams& p) { return create_buffer(context, p); });

    dispatcher.on<BufferReloadParams>(
        [&ws, &context](const BufferReloadParams& p) -> Result<BufferState> {
            auto buffer = open_buffer(ws, p.path);
            if (!buffer) return buffer.error();
            if (Status s = reload_buffer(*buffer->doc, buffer->path, context.emit); !s)
                return s.error();
            return buffer_state(*buffer->doc, true);
        });

    dispatcher.on<BufferCloseParams>([&ws, &context](const BufferCloseParams& p) -> Result<Empty> {
        auto buffer = open_buffer(ws, p.path);
        if (!buffer) return buffer.error();
        Document& doc = *buffer->doc;
        if (doc.dirty() && !p.discard.value_or(false))
            return make_error(ErrorCode::conflict,
                              doc.path + " has unsaved changes; save it or pass discard: true");
        BufferChangedEvent event = buffer_changed(doc, "closed");
        ws.buffers.erase(doc.path);
        emit_event(context.emit, event);
        return Empty{};
    });
}

} // namespace rio
