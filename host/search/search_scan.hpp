// Reads and matches the files of a search on every core while the walk that lists them
// goes on, and merges the matches in path order, so the result is the same whatever the
// threads did.
#pragma once

#include "host/search/search.hpp"
#include "host/search/search_matcher.hpp"
#include "host/search/search_walk.hpp"

#include <cstddef>
#include <functional>
#include <vector>

namespace rio {

// Appends up to `want` more files in path order; false once there are no more.
using NextFiles = std::function<bool(std::vector<SearchFile>& out, std::size_t want)>;

SearchResult scan_files(const NextFiles& next, const Matcher& matcher, const SearchQuery& query);

} // namespace rio
