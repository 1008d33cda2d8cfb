#include "ops/buffer_disk.hpp"

#include "core/buffer_events.hpp"
#include "host/files/project_files.hpp"

namespace rio {
namespace {

void disk_changed(const Document& doc, bool deleted, const Emit& emit) {
    BufferChangedEvent event = buffer_changed(doc, "disk_changed");
    if (deleted) event.deleted = true;
    emit_event(emit, event);
}

// The buffer becomes the file's bytes, decoded: text, front matter kept apart, encoding.
void take_file(Document& doc, const DecodedText& decoded, std::string_view bytes,
               const Emit& emit) {
    Document file;
    file.path = doc.path;
    set_file_text(file, decoded.text);
    doc.head = std::move(file.head);
    doc.encoding = decoded.encoding;
    doc.disk_fingerprint = fingerprint(bytes);
    replace_buffer_text(doc, file.text, true, emit);
    emit_event(emit, buffer_changed(doc, "reloaded"));
}

} // namespace

void replace_buffer_text(Document& doc, std::string_view text, bool saved, const Emit& emit) {
    TextEdit edit = smallest_edit(doc.text, text);
    bool changes = edit.start != edit.end || !edit.text.empty();
    // Cannot fail: the range comes from the text itself, on its character boundaries, and
    // `text` was decoded or held by a buffer, so it is UTF-8.
    if (changes && !apply_edit(doc, edit)) return;
    if (saved) mark_saved(doc);
    if (changes) emit_event(emit, buffer_edited(doc, edit));
}

void follow_disk(Document& doc, const ProjectPath& path, const Emit& emit) {
    auto bytes = read_project_file(path);
    if (!bytes) {
        if (bytes.error().code == ErrorCode::not_found) disk_changed(doc, true, emit);
        return; // unreadable for now (a symlink swapped in, say): the buffer stays as it is
    }
    if (fingerprint(*bytes) == doc.disk_fingerprint) return;
    auto decoded = decode_text(*bytes, path.rel);
    if (doc.dirty() || !decoded) {
        disk_changed(doc, false, emit);
        return;
    }
    take_file(doc, *decoded, *bytes, emit);
}

Status reload_buffer(Document& doc, const ProjectPath& path, const Emit& emit) {
    auto bytes = read_project_file(path);
    if (!bytes) return bytes.error();
    auto decoded = decode_text(*bytes, path.rel);
    if (!decoded) return decoded.error();
    take_file(doc, *decoded, *bytes, emit);
    return Ok{};
}

} // namespace rio
