// libgit2 behind host/git's interface, built as the module rio-git-libgit2.so (decision 0092):
// libgit2 brings sixteen libraries (ssh, TLS, Kerberos) that a core which never reads a
// repository should not load at start-up.
#include "host/git/git_repository.hpp"

#include <algorithm>
#include <git2.h>
#include <mutex>
#include <system_error>

namespace rio {
namespace {

namespace fs = std::filesystem;

void init_libgit2() {
    static std::once_flag once;
    // Never shut down: the core's threads may hold repositories until it exits.
    std::call_once(once, [] { git_libgit2_init(); });
}

std::string last_error() {
    const git_error* e = git_error_last();
    return e && e->message ? e->message : "unknown libgit2 error";
}

Error git_failure(std::string_view what) {
    return make_error(ErrorCode::io_error, std::string(what) + ": " + last_error());
}

template <typename T, void (*Free)(T*)> struct Owned {
    T* p = nullptr;
    ~Owned() {
        if (p) Free(p);
    }
};

// The project's folder within the work tree, "" or "a/b/", or nullopt when it is not in it.
std::optional<std::string> prefix_within(const fs::path& workdir, const fs::path& project_root) {
    std::error_code ec;
    const fs::path work = fs::canonical(workdir, ec);
    if (ec) return std::nullopt;
    const fs::path root = fs::canonical(project_root, ec);
    if (ec) return std::nullopt;
    const fs::path rel = root.lexically_relative(work);
    if (rel.empty() || *rel.begin() == "..") return std::nullopt;
    if (rel == ".") return std::string();
    return rel.generic_string() + "/";
}

// What HEAD and the disk say of one status entry, as a change against HEAD; nullopt when the
// file is in neither (added to the index, then deleted).
std::optional<GitChange> change_against_head(unsigned s) {
    const bool in_head =
        (s & GIT_STATUS_INDEX_DELETED) || !(s & (GIT_STATUS_INDEX_NEW | GIT_STATUS_WT_NEW));
    const bool on_disk = (s & GIT_STATUS_INDEX_DELETED) ? (s & GIT_STATUS_WT_NEW) != 0
                                                        : (s & GIT_STATUS_WT_DELETED) == 0;
    if (in_head && on_disk) return GitChange::modified;
    if (in_head) return GitChange::deleted;
    if (!on_disk) return std::nullopt;
    return (s & GIT_STATUS_INDEX_NEW) ? GitChange::added : GitChange::untracked;
}

const char* entry_path(const git_status_entry& e) {
    if (e.index_to_workdir) return e.index_to_workdir->new_file.path;
    return e.head_to_index->new_file.path;
}

struct FreeRepository {
    void operator()(git_repository* repo) const { git_repository_free(repo); }
};

class LibGit2Repository final : public GitRepository {
public:
    LibGit2Repository(std::unique_ptr<git_repository, FreeRepository> repo, std::string prefix)
        : repo_(std::move(repo)), prefix_(std::move(prefix)) {}

