// git.status, git.marks and git.diff: the project's changes against HEAD (decision 0092), read
// through libgit2 on worker threads, so a status over 50,000 files never holds up the other
// clients. The texts compared are the live ones: an open buffer's unsaved edits count.
#include "core/diff.hpp"
#include "core/text_format.hpp"
#include "core/unified_diff.hpp"
#include "host/files/document_io.hpp"
#include "host/git/git_repository.hpp"
#include "ops/git_head.hpp"
#include "ops/loop_jobs.hpp"
#include "ops/ops.hpp"
#include "ops/project_access.hpp"
#include "text/lines.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <set>

namespace rio {

namespace fs = std::filesystem;

namespace {

Result<std::optional<std::string>> head_text(GitRepository& repo, const std::string& rel) {
    auto bytes = repo.head_bytes(rel);
    if (!bytes) return bytes.error();
    if (!*bytes) return std::optional<std::string>();
    auto text = decode_text(**bytes, "HEAD's " + rel);
    if (!text) return text.error();
    return std::optional<std::string>(std::move(text->text));
}

} // namespace

Result<std::optional<std::string>> head_text(const fs::path& root, const ProjectPath& path) {
    auto repo = open_git_repository(root);
    if (!repo) return repo.error();
    if (!*repo) return std::optional<std::string>();
    return head_text(**repo, path.rel);
}

namespace {

constexpr std::size_t default_max_files = 5000;

// Opens the project's repository, saying in `info` what it is; null when there is none to
// read.
std::unique_ptr<GitRepository> open_repository(const fs::path& root, GitRepositoryInfo& info) {
    auto repo = open_git_repository(root);
    if (!repo) {
        info.problem = repo.error().message;
        return nullptr;
    }
    info.repository = *repo != nullptr;
    return std::move(*repo);
}

void describe_head(GitRepositoryInfo& info, const GitStatus& status) {
    info.head = Wire<GitHead>(status.head);
    info.branch = status.branch;
    info.commit = status.commit;
}

// The bytes of HEAD's lines [start, start+count) of `text` split as `lines`.
std::string lines_text(std::string_view text, const std::vector<std::string_view>& lines,
                       std::size_t start, std::size_t count) {
    if (count == 0) return {};
    const std::size_t begin = static_cast<std::size_t>(lines[start].data() - text.data());
    const std::size_t end =
        start + count < lines.size()
            ? static_cast<std::size_t>(lines[start + count].data() - text.data())
            : text.size();
    return std::string(text.substr(begin, end - begin));
}

GitMarksResult marks(const fs::path& root, const ProjectPath& path, std::string live, bool texts) {
    GitMarksResult out;
    GitRepositoryInfo info;
    std::unique_ptr<GitRepository> repo = open_repository(root, info);
    out.repository = info.repository;
    out.problem = info.problem;
    std::string before;
    if (repo) {
        if (auto head = head_text(*repo, path.rel); !head) {
            out.problem = head.error().message;
        } else if (*head) {
            out.in_head = true;
            before = std::move(**head);
        }
    }
    if (out.in_head) {
        const LineDiff diff = diff_lines(before, live);
        const std::vector<std::string_view> lines = split_lines(before);
        out.exact = diff.exact;
        for (const DiffHunk& h : diff.hunks)
            out.hunks.push_back({h.a_start, h.a_count, h.b_start, h.b_count,
                                 lines_text(before, lines, h.a_start, h.a_count)});
    }
    if (texts) {
        out.head_text = std::move(before);
        out.text = std::move(live);
    }
    return out;
}

// The live text of a file the status names, or "" when it is gone or no text.
std::string live_or_empty(const std::map<std::string, std::string, std::less<>>& open,
                          const std::shared_ptr<const ProjectDir>& dir, const std::string& rel) {
    if (auto it = open.find(rel); it != open.end()) return it->second;
    auto path = confine(dir, rel);
    if (!path) return {};
    auto doc = load_document(*path);
    return doc ? doc->file_text() : std::string();
}

struct DiffRequest {
    fs::path root;
    std::shared_ptr<const ProjectDir> dir;
    std::map<std::string, std::string, std::less<>> open; // every open buffer's text
    std::set<std::string, std::less<>> dirty;             // those with unsaved edits
    std::optional<std::set<std::string, std::less<>>> only;
    std::size_t max_files = default_max_files;
};

GitDiffResult project_diff(const DiffRequest& request) {
    GitDiffResult out;
    std::unique_ptr<GitRepository> repo = open_repository(request.root, out);
    if (!repo) return out;
    auto status = repo->status(request.max_files);
    if (!status) {
        out.problem = status.error().message;
        return out;
    }
    describe_head(out, *status);
    out.truncated = status->truncated;
    // The disk's changes, and the files whose unsaved edits make them differ.
    std::map<std::string, GitChange, std::less<>> changed;
    for (const GitFileChange& f : status->files)
        changed.emplace(f.path, f.change);
    for (const std::string& rel : request.dirty)
        changed.emplace(rel, GitChange::modified);
    for (const auto& [rel, change] : changed) {
        if (request.only && !request.only->contains(rel)) continue;
        std::string before;
        if (change == GitChange::modified || change == GitChange::deleted) {
            auto head = head_text(*repo, rel);
            if (!head) {
                out.files.push_back({rel, Wire<GitChange>(change), head.error().message + "\n"});
                continue;
            }
            // A buffer's unsaved edits to a file in no commit (an ignored one) are no change.
            if (!*head) continue;
            before = std::move(**head);
        }
        const std::string after = live_or_empty(request.open, request.dir, rel);
        if (before == after) continue;
        std::string diff = unified_diff(before, after, rel);
        // What git prints for a file one side does not have.
        if (change == GitChange::deleted && after.empty())
            diff.replace(diff.find("+++ b/"), 6 + rel.size(), "+++ /dev/null");
        else if (before.empty() && change != GitChange::modified)
            diff.replace(0, 6 + rel.size(), "--- /dev/null");
        out.files.push_back({rel, Wire<GitChange>(change), std::move(diff)});
    }
    return out;
}

// The work's answer, posted back to the loop.
template <typename R> std::function<void()> answer(std::function<void(Result<R>)> reply, R result) {
    auto shared = std::make_shared<R>(std::move(result));
    return [reply = std::move(reply), shared] { reply(std::move(*shared)); };
}

Error too_many_waiting(const LoopJobs& jobs) {
    return make_error(ErrorCode::refused, std::to_string(jobs.max_waiting()) +
                                              " git requests are waiting already; ask again "
                                              "when one has been answered");
}

} // namespace

void register_git_ops(Dispatcher& dispatcher, OpContext& context) {
    // One repository walk at a time; a margin's marks queue behind it.
    auto jobs = context.io ? std::make_shared<LoopJobs>(*context.io, 1, 64) : nullptr;
    auto run = [jobs](LoopJobs::Work work) {
        if (!jobs) {
            work()();
            return true;
        }
        return jobs->start(std::move(work));
    };

    dispatcher.on_async<GitStatusParams>(
        [&context, run, jobs](const GitStatusParams& p,
                              std::function<void(Result<GitStatusResult>)> reply) {
            if (!context.workspace.root)
                return reply(make_error(ErrorCode::no_project, "no project is open"));
            const std::size_t max_files = p.max_files.value_or(default_max_files);
            auto work = [root = *context.workspace.root, max_files, reply] {
                GitStatusResult out;
                std::unique_ptr<GitRepository> repo = open_repository(root, out);
                if (repo) {
                    if (auto status = repo->status(max_files); !status) {
                        out.problem = status.error().message;
                    } else {
                        describe_head(out, *status);
                        for (const GitFileChange& f : status->files)
                            out.files.push_back({f.path, Wire<GitChange>(f.change)});
                        out.truncated = status->truncated;
                    }
                }
                return answer<GitStatusResult>(reply, std::move(out));
            };
            if (!run(std::move(work))) reply(too_many_waiting(*jobs));
        });

    dispatcher.on_async<GitMarksParams>(
        [&context, run, jobs](const GitMarksParams& p,
                              std::function<void(Result<GitMarksResult>)> reply) {
            auto path = project_path(context.workspace, p.path);
            if (!path) return reply(path.error());
            std::optional<std::uint64_t> version;
            std::string live;
            if (auto open = context.workspace.buffers.find(path->rel);
                open != context.workspace.buffers.end()) {
                version = open->second.version;
                live = open->second.file_text();
            } else if (auto doc = load_document(*path); doc) {
                live = doc->file_text();
            } else if (doc.error().code != ErrorCode::not_found) {
                return reply(doc.error());
            }
            auto work = [root = *context.workspace.root, path = *path, live = std::move(live),
                         version, texts = p.texts.value_or(false), reply]() mutable {
                GitMarksResult out = marks(root, path, std::move(live), texts);
                out.version = version;
                return answer<GitMarksResult>(reply, std::move(out));
            };
            if (!run(std::move(work))) reply(too_many_waiting(*jobs));
        });

    dispatcher.on_async<GitDiffParams>(
        [&context, run, jobs](const GitDiffParams& p,
                              std::function<void(Result<GitDiffResult>)> reply) {
            const Workspace& ws = context.workspace;
            if (!ws.root) return reply(make_error(ErrorCode::no_project, "no project is open"));
            DiffRequest request{*ws.root, ws.dir, {}, {}, std::nullopt, default_max_files};
            for (const auto& [rel, doc] : ws.buffers) {
                request.open.emplace(rel, doc.file_text());
                if (doc.dirty()) request.dirty.insert(rel);
            }
            if (p.paths) {
                request.only.emplace();
                for (const std::string& requested : *p.paths) {
                    auto path = project_path(ws, requested);
                    if (!path) return reply(path.error());
                    request.only->insert(path->rel);
                }
            }
            auto work = [request = std::move(request), reply] {
                return answer<GitDiffResult>(reply, project_diff(request));
            };
            if (!run(std::move(work))) reply(too_many_waiting(*jobs));
        });
}

} // namespace rio
