#include "core/params.hpp"
#include "host/files.hpp"
#include "ops/ops.hpp"
#include "ops/project_access.hpp"

namespace rio {
namespace {

Json summary(const Document& doc) {
    return Json{{"path", doc.path},
                {"version", doc.version},
                {"dirty", doc.dirty()},
                {"encoding", to_string(doc.encoding)},
                {"eol", to_string(detect_eol(doc.text))}};
}

Json with_text(const Document& doc) {
    Json state = summary(doc);
    state["text"] = doc.text;
    return state;
}

Json change(const Document& doc, const char* reason) {
    return Json{
        {"path", doc.path}, {"reason", reason}, {"version", doc.version}, {"dirty", doc.dirty()}};
}

Result<Document> load(const ProjectPath& path) {
    auto bytes = read_file(path.real, path.rel);
    if (!bytes) return bytes.error();
    auto decoded = decode_text(*bytes, path.rel);
    if (!decoded) return decoded.error();
    Document doc;
    doc.path = path.rel;
    doc.text = std::move(decoded->text);
    doc.encoding = decoded->encoding;
    doc.disk_fingerprint = fingerprint(*bytes);
    return doc;
}

// An edit is the whole text unless a range is given; a stale base version is a conflict.
Result<TextEdit> requested_edit(const Document& doc, const Json& params) {
    if (auto base = optional_count(params, "version"); base && *base != doc.version)
        return make_error(ErrorCode::conflict, doc.path + " is at version " +
                                                   std::to_string(doc.version) + ", not " +
                                                   std::to_string(*base));
    auto start = optional_count(params, "start");
    auto end = optional_count(params, "end");
    if (start.has_value() != end.has_value())
        return make_error(ErrorCode::bad_request, "give both start and end, or neither");
    TextEdit edit{start.value_or(0), end.value_or(doc.text.size()), require_string(params, "text")};
    return edit;
}

// Refuses to overwrite bytes someone else wrote since we last read or wrote the file.
Status disk_unchanged(const Document& doc, const ProjectPath& path) {
    auto bytes = read_file(path.real, path.rel);
    if (!bytes) return bytes.error().code == ErrorCode::not_found ? Status(Ok{}) : bytes.error();
    if (fingerprint(*bytes) != doc.disk_fingerprint)
        return make_error(ErrorCode::conflict, doc.path +
                                                   " changed on disk since rio read it; pass "
                                                   "force: true to overwrite it");
    return Ok{};
}

} // namespace

void register_buffer_ops(Dispatcher& dispatcher, OpContext& context) {
    Workspace& ws = context.workspace;

    dispatcher.add("buffer.open", [&ws, &context](const Call& call) -> Result<Json> {
        auto path = project_path(ws, require_string(call.params, "path"));
        if (!path) return path.error();
        if (auto it = ws.buffers.find(path->rel); it != ws.buffers.end())
            return with_text(it->second);
        auto doc = load(*path);
        if (!doc) return doc.error();
        Document& opened = ws.buffers.emplace(path->rel, std::move(*doc)).first->second;
        context.emit("buffer.changed", change(opened, "opened"));
        return with_text(opened);
    });

    dispatcher.add("buffer.text", [&ws](const Call& call) -> Result<Json> {
        auto buffer = open_buffer(ws, require_string(call.params, "path"));
        if (!buffer) return buffer.error();
        return with_text(*buffer->doc);
    });

    dispatcher.add("buffer.list", [&ws](const Call&) -> Result<Json> {
        if (!ws.root) return make_error(ErrorCode::no_project, "no project is open");
        Json list = Json::array();
        for (const auto& [path, doc] : ws.buffers)
            list.push_back(summary(doc));
        return Json{{"buffers", std::move(list)}};
    });

    dispatcher.add("buffer.replace", [&ws, &context](const Call& call) -> Result<Json> {
        auto buffer = open_buffer(ws, require_string(call.params, "path"));
        if (!buffer) return buffer.error();
        Document& doc = *buffer->doc;
        auto edit = requested_edit(doc, call.params);
        if (!edit) return edit.error();
        if (Status s = apply_edit(doc, *edit); !s) return s.error();
        Json event = change(doc, "edited");
        event["start"] = edit->start;
        event["end"] = edit->end;
        event["text"] = edit->text;
        context.emit("buffer.changed", std::move(event));
        return summary(doc);
    });

    dispatcher.add("buffer.save", [&ws, &context](const Call& call) -> Result<Json> {
        auto buffer = open_buffer(ws, require_string(call.params, "path"));
        if (!buffer) return buffer.error();
        Document& doc = *buffer->doc;
        if (!optional_bool(call.params, "force", false))
            if (Status s = disk_unchanged(doc, buffer->path); !s) return s.error();
        std::string bytes = encode_text(doc.text, doc.encoding);
        if (Status s = write_file_atomic(buffer->path.real, bytes, doc.path); !s) return s.error();
        doc.disk_fingerprint = fingerprint(bytes);
        doc.saved_version = doc.version;
        context.emit("buffer.changed", change(doc, "saved"));
        context.emit("fs.changed", Json{{"paths", {doc.path}}});
        return summary(doc);
    });

    dispatcher.add("buffer.close", [&ws, &context](const Call& call) -> Result<Json> {
        auto buffer = open_buffer(ws, require_string(call.params, "path"));
        if (!buffer) return buffer.error();
        Document& doc = *buffer->doc;
        if (doc.dirty() && !optional_bool(call.params, "discard", false))
            return make_error(ErrorCode::conflict,
                              doc.path + " has unsaved changes; save it or pass discard: true");
        Json event = change(doc, "closed");
        ws.buffers.erase(doc.path);
        context.emit("buffer.changed", std::move(event));
        return Json::object();
    });
}

} // namespace rio
