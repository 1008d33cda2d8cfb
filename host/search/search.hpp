// The agent's `search` tool and the fs.search op: project-wide text search that respects
// .gitignore, skips binary files and bounds its output. Regular expressions go through RE2
// (linear time on any pattern; std::regex recurses per character and crashes on long
// lines) behind a literal prefilter, and files are read and matched on every core while the
// walk that lists them goes on (docs/decisions/0012-search-speed.md).
#pragma once

#include "protocol/error.hpp"

#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace rio {

// A match as its finder sees it, for a caller that writes matches out itself: fs.search writes
// its reply's JSON on the threads that find them (decisions 0050, 0067). The views live for
// the call.
struct MatchView {
    std::string_view path; // project-relative
    std::size_t line;      // 1-based
    std::string_view text; // as SearchMatch::text
    std::size_t column, length, start, end;
};
using RenderMatch = std::function<void(std::string& out, const MatchView& match)>;

struct SearchQuery {
    std::string pattern;
    bool regex = false;       // a literal substring by default; RE2 syntax when set
    bool ignore_case = false; // Unicode-aware case folding (through RE2 for literals too)
    std::string path = ".";   // project-relative folder or file to search in
    // Filters on the project-relative path, each as one `rg -g` (host/search/path_globs):
    // "*.{c,h}" (no '/': the name at any depth), "src/**/*.h" (the whole path), "!test/**"
    // (left out); the later one decides where two match.
    std::vector<std::string> globs;
    std::size_t max_matches = 200;
    // A longer line is clipped to a window around the match, marked with "…"; 0 = no limit.
    std::size_t max_line_bytes = 240;
    // When set, each match is written by this (on any thread, never two at once into one
    // string) into its file's SearchResult::rendered instead of being listed in
    // SearchResult::matches.
    RenderMatch render;
};

struct SearchMatch {
    std::string path; // project-relative, '/' separators
    std::size_t line; // 1-based
    std::string text; // the line without its terminator, clipped, invalid UTF-8 as U+FFFD
    std::size_t column = 0, length = 0; // the match in the file's line, in bytes
    std::size_t start = 0, end = 0;     // the match in `text`, in bytes
};

// With SearchQuery::render: a file's matches as written, joined by ','.
struct RenderedMatches {
    std::string path; // project-relative
    std::string text;
};

struct SearchResult {
    std::vector<SearchMatch> matches;      // by path, then line, whatever the threads did
    std::vector<RenderedMatches> rendered; // with SearchQuery::render: files with matches, by path
    bool truncated = false;                // more matches existed than max_matches
    std::size_t files_searched = 0;
    std::size_t files_skipped = 0; // binary (a NUL byte anywhere), too large, or unreadable
    std::size_t left_out = 0;      // names that are not valid UTF-8, not searched (decision 0051)
};

// `root` must be canonical. `live_text` maps project-relative paths of open editor buffers
// to their unsaved text, searched instead of the file on disk (or in its place, for a
// buffer not saved yet). Matches are one per line: the line where a match starts. A regex
// never matches across lines; `^` and `$` match at line boundaries.
Result<SearchResult>
search_project(const std::filesystem::path& root, const SearchQuery& query,
               const std::map<std::string, std::string, std::less<>>& live_text = {});

// What the model reads: "path:line: text" lines, then a footer that says whether more
// matches exist, or a "No matches" line with hints.
std::string format_search_result(const SearchQuery& query, const SearchResult& result);

} // namespace rio
