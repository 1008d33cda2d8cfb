// Files, buffers and diffs: listing, reading, searching and editing the project's text.
#pragma once

#include "protocol/messages/common.hpp"

namespace rio {

struct DirEntryInfo {
    std::string name;
    Wire<EntryType> type;
    std::optional<bool> link;
    std::optional<std::uint64_t> size;
};
RIO_FIELDS(DirEntryInfo, name, type, link, size)

// `left_out` (fs.list, fs.files, fs.search): how many names that are not valid UTF-8 were
// left out, when any were (docs/decisions/0051).
struct FsListResult {
    std::string path;
    std::vector<DirEntryInfo> entries;
    std::optional<std::uint64_t> left_out;
};
RIO_FIELDS(FsListResult, path, entries, left_out)

struct FsListParams {
    static constexpr std::string_view op = op::fs_list;
    using Result = FsListResult;
    std::optional<std::string> path;
};
RIO_FIELDS(FsListParams, path)

struct FsReadResult {
    std::string path;
    std::string text;
    Wire<Encoding> encoding;
    Wire<Eol> eol;
    std::uint64_t size = 0;
};
RIO_FIELDS(FsReadResult, path, text, encoding, eol, size)

struct FsReadParams {
    static constexpr std::string_view op = op::fs_read;
    using Result = FsReadResult;
    std::string path;
};
RIO_FIELDS(FsReadParams, path)

// One match of fs.search, written as the array [line, column, length, start, end, text]
// (decision 0067): as an object with its path it made a reply of 100,000 matches 1.4 times
// `rg -n`'s output and twice its time.
struct SearchMatchInfo {
    static constexpr bool json_array = true; // fields.hpp: fits an array, not an object
    std::uint64_t line = 0;                  // 1-based
    std::uint64_t column = 0, length = 0;    // the match in the file's line, bytes from 0
    std::uint64_t start = 0, end = 0;        // the match in `text`, bytes
    std::string text;
};
void to_json(nlohmann::json& j, const SearchMatchInfo& m);
void from_json(const nlohmann::json& j, SearchMatchInfo& m);

// A file's matches, in line order.
struct SearchFileMatches {
    std::string path; // project-relative
    std::vector<SearchMatchInfo> matches;
};
RIO_FIELDS(SearchFileMatches, path, matches)

struct FsSearchResult {
    std::vector<SearchFileMatches> files; // in path order, only those with matches
    bool truncated = false;
    std::uint64_t files_searched = 0;
    std::uint64_t files_skipped = 0;
    std::optional<std::uint64_t> left_out;
};
RIO_FIELDS(FsSearchResult, files, truncated, files_searched, files_skipped, left_out)

// A glob parameter (fs.search, fs.files): one glob as a string or several as an array, each
// as one `rg -g` (decision 0074).
struct Globs {
    static constexpr bool json_string_or_array = true; // fields.hpp: a string or strings
    std::vector<std::string> items;

