#include "host/search/search_walk.hpp"

#include "host/files/confine.hpp"
#include "host/files/files.hpp"

#include <algorithm>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rio {
namespace {

namespace fs = std::filesystem;

// getdents64 hands over as many entries as fit; 32 KiB is what glibc's readdir uses.
constexpr std::size_t dirent_bytes = std::size_t{32} * 1024;
// The project-relative folder rio keeps its own files in (.rio/plans, .rio/allow, …).
constexpr std::string_view rio_folder = ".rio";

unsigned char type_of(mode_t mode) {
    return S_ISDIR(mode) ? DT_DIR : S_ISREG(mode) ? DT_REG : S_ISLNK(mode) ? DT_LNK : DT_UNKNOWN;
}

// Path order: a folder's name compares as if followed by its '/', so "a-b" (with '-' below
// '/') comes before everything in "a/".
template <typename Entry> bool in_path_order(const Entry& a, const Entry& b) {
    std::size_t common = std::min(a.name.size(), b.name.size());
    if (int c = std::memcmp(a.name.data(), b.name.data(), common)) return c < 0;
    auto after = [common](const Entry& e) {
        if (common < e.name.size())
            return static_cast<int>(static_cast<unsigned char>(e.name[common]));
        return e.type == DT_DIR ? static_cast<int>('/') : -1;
    };
    return after(a) < after(b);
}

} // namespace

SearchDir::~SearchDir() {
    ::close(fd_);
}

std::string SearchFile::rel() const {
    if (!dir || dir->rel().empty()) return name;
    return dir->rel() + "/" + name;
}

SearchWalker::SearchWalker(const fs::path& root, std::string rel, const fs::path& real,
                           const LiveText& live, const PathGlobs& globs)
    : root_(root), live_(live), globs_(globs), dirents_(new char[dirent_bytes]) {
    // The patterns of every folder from the root down to `rel`, exclusive (its own are read
    // when it is listed), so a search scoped to a subfolder honours the same rules as one
    // from the top.
    rules_.add_file(root_ / ".git/info/exclude", "");
    if (!rel.empty()) {
        add_gitignore("", DT_UNKNOWN);
        for (std::size_t slash = rel.find('/'); slash != std::string::npos;
             slash = rel.find('/', slash + 1))
            add_gitignore(rel.substr(0, slash), DT_UNKNOWN);
    }
    enter(AT_FDCWD, real.c_str(), std::move(rel));
}

SearchWalker::~SearchWalker() = default;

bool SearchWalker::next(std::vector<SearchFile>& out, std::size_t want) {
    while (!stack_.empty()) {
        Frame& top = stack_.back();
        if (top.next == top.entries.size()) {
            rules_.patterns.erase(rules_.patterns.begin() +
                                      static_cast<std::ptrdiff_t>(top.inherited_rules),
                                  rules_.patterns.end());
            stack_.pop_back();
            continue;
        }
        if (out.size() >= want) return true;
        const Entry& entry = top.entries[top.next++];
        visit(top, entry, out);
    }
    return false;
}

