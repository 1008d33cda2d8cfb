#include "host/sandbox/sandbox_grants.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <memory>
#include <optional>
#include <string_view>
#include <sys/stat.h>

namespace rio {
namespace {

namespace fs = std::filesystem;

// `path` is `folder` or lies below it. Both are lexically normal and absolute.
bool within(const fs::path& path, const fs::path& folder) {
    std::string_view p = path.native(), f = folder.native();
    if (f == "/") return true;
    return p.size() >= f.size() && p.compare(0, f.size(), f) == 0 &&
           (p.size() == f.size() || p[f.size()] == '/');
}

bool strictly_below(const fs::path& path, const fs::path& folder) {
    return path != folder && within(path, folder);
}

struct Walk {
    std::vector<fs::path> excluded;
    GrantRight right;
    std::vector<Grant>& out;

    // Grants `folder` whole when nothing excluded lies below it, else each of its entries the
    // same way. Symbolic links are never granted: what they point to is reached, and
    // judged, by its own path.
    void grant_except(const fs::path& folder) {
        for (const fs::path& e : excluded)
            if (within(folder, e)) return;
        bool split = std::any_of(excluded.begin(), excluded.end(),
                                 [&](const fs::path& e) { return strictly_below(e, folder); });
        if (!split) {
            out.push_back({folder, right, true});
            return;
        }
        // Names stay listable, so `ls ~` works; what a hidden folder holds stays unreadable.
        if (right == GrantRight::read) out.push_back({folder, GrantRight::list, true});
        std::unique_ptr<DIR, int (*)(DIR*)> dir(::opendir(folder.c_str()), ::closedir);
        if (!dir) return;
        while (const dirent* entry = ::readdir(dir.get())) {
            std::string_view name = entry->d_name;
            if (name == "." || name == "..") continue;
            fs::path child = folder / name;
            struct stat st {};
            if (::lstat(child.c_str(), &st) != 0 || S_ISLNK(st.st_mode)) continue;
            if (S_ISDIR(st.st_mode)) {
                grant_except(child);
                continue;
            }
            if (std::none_of(excluded.begin(), excluded.end(),
                             [&](const fs::path& e) { return within(child, e); }))
                out.push_back({child, right, false});
        }
    }
};

Result<fs::path> real_folder(const fs::path& path, const char* what) {
    std::error_code ec;
    fs::path real = fs::canonical(path, ec);
    if (ec || !fs::is_directory(real, ec))
        return make_error(ErrorCode::not_found,
                          std::string("the ") + what + " " + path.string() +
                              " cannot be used: " + (ec ? ec.message() : "not a folder"));
    return real;
}

// Where a hidden place really is: symbolic links on its way resolved, so that the walk,
// which sees real folders only, meets it.
fs::path real_place(const fs::path& path) {
    std::error_code ec;
    fs::path real = fs::weakly_canonical(path, ec);
    return ec ? path.lexically_normal() : real;
}

// The home folder a read-only command does not read whole, where there is one to leave out:
// not when the project is the home folder or holds it, since the project is read whole.
std::optional<fs::path> read_only_home(const SandboxPolicy& policy, const fs::path& project) {
    if (policy.profile != SandboxProfile::read_only || policy.home.empty()) return std::nullopt;
    std::error_code ec;
    fs::path home = fs::canonical(policy.home, ec);
    if (ec || home == "/" || within(home, project)) return std::nullopt;
    return home;
}

// Hidden places stay hidden inside a place granted here (`~/.cargo` holds credentials).
void grant_home_reads(const SandboxPolicy& policy, Walk& reads) {
    for (const fs::path& place : policy.home_reads) {
        std::error_code ec;
        fs::path real = fs::canonical(place, ec); // a dotfile linked from elsewhere too
        if (ec) continue;
        struct stat st {};
        if (::stat(real.c_str(), &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) {
            reads.grant_except(real);
            continue;
        }
        if (std::none_of(reads.excluded.begin(), reads.excluded.end(),
                         [&](const fs::path& e) { return within(real, e); }))
            reads.out.push_back({real, GrantRight::read, false});
    }
}

void grant_devices(const SandboxPolicy& policy, std::vector<Grant>& out) {
    auto exists = [](const char* path) {
        struct stat st {};
        return ::stat(path, &st) == 0;
    };
    for (const char* device : {"/dev/null", "/dev/zero", "/dev/full"})
        if (exists(device)) out.push_back({device, GrantRight::device, false});
    for (const char* device : {"/dev/random", "/dev/urandom"})
        if (exists(device)) out.push_back({device, GrantRight::read, false});
    // POSIX shared memory and semaphores (Python's multiprocessing) live here; in plan mode
    // it is another way out, so it stays closed.
    if (policy.profile == SandboxProfile::workspace_write && exists("/dev/shm"))
        out.push_back({"/dev/shm", GrantRight::write, true});
}

} // namespace

Result<std::vector<Grant>> sandbox_grants(const SandboxPolicy& policy,
                                          const std::vector<fs::path>& bound_read_only) {
    auto project = real_folder(policy.project, "project folder");
    if (!project) return project.error();
    auto tmpdir = real_folder(policy.tmpdir, "private TMPDIR");
    if (!tmpdir) return tmpdir.error();
    std::vector<fs::path> hidden;
    for (const fs::path& place : policy.hidden)
        if (place.is_absolute()) hidden.push_back(real_place(place));

    std::vector<Grant> grants;
    // /dev holds terminals and disks; only the harmless devices below are reachable.
    Walk reads{hidden, GrantRight::read, grants};
    reads.excluded.push_back("/dev");
    std::optional<fs::path> home = read_only_home(policy, *project);
    if (home) reads.excluded.push_back(*home);
    reads.grant_except("/");
    if (home) {
        // The home folder is out; the project in it, and what read-only tools need there, in.
        reads.excluded.pop_back();
        if (within(*project, *home)) reads.grant_except(*project);
        grant_home_reads(policy, reads);
    }
    grant_devices(policy, grants);
    grants.push_back({*tmpdir, GrantRight::write, true, true});
    if (policy.profile == SandboxProfile::workspace_write) {
        Walk writes{hidden, GrantRight::write, grants};
        for (const char* own : {".git", ".rio"})
            if (std::find(bound_read_only.begin(), bound_read_only.end(), *project / own) ==
                bound_read_only.end())
                writes.excluded.push_back(*project / own);
        for (const char* system : {"/dev", "/proc", "/sys"})
            writes.excluded.emplace_back(system);
        // Split, .git and .rio there or not, unless a mount namespace binds them read-only: a
        // command must not create them either (a new .git/config with core.fsmonitor runs a
        // command at the user's next git status). So without the binds the top level itself
        // takes no new entries; see decisions 0041 and 0080.
        writes.grant_except(*project);
    }
    return grants;
}

} // namespace rio