    Globs() = default;
    // Implicit, so that `params.glob = "*.cpp"` reads as it did when a glob was a string.
    Globs(std::string one) : items{std::move(one)} {} // NOLINT(google-explicit-constructor)
    Globs(std::vector<std::string> many) : items(std::move(many)) {} // NOLINT
};
void to_json(nlohmann::json& j, const Globs& g);
void from_json(const nlohmann::json& j, Globs& g);

struct FsSearchParams {
    static constexpr std::string_view op = op::fs_search;
    using Result = FsSearchResult;
    std::string pattern;
    std::optional<std::string> path;
    std::optional<Globs> glob;
    std::optional<bool> regex;
    std::optional<bool> ignore_case;
    std::optional<std::uint64_t> max_matches;
};
RIO_FIELDS(FsSearchParams, pattern, path, glob, regex, ignore_case, max_matches)

struct FsFilesResult {
    std::vector<std::string> files; // project-relative, in path order
    bool truncated = false;         // more files exist than max_files
    std::optional<std::uint64_t> left_out;
};
RIO_FIELDS(FsFilesResult, files, truncated, left_out)

struct FsFilesParams {
    static constexpr std::string_view op = op::fs_files;
    using Result = FsFilesResult;
    std::optional<std::uint64_t> max_files;
    std::optional<Globs> glob;
};
RIO_FIELDS(FsFilesParams, max_files, glob)

// ---- buffers -------------------------------------------------------------------------

struct BufferState {
    std::string path;
    std::uint64_t version = 0;
    bool dirty = false;
    Wire<Encoding> encoding;
    Wire<Eol> eol;
    std::optional<std::string> text; // buffer.open and buffer.text
};
RIO_FIELDS(BufferState, path, version, dirty, encoding, eol, text)

struct BufferOpenParams {
    static constexpr std::string_view op = op::buffer_open;
    using Result = BufferState;
    std::string path;
};
RIO_FIELDS(BufferOpenParams, path)

struct BufferTextParams {
    static constexpr std::string_view op = op::buffer_text;
    using Result = BufferState;
    std::string path;
};
RIO_FIELDS(BufferTextParams, path)

struct BufferListResult {
    std::vector<BufferState> buffers;
};
RIO_FIELDS(BufferListResult, buffers)

struct BufferListParams : Empty {
    static constexpr std::string_view op = op::buffer_list;
    using Result = BufferListResult;
};

struct BufferReplaceParams {
    static constexpr std::string_view op = op::buffer_replace;
    using Result = BufferState;
    std::string path;
    std::string text;
    std::optional<std::uint64_t> start, end; // byte offsets; absent: the whole text
    std::optional<std::uint64_t> version;    // the version the edit was made against
};
RIO_FIELDS(BufferReplaceParams, path, text, start, end, version)

struct BufferSaveParams {
    static constexpr std::string_view op = op::buffer_save;
    using Result = BufferState;
    std::string path;
    std::optional<bool> force;
};
RIO_FIELDS(BufferSaveParams, path, force)

struct BufferCloseParams {
    static constexpr std::string_view op = op::buffer_close;
    using Result = Empty;
    std::string path;
    std::optional<bool> discard;
};
RIO_FIELDS(BufferCloseParams, path, discard)

struct BufferReloadParams {
    static constexpr std::string_view op = op::buffer_reload;
    using Result = BufferState;
    std::string path;
};
RIO_FIELDS(BufferReloadParams, path)

// A new file, opened: empty, or holding buffer `from`'s text (Save As).
struct BufferCreateParams {
    static constexpr std::string_view op = op::buffer_create;
    using Result = BufferState;
    std::string path;
    std::optional<std::string> from;
    std::optional<bool> overwrite; // the file may exist; its open buffer must be clean
};
RIO_FIELDS(BufferCreateParams, path, from, overwrite)

// ---- diff ----------------------------------------------------------------------------

struct DiffSpan {
    std::uint64_t start = 0, end = 0; // [start, end), UTF-8 bytes within the line
};
RIO_FIELDS(DiffSpan, start, end)

// A changed line paired with the line it replaced, and the words that differ.
struct DiffLineWords {
    std::uint64_t a_line = 0, b_line = 0; // zero-based
    std::vector<DiffSpan> removed;        // in the old line
    std::vector<DiffSpan> added;          // in the new line
};
RIO_FIELDS(DiffLineWords, a_line, b_line, removed, added)

struct DiffHunkInfo {
    std::uint64_t a_start = 0, a_count = 0, b_start = 0, b_count = 0;
    // With `words: true`, for a hunk that changes lines: its i-th old line against its i-th
    // new line, for i < min(a_count, b_count).
    std::optional<std::vector<DiffLineWords>> words;
};
RIO_FIELDS(DiffHunkInfo, a_start, a_count, b_start, b_count, words)

struct DiffLinesResult {
    std::vector<DiffHunkInfo> hunks;
    std::uint64_t added = 0, removed = 0;
    bool exact = true;
    std::uint64_t a_lines = 0, b_lines = 0;
};
RIO_FIELDS(DiffLinesResult, hunks, added, removed, exact, a_lines, b_lines)

struct DiffLinesParams {
    static constexpr std::string_view op = op::diff_lines;
    using Result = DiffLinesResult;
    Json a, b; // a text, or {path, source?: "buffer" | "disk"}
    std::optional<std::uint64_t> max_cost;
    std::optional<bool> words; // word-level changes inside changed lines
};
RIO_FIELDS(DiffLinesParams, a, b, max_cost, words)

} // namespace rio
