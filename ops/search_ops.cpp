// fs.search: the agent's project search for a frontend's search panel, with the same
// rules (open buffers searched instead of their files, .gitignore, binary files skipped);
// fs.files: the files that search would read, for a quick open; both narrowed by globs.
#include "host/search/file_list.hpp"
#include "host/search/search.hpp"
#include "ops/ops.hpp"
#include "ops/project_access.hpp"
#include "ops/search_reply.hpp"

namespace rio {
namespace {

// Enough for any project a person opens; the answer stays a few megabytes.
constexpr std::uint64_t default_max_files = 200'000;

} // namespace

void register_search_ops(Dispatcher& dispatcher, OpContext& context) {
    Workspace& ws = context.workspace;

    // Written as text, grouped by file, a match an array (decisions 0050, 0067): a search with
    // 100,000 matches spent most of its time building and dumping them as a document.
    dispatcher.on_text<FsSearchParams>([&ws](const FsSearchParams& p, std::string& line) -> Status {
        SearchQuery query;
        query.pattern = p.pattern;
        query.path = p.path.value_or(".");
        if (p.glob) query.globs = p.glob->items;
        query.regex = p.regex.value_or(false);
        query.ignore_case = p.ignore_case.value_or(false);
        if (p.max_matches) query.max_matches = static_cast<std::size_t>(*p.max_matches);
        query.render = append_search_match;
        // project_path answers no_project; search_project confines the path itself.
        auto scope = project_path(ws, query.path);
        if (!scope) return scope.error();

        std::map<std::string, std::string, std::less<>> open_texts;
        for (const auto& [rel, doc] : ws.buffers)
            open_texts.emplace(rel, doc.text);
        auto result = search_project(*ws.root, query, open_texts);
        if (!result) return result.error();
        append_search_reply(line, *result);
        return Ok{};
    });

    dispatcher.on<FsFilesParams>([&ws](const FsFilesParams& p) -> Result<FsFilesResult> {
        auto root = project_path(ws, ".");
        if (!root) return root.error();
        auto globs = PathGlobs::make(p.glob ? p.glob->items : std::vector<std::string>{});
        if (!globs) return globs.error();
        LiveText buffers;
        for (const auto& [rel, doc] : ws.buffers)
            buffers.emplace(rel, std::string());
        FileList list = list_project_files(
            *ws.root, buffers, static_cast<std::size_t>(p.max_files.value_or(default_max_files)),
            *globs);
        FsFilesResult out{std::move(list.files), list.truncated, std::nullopt};
        if (list.left_out > 0) out.left_out = list.left_out;
        return out;
    });
}

} // namespace rio