// O_NOFOLLOW: a folder swapped for a symlink since it was listed is not entered either.
void SearchWalker::enter(int parent_fd, const char* name, std::string rel) {
    int fd = ::openat(parent_fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return; // unreadable: nothing to search there
    Frame frame;
    frame.dir = std::make_shared<SearchDir>(fd, std::move(rel));
    frame.inherited_rules = rules_.patterns.size();
    list(frame);
    frame.ignore = std::make_unique<FolderIgnoreRules>(rules_, frame.dir->rel());
    stack_.push_back(std::move(frame));
}

void SearchWalker::list(Frame& frame) {
    const int fd = frame.dir->fd();
    std::vector<Entry>& entries = frame.entries;
    for (;;) {
        ssize_t got = ::getdents64(fd, dirents_.get(), dirent_bytes);
        if (got <= 0) break; // the end, or unreadable: what was listed is searched
        for (std::size_t at = 0; at < static_cast<std::size_t>(got);) {
            const auto* d = reinterpret_cast<const struct dirent64*>(dirents_.get() + at);
            at += d->d_reclen;
            std::string_view name = d->d_name;
            if (name == "." || name == "..") continue;
            if (!is_listable_name(name)) {
                ++left_out_;
                continue;
            }
            unsigned char type = d->d_type;
            struct stat st {};
            // d_type spares a stat per entry on the usual filesystems, not on all.
            if (type == DT_UNKNOWN && ::fstatat(fd, d->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0)
                type = type_of(st.st_mode);
            entries.push_back(Entry{std::string(name), type});
        }
    }
    for (const Entry& e : entries)
        if (e.name == ".gitignore") add_gitignore(frame.dir->rel(), e.type);

    if (!live_.empty()) {
        const std::string& rel = frame.dir->rel();
        std::string prefix = rel.empty() ? "" : rel + "/";
        std::size_t listed = entries.size();
        for (auto it = live_.lower_bound(prefix); it != live_.end(); ++it) {
            std::string_view key = it->first;
            if (!key.starts_with(prefix)) break;
            std::string_view name = key.substr(prefix.size());
            if (name.empty() || name.find('/') != std::string_view::npos) continue;
            auto same = [name](const Entry& e) { return e.name == name; };
            if (std::none_of(entries.begin(), entries.begin() + static_cast<std::ptrdiff_t>(listed),
                             same))
                entries.push_back(Entry{std::string(name), DT_REG, true});
        }
    }
    std::sort(entries.begin(), entries.end(), in_path_order<Entry>);
}

void SearchWalker::visit(const Frame& frame, const Entry& entry, std::vector<SearchFile>& out) {
    const std::shared_ptr<SearchDir>& dir = frame.dir;
    path_.assign(dir->rel());
    if (!path_.empty()) path_ += '/';
    path_ += entry.name;
    if (entry.unsaved) {
        if (admits(frame, entry.name, false))
            out.push_back(SearchFile{dir, entry.name, {}, live_text(path_)});
        return;
    }
    switch (entry.type) {
    case DT_REG:
        if (admits(frame, entry.name, false))
            out.push_back(SearchFile{dir, entry.name, {}, live_text(path_)});
        break;
    case DT_DIR:
        // rio's own folder (plans, allow-list, settings) is not the project's text: a walk
        // of the project leaves it out, one that starts inside it does not (decision 0059).
        if (path_ == rio_folder) break;
        // Last: entering moves the stack, and `frame` with it.
        if (admits(frame, entry.name, true) && globs_.may_enter(path_))
            enter(dir->fd(), entry.name.c_str(), path_);
        break;
    case DT_LNK: {
        struct stat st {};
        if (::fstatat(dir->fd(), entry.name.c_str(), &st, 0) != 0 || !S_ISREG(st.st_mode) ||
            !admits(frame, entry.name, false))
            break;
        if (auto inside = confine(root_, path_))
            out.push_back(SearchFile{dir, entry.name, inside->real.string(), live_text(path_)});
        break;
    }
    default:
        break; // sockets, FIFOs, devices: not text to search
    }
}

// `path_` is the entry's project-relative path.
bool SearchWalker::admits(const Frame& frame, const std::string& name, bool is_dir) const {
    if (name == ".git") return false;
    switch (globs_.decide(path_, is_dir)) {
    case PathGlobs::Verdict::include:
        return true;
    case PathGlobs::Verdict::exclude:
        return false;
    case PathGlobs::Verdict::none:
        break;
    }
    return !frame.ignore->ignored(name, is_dir);
}

// A symlinked .gitignore is read only when it resolves inside the project.
void SearchWalker::add_gitignore(const std::string& dir_rel, unsigned char type) {
    std::string rel = dir_rel.empty() ? ".gitignore" : dir_rel + "/.gitignore";
    fs::path file = root_ / rel;
    struct stat st {};
    if (type == DT_UNKNOWN) {
        if (::lstat(file.c_str(), &st) != 0) return;
        type = type_of(st.st_mode);
    }
    if (type == DT_REG) {
        rules_.add_file(file, dir_rel);
    } else if (type == DT_LNK) {
        if (auto inside = confine(root_, rel)) rules_.add_file(inside->real, dir_rel);
    }
}

const std::string* SearchWalker::live_text(std::string_view rel) const {
    if (live_.empty()) return nullptr;
    auto it = live_.find(rel);
    return it == live_.end() ? nullptr : &it->second;
}

} // namespace rio
