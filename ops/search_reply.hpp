// fs.search's reply written as JSON text, never built as a document (decisions 0050, 0067):
// each match as the array [line, column, length, start, end, text], written by the search's
// threads as they find it, grouped by file. The text is what nlohmann dumps for the same
// FsSearchResult (a unit test holds it to that), so a client cannot tell the difference.
#pragma once

#include "host/search/search.hpp"

#include <string>

namespace rio {

// One match as an FsSearchResult match row; SearchQuery::render.
void append_search_match(std::string& out, const MatchView& match);

// The whole FsSearchResult around the matches `append_search_match` wrote.
void append_search_reply(std::string& out, const SearchResult& result);

} // namespace rio
