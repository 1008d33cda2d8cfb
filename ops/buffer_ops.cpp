// The buffer ops: open documents the core holds for every client, edited through the
// protocol and saved atomically.
#include "core/buffer_events.hpp"
#include "core/front_matter.hpp"
#include "host/document_io.hpp"
#include "host/trust_store.hpp"
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
            emit_event(context.emit, FsChangedEvent{{doc.path}});
            // The plan view shows the plan as filed: a saved edit of it is news there too.
            if (keeps_front_matter(doc.path)) emit_event(context.emit, PlansChangedEvent{doc.path});
            for (const char* power : power_granting_files)
                if (doc.path == power) announce_trust(context);
            return buffer_state(doc, false);
        });

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
