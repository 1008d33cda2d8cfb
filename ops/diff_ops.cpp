#include "core/diff.hpp"
#include "protocol/params.hpp"
#include "host/document_io.hpp"
#include "ops/ops.hpp"
#include "ops/project_access.hpp"

namespace rio {
namespace {

// A side of a comparison: literal text, or {path, source?: "buffer"|"disk"} where the
// default is the open buffer if there is one, else the file on disk.
Result<std::string> side_text(Workspace& ws, const Json& params, const char* key) {
    auto it = params.find(key);
    if (it == params.end())
        return make_error(ErrorCode::bad_request, std::string("params.") + key + " is required");
    if (it->is_string()) return it->get<std::string>();
    if (!it->is_object())
        return make_error(ErrorCode::bad_request,
                          std::string("params.") + key + ": expected a string or {path, source?}");

    std::string source = optional_string(*it, "source").value_or("auto");
    if (source != "auto" && source != "buffer" && source != "disk")
        return make_error(ErrorCode::bad_request,
                          std::string("params.") + key + ".source: expected buffer or disk");
    auto path = project_path(ws, require_string(*it, "path"));
    if (!path) return path.error();
    if (source == "auto") return live_text(ws, *path);
    if (source == "buffer") {
        auto open = ws.buffers.find(path->rel);
        if (open == ws.buffers.end())
            return make_error(ErrorCode::no_buffer, "no open buffer for " + path->rel);
        return open->second.text;
    }
    auto doc = load_document(*path);
    if (!doc) return doc.error();
    return std::move(doc->text);
}

} // namespace

void register_diff_ops(Dispatcher& dispatcher, OpContext& context) {
    dispatcher.add("diff.lines", [&context](const Call& call) -> Result<Json> {
        auto a = side_text(context.workspace, call.params, "a");
        if (!a) return a.error();
        auto b = side_text(context.workspace, call.params, "b");
        if (!b) return b.error();
        DiffOptions options;
        options.max_cost = optional_count(call.params, "max_cost").value_or(0);
        auto a_lines = split_lines(*a);
        auto b_lines = split_lines(*b);
        LineDiff diff = diff_lines(a_lines, b_lines, options);
        Json hunks = Json::array();
        for (const DiffHunk& h : diff.hunks)
            hunks.push_back(Json{{"a_start", h.a_start},
                                 {"a_count", h.a_count},
                                 {"b_start", h.b_start},
                                 {"b_count", h.b_count}});
        return Json{{"hunks", std::move(hunks)}, {"added", diff.added},
                    {"removed", diff.removed},   {"exact", diff.exact},
                    {"a_lines", a_lines.size()}, {"b_lines", b_lines.size()}};
    });
}

} // namespace rio
