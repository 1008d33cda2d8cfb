// diff.lines: rio's Myers diff between two texts or project files, for the compare view.
#include "core/diff_result.hpp"
#include "host/files/document_io.hpp"
#include "ops/ops.hpp"
#include "ops/project_access.hpp"

namespace rio {
namespace {

// A side of a comparison: literal text, or {path, source?: "buffer"|"disk"} where the
// default is the open buffer if there is one, else the file on disk.
Result<std::string> side_text(Workspace& ws, const Json& side, const char* key) {
    if (side.is_string()) return side.get<std::string>();
    if (!side.is_object())
        return make_error(ErrorCode::bad_request,
                          std::string("params.") + key + ": expected a string or {path, source?}");
    std::string source = optional_string(side, "source").value_or("auto");
    if (source != "auto" && source != "buffer" && source != "disk")
        return make_error(ErrorCode::bad_request,
                          std::string("params.") + key + ".source: expected buffer or disk");
    auto path = project_path(ws, require_string(side, "path"));
    if (!path) return path.error();
    if (source == "auto") return live_text(ws, *path);
    if (source == "buffer") {
        auto open = ws.buffers.find(path->rel);
        if (open == ws.buffers.end())
            return make_error(ErrorCode::no_buffer, "no open buffer for " + path->rel);
        return open->second.file_text();
    }
    auto doc = load_document(*path);
    if (!doc) return doc.error();
    return doc->file_text();
}

} // namespace

void register_diff_ops(Dispatcher& dispatcher, OpContext& context) {
    dispatcher.on<DiffLinesParams>([&context](const DiffLinesParams& p) -> Result<DiffLinesResult> {
        auto a = side_text(context.workspace, p.a, "a");
        if (!a) return a.error();
        auto b = side_text(context.workspace, p.b, "b");
        if (!b) return b.error();
        return diff_result(*a, *b, p.max_cost.value_or(0), p.words.value_or(false));
    });
}

} // namespace rio
