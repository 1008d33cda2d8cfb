// fs.search: the agent's project search for a frontend's search panel, with the same
// rules (open buffers searched instead of their files, .gitignore, binary files skipped).
#include "protocol/params.hpp"
#include "host/search.hpp"
#include "ops/ops.hpp"
#include "ops/project_access.hpp"

namespace rio {

void register_search_ops(Dispatcher& dispatcher, OpContext& context) {
    Workspace& ws = context.workspace;

    dispatcher.add("fs.search", [&ws](const Call& call) -> Result<Json> {
        const Json& params = call.params;
        SearchQuery query;
        query.pattern = require_string(params, "pattern");
        query.path = optional_string(params, "path").value_or(".");
        query.glob = optional_string(params, "glob").value_or("");
        query.regex = optional_bool(params, "regex", false);
        query.ignore_case = optional_bool(params, "ignore_case", false);
        if (auto max = optional_count(params, "max_matches"))
            query.max_matches = static_cast<std::size_t>(*max);
        // project_path answers no_project; search_project confines the path itself.
        auto scope = project_path(ws, query.path);
        if (!scope) return scope.error();

        std::map<std::string, std::string, std::less<>> open_texts;
        for (const auto& [rel, doc] : ws.buffers)
            open_texts.emplace(rel, doc.text);
        auto result = search_project(*ws.root, query, open_texts);
        if (!result) return result.error();

        Json matches = Json::array();
        for (SearchMatch& m : result->matches)
            matches.push_back(
                Json{{"path", std::move(m.path)}, {"line", m.line}, {"text", std::move(m.text)}});
        return Json{{"matches", std::move(matches)},
                    {"truncated", result->truncated},
                    {"files_searched", result->files_searched},
                    {"files_skipped", result->files_skipped}};
    });
}

} // namespace rio
