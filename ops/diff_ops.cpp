// diff.lines: rio's Myers diff between two texts or project files, for the compare view. The
// diff runs on a thread of its own (decision 0049): two texts of megabytes never hold up the
// other clients, and its caps (core/diff_result) bound what it costs.
#include "core/diff_result.hpp"
#include "host/files/document_io.hpp"
#include "ops/git_head.hpp"
#include "ops/loop_jobs.hpp"
#include "ops/ops.hpp"
#include "ops/project_access.hpp"

#include <memory>

namespace rio {
namespace {

// A side of a comparison: literal text, or {path, source?: "buffer"|"disk"|"head"} where the
// default is the open buffer if there is one, else the file on disk; HEAD's copy of a file it
// does not have is empty (the compare view of a new file).
Result<std::string> side_text(Workspace& ws, const Json& side, const char* key) {
    if (side.is_string()) return side.get<std::string>();
    if (!side.is_object())
        return make_error(ErrorCode::bad_request,
                          std::string("params.") + key + ": expected a string or {path, source?}");
    const std::optional<DiffSource> source =
        from_wire<DiffSource>(optional_string(side, "source").value_or("auto"));
    if (!source)
        return make_error(ErrorCode::bad_request,
                          std::string("params.") + key +
                              ".source: expected auto, buffer, disk or head");
    auto path = project_path(ws, require_string(side, "path"));
    if (!path) return path.error();
    if (source == DiffSource::automatic) return live_text(ws, *path);
    if (source == DiffSource::head) {
        auto head = head_text(*ws.root, *path);
        if (!head) return head.error();
        return head->value_or("");
    }
    if (source == DiffSource::buffer) {
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
    // Two at once, each holding its texts and the diff's memory.
    auto jobs = context.io ? std::make_shared<LoopJobs>(*context.io, 2, 16) : nullptr;
    dispatcher.on_async<DiffLinesParams>(
        [&context, jobs](const DiffLinesParams& p,
                         std::function<void(Result<DiffLinesResult>)> reply) {
            auto a = side_text(context.workspace, p.a, "a");
            if (!a) return reply(a.error());
            auto b = side_text(context.workspace, p.b, "b");
            if (!b) return reply(b.error());
            if (!jobs)
                return reply(diff_result(*a, *b, p.max_cost.value_or(0), p.words.value_or(false)));
            auto work = [a = std::move(*a), b = std::move(*b), p, reply] {
                auto result = std::make_shared<DiffLinesResult>(
                    diff_result(a, b, p.max_cost.value_or(0), p.words.value_or(false)));
                return std::function<void()>([reply, result] { reply(std::move(*result)); });
            };
            if (!jobs->start(std::move(work)))
                reply(make_error(ErrorCode::refused,
                                 std::to_string(jobs->max_waiting()) +
                                     " comparisons are waiting already; ask again when one has "
                                     "been answered"));
        });
}

} // namespace rio
