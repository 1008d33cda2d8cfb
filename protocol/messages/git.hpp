// Git, read in process (decision 0092): status, diffs, the log.
#pragma once

#include "protocol/messages/common.hpp"

namespace rio {

// What the project's repository says, common to git.status and git.diff: no repository, one
// rio cannot read (`problem`), or HEAD.
struct GitRepositoryInfo {
    bool repository = false; // the project is in a git work tree rio can read
    std::optional<Wire<GitHead>> head;
    std::string branch; // HEAD's branch, also when unborn; empty when detached
    std::string commit; // HEAD's commit, 12 hex digits; empty when unborn
    std::optional<std::string> problem;
};

struct GitFileInfo {
    std::string path;
    Wire<GitChange> change;
};
RIO_FIELDS(GitFileInfo, path, change)

struct GitStatusResult : GitRepositoryInfo {
    std::vector<GitFileInfo> files; // on disk against HEAD, sorted by path
    bool truncated = false;         // more files differ than max_files
};
RIO_FIELDS(GitStatusResult, repository, head, branch, commit, problem, files, truncated)

struct GitStatusParams {
    static constexpr std::string_view op = op::git_status;
    using Result = GitStatusResult;
    std::optional<std::uint64_t> max_files; // default 5000
};
RIO_FIELDS(GitStatusParams, max_files)

// A change of the live text against HEAD: lines [b_start, b_start+b_count) of the text replace
// HEAD's [a_start, a_start+a_count), which were `head_text` (put back, it reverts the hunk).
struct GitMarkHunk {
    std::uint64_t a_start = 0, a_count = 0, b_start = 0, b_count = 0; // zero-based lines
    std::string head_text;
};
RIO_FIELDS(GitMarkHunk, a_start, a_count, b_start, b_count, head_text)

struct GitMarksResult {
    bool repository = false;
    bool in_head = false;                 // HEAD has the file (no marks for a new one)
    std::optional<std::uint64_t> version; // the open buffer's version they are for
    std::vector<GitMarkHunk> hunks;
    bool exact = true;
    std::optional<std::string> problem;
    // With `texts`: the two texts compared, for the compare view.
    std::optional<std::string> head_text, text;
};
RIO_FIELDS(GitMarksResult, repository, in_head, version, hunks, exact, problem, head_text, text)

// The margin marks of a file: its open buffer (unsaved edits included), else the disk; a file
// gone from the disk is empty (every line of HEAD's deleted).
struct GitMarksParams {
    static constexpr std::string_view op = op::git_marks;
    using Result = GitMarksResult;
    std::string path;
    std::optional<bool> texts;
};
RIO_FIELDS(GitMarksParams, path, texts)

struct GitDiffFile {
    std::string path;
    Wire<GitChange> change;
    std::string diff; // unified, 3 lines of context; a line in words for a binary file
};
RIO_FIELDS(GitDiffFile, path, change, diff)

struct GitDiffResult : GitRepositoryInfo {
    std::vector<GitDiffFile> files;
    bool truncated = false;
};
RIO_FIELDS(GitDiffResult, repository, head, branch, commit, problem, files, truncated)

// The project's changes against HEAD as unified diffs, open buffers' unsaved edits included.
struct GitDiffParams {
    static constexpr std::string_view op = op::git_diff;
    using Result = GitDiffResult;
    std::optional<std::vector<std::string>> paths; // only these; default every changed file
};
RIO_FIELDS(GitDiffParams, paths)

} // namespace rio