    Result<GitStatus> status(std::size_t max_files) override;
    Result<std::optional<std::string>> head_bytes(std::string_view project_rel) override;

private:
    std::unique_ptr<git_repository, FreeRepository> repo_;
    std::string prefix_; // the project's folder within the work tree: "" or "sub/dir/"
};

Result<std::unique_ptr<GitRepository>> open_repository(const fs::path& project_root) {
    init_libgit2();
    git_repository* raw = nullptr;
    const int rc = git_repository_open_ext(&raw, project_root.c_str(), 0, nullptr);
    if (rc == GIT_ENOTFOUND) return std::unique_ptr<GitRepository>();
    if (rc == GIT_EOWNER)
        return make_error(ErrorCode::refused,
                          "the git repository here belongs to another user, so rio does not "
                          "read it (git's safe.directory): " +
                              last_error());
    if (rc < 0) return git_failure("the git repository here cannot be read");
    std::unique_ptr<git_repository, FreeRepository> repo(raw);
    // A bare repository has no work tree to compare: the project is then no checkout.
    const char* workdir = git_repository_workdir(repo.get());
    if (!workdir) return std::unique_ptr<GitRepository>();
    std::optional<std::string> prefix = prefix_within(workdir, project_root);
    if (!prefix)
        return make_error(ErrorCode::refused,
                          std::string("the git repository's work tree is ") + workdir +
                              " (core.worktree), which does not hold the project");
    return std::unique_ptr<GitRepository>(
        std::make_unique<LibGit2Repository>(std::move(repo), std::move(*prefix)));
}

Result<GitStatus> LibGit2Repository::status(std::size_t max_files) {
    GitStatus out;
    git_reference* head_ref = nullptr;
    const int head_rc = git_repository_head(&head_ref, repo_.get());
    Owned<git_reference, git_reference_free> head{head_ref};
    if (head_rc == GIT_EUNBORNBRANCH || head_rc == GIT_ENOTFOUND) {
        out.head = GitHead::unborn;
        git_reference* symbolic = nullptr;
        if (git_reference_lookup(&symbolic, repo_.get(), "HEAD") == 0) {
            Owned<git_reference, git_reference_free> s{symbolic};
            if (const char* target = git_reference_symbolic_target(symbolic))
                out.branch = std::string_view(target).starts_with("refs/heads/")
                                 ? std::string(target + 11)
                                 : std::string(target);
        }
    } else if (head_rc < 0) {
        return git_failure("HEAD cannot be read");
    } else {
        out.head =
            git_repository_head_detached(repo_.get()) == 1 ? GitHead::detached : GitHead::branch;
        if (out.head == GitHead::branch) out.branch = git_reference_shorthand(head_ref);
        if (const git_oid* oid = git_reference_target(head_ref)) {
            char hex[GIT_OID_HEXSZ + 1] = {};
            git_oid_tostr(hex, sizeof hex, oid);
            out.commit.assign(hex, 12);
        }
    }

    git_status_options options;
    git_status_options_init(&options, GIT_STATUS_OPTIONS_VERSION);
    options.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
    options.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED | GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS |
                    GIT_STATUS_OPT_EXCLUDE_SUBMODULES | GIT_STATUS_OPT_SORT_CASE_SENSITIVELY;
    // "a/b": the folder and everything in it.
    std::string spec = prefix_.empty() ? std::string() : prefix_.substr(0, prefix_.size() - 1);
    char* specs[] = {spec.data()};
    if (!prefix_.empty()) {
        options.pathspec = {specs, 1};
        options.flags |= GIT_STATUS_OPT_DISABLE_PATHSPEC_MATCH;
    }
    git_status_list* raw = nullptr;
    if (git_status_list_new(&raw, repo_.get(), &options) < 0)
        return git_failure("git status failed");
    Owned<git_status_list, git_status_list_free> list{raw};
    const std::size_t count = git_status_list_entrycount(raw);
    for (std::size_t i = 0; i < count; ++i) {
        const git_status_entry* e = git_status_byindex(raw, i);
        const std::optional<GitChange> change = change_against_head(e->status);
        if (!change) continue;
        std::string_view path = entry_path(*e);
        // The project's own folder comes back as "prefix/" when it holds a nested repository.
        if (!path.starts_with(prefix_) || path.size() == prefix_.size()) continue;
        if (out.files.size() == max_files) {
            out.truncated = true;
            break;
        }
        out.files.push_back({std::string(path.substr(prefix_.size())), *change});
    }
    return out;
}

Result<std::optional<std::string>> LibGit2Repository::head_bytes(std::string_view project_rel) {
    git_reference* head_ref = nullptr;
    const int head_rc = git_repository_head(&head_ref, repo_.get());
    Owned<git_reference, git_reference_free> head{head_ref};
    if (head_rc == GIT_EUNBORNBRANCH || head_rc == GIT_ENOTFOUND)
        return std::optional<std::string>();
    if (head_rc < 0) return git_failure("HEAD cannot be read");
    git_commit* commit_raw = nullptr;
    if (git_reference_peel(reinterpret_cast<git_object**>(&commit_raw), head_ref,
                           GIT_OBJECT_COMMIT) < 0)
        return git_failure("HEAD's commit cannot be read");
    Owned<git_commit, git_commit_free> commit{commit_raw};
    git_tree* tree_raw = nullptr;
    if (git_commit_tree(&tree_raw, commit_raw) < 0)
        return git_failure("HEAD's tree cannot be read");
    Owned<git_tree, git_tree_free> tree{tree_raw};
    const std::string path = prefix_ + std::string(project_rel);
    git_tree_entry* entry_raw = nullptr;
    const int entry_rc = git_tree_entry_bypath(&entry_raw, tree_raw, path.c_str());
    if (entry_rc == GIT_ENOTFOUND) return std::optional<std::string>();
    if (entry_rc < 0) return git_failure("HEAD's " + path + " cannot be read");
    Owned<git_tree_entry, git_tree_entry_free> entry{entry_raw};
    if (git_tree_entry_type(entry_raw) != GIT_OBJECT_BLOB) return std::optional<std::string>();
    git_blob* blob_raw = nullptr;
    if (git_blob_lookup(&blob_raw, repo_.get(), git_tree_entry_id(entry_raw)) < 0)
        return git_failure("HEAD's " + path + " cannot be read");
    Owned<git_blob, git_blob_free> blob{blob_raw};
    return std::optional<std::string>(
        std::string(static_cast<const char*>(git_blob_rawcontent(blob_raw)),
                    static_cast<std::size_t>(git_blob_rawsize(blob_raw))));
}

} // namespace

} // namespace rio

extern "C" __attribute__((visibility("default"))) void
rio_git_open(int version, const std::filesystem::path* root,
             rio::Result<std::unique_ptr<rio::GitRepository>>* out) {
    if (version != rio::git_module_version) {
        *out = rio::make_error(rio::ErrorCode::internal,
                               "rio-git-libgit2.so is from another build of rio");
        return;
    }
    *out = rio::open_repository(*root);
}
