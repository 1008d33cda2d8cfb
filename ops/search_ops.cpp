// fs.search: the agent's project search for a frontend's search panel, with the same
// rules (open buffers searched instead of their files, .gitignore, binary files skipped).
#include "host/search.hpp"
#include "ops/ops.hpp"
#include "ops/project_access.hpp"

namespace rio {

void register_search_ops(Dispatcher& dispatcher, OpContext& context) {
    Workspace& ws = context.workspace;

    dispatcher.on<FsSearchParams>([&ws](const FsSearchParams& p) -> Result<FsSearchResult> {
        SearchQuery query;
        query.pattern = p.pattern;
        query.path = p.path.value_or(".");
        query.glob = p.glob.value_or("");
        query.regex = p.regex.value_or(false);
        query.ignore_case = p.ignore_case.value_or(false);
        if (p.max_matches) query.max_matches = static_cast<std::size_t>(*p.max_matches);
        // project_path answers no_project; search_project confines the path itself.
        auto scope = project_path(ws, query.path);
        if (!scope) return scope.error();

        std::map<std::string, std::string, std::less<>> open_texts;
        for (const auto& [rel, doc] : ws.buffers)
            open_texts.emplace(rel, doc.text);
        auto result = search_project(*ws.root, query, open_texts);
        if (!result) return result.error();

        FsSearchResult out{{}, result->truncated, result->files_searched, result->files_skipped};
        for (SearchMatch& m : result->matches)
            out.matches.push_back({std::move(m.path), m.line, std::move(m.text)});
        return out;
    });
}

} // namespace rio
