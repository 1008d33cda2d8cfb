#include "core/buffer_events.hpp"
#include "protocol/params.hpp"
#include "host/document_io.hpp"
#include "host/trust_store.hpp"
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

} // namespace

void register_buffer_ops(Dispatcher& dispatcher, OpContext& context) {
    Workspace& ws = context.workspace;

    dispatcher.add("buffer.open", [&ws, &context](const Call& call) -> Result<Json> {
        auto path = project_path(ws, require_string(call.params, "path"));
        if (!path) return path.error();
        if (auto it = ws.buffers.find(path->rel); it != ws.buffers.end())
            return with_text(it->second);
        auto doc = load_document(*path);
        if (!doc) return doc.error();
        Document& opened = ws.buffers.emplace(path->rel, std::move(*doc)).first->second;
        context.emit("buffer.changed", buffer_changed(opened, "opened"));
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
        context.emit("buffer.changed", buffer_edited(doc, *edit));
        return summary(doc);
    });

    dispatcher.add("buffer.save", [&ws, &context](const Call& call) -> Result<Json> {
        auto buffer = open_buffer(ws, require_string(call.params, "path"));
        if (!buffer) return buffer.error();
        Document& doc = *buffer->doc;
        if (!optional_bool(call.params, "force", false))
            if (Status s = disk_unchanged(doc, buffer->path); !s) return s.error();
        if (Status s = save_document(doc, buffer->path); !s) return s.error();
        context.emit("buffer.changed", buffer_changed(doc, "saved"));
        context.emit("fs.changed", Json{{"paths", {doc.path}}});
        for (const char* power : power_granting_files)
            if (doc.path == power) context.emit("project.trust", trust_json(context));
        return summary(doc);
    });

    dispatcher.add("buffer.close", [&ws, &context](const Call& call) -> Result<Json> {
        auto buffer = open_buffer(ws, require_string(call.params, "path"));
        if (!buffer) return buffer.error();
        Document& doc = *buffer->doc;
        if (doc.dirty() && !optional_bool(call.params, "discard", false))
            return make_error(ErrorCode::conflict,
                              doc.path + " has unsaved changes; save it or pass discard: true");
        Json event = buffer_changed(doc, "closed");
        ws.buffers.erase(doc.path);
        context.emit("buffer.changed", std::move(event));
        return Json::object();
    });
}

} // namespace rio
