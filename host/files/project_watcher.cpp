#include "host/files/project_watcher.hpp"

#include "host/files/files.hpp"
#include "host/files/gitignore.hpp"
#include "io/unique_fd.hpp"

#include <algorithm>
#include <asio/posix/stream_descriptor.hpp>
#include <asio/post.hpp>
#include <asio/steady_timer.hpp>
#include <cerrno>
#include <cstring>
#include <deque>
#include <dirent.h>
#include <fcntl.h>
#include <map>
#include <set>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>
#include <unordered_map>

namespace rio {
namespace {

namespace fs = std::filesystem;

constexpr std::uint32_t watch_mask = IN_CREATE | IN_DELETE | IN_MODIFY | IN_ATTRIB | IN_MOVED_FROM |
                                     IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR |
                                     IN_DONT_FOLLOW | IN_EXCL_UNLINK;

// Folders listed per handler: the loop answers clients between them however large the tree.
constexpr std::size_t folders_per_pass = 32;
// Reads of the event queue per handler: a command writing without pause (`npm install`)
// keeps it full, and the loop answers clients between reads too.
constexpr int reads_per_pass = 8;

std::string join(const std::string& folder, std::string_view name) {
    return folder.empty() ? std::string(name) : folder + "/" + std::string(name);
}

bool is_folder(int dir_fd, const dirent& entry) {
    if (entry.d_type != DT_UNKNOWN) return entry.d_type == DT_DIR;
    struct stat st {};
    return ::fstatat(dir_fd, entry.d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode);
}

std::string kernel_watch_limit() {
    auto text = read_file("/proc/sys/fs/inotify/max_user_watches", "max_user_watches");
    if (!text) return "";
    std::string value = *text;
    while (!value.empty() && (value.back() == '\n' || value.back() == ' '))
        value.pop_back();
    return value;
}

std::size_t depth(const std::string& path) {
    return static_cast<std::size_t>(std::count(path.begin(), path.end(), '/'));
}

bool in_any(const std::string& path, const std::set<std::string>& folders) {
    for (std::size_t slash = path.find('/'); slash != std::string::npos;
         slash = path.find('/', slash + 1))
        if (folders.count(path.substr(0, slash))) return true;
    return false;
}

} // namespace

std::vector<std::string> thinned_paths(std::set<std::string> paths,
                                       const std::set<std::string>& appeared, std::size_t most,
                                       std::size_t most_in_folder) {
    std::erase_if(paths, [&](const std::string& path) { return in_any(path, appeared); });
    // A folder being filled over several bursts: past `most_in_folder` of its entries in one
    // burst, its name stands for them (the project's top level excepted: that would be ".").
    std::map<std::string, std::size_t> in_folder;
    for (const std::string& path : paths)
        if (auto slash = path.rfind('/'); slash != std::string::npos)
            ++in_folder[path.substr(0, slash)];
    std::set<std::string> filled;
    for (const auto& [folder, count] : in_folder)
        if (count > most_in_folder) filled.insert(folder);
    if (!filled.empty()) {
        std::set<std::string> named;
        for (const std::string& path : paths) {
            auto slash = path.rfind('/');
            std::string folder = slash == std::string::npos ? "" : path.substr(0, slash);
            named.insert(filled.count(folder) ? folder : path);
        }
        paths = std::move(named);
    }
    while (paths.size() > most) {
        std::size_t deepest = 0;
        for (const std::string& path : paths)
            deepest = std::max(deepest, depth(path));
        if (deepest == 0) return {"."};
        std::set<std::string> shallower;
        for (const std::string& path : paths)
            shallower.insert(depth(path) == deepest ? path.substr(0, path.rfind('/')) : path);
        paths = std::move(shallower);
    }
    return {paths.begin(), paths.end()};
}

struct ProjectWatcher::Impl : std::enable_shared_from_this<Impl> {
    Impl(asio::io_context& io, fs::path root, Changed changed, StateChanged state_changed,
         Options options)
        : io(io), root(std::move(root)), changed(std::move(changed)),
          state_changed(std::move(state_changed)), options(options), stream(io), timer(io) {}

    struct Pending {
        std::string folder;
        bool report = false; // a folder that just appeared: what is in it is news too
    };

    asio::io_context& io;
    fs::path root;
    Changed changed;
    StateChanged state_changed;
    Options options;

    asio::posix::stream_descriptor stream;
    std::uint64_t generation = 0; // a restart makes the handlers of the old descriptor stale
    std::unordered_map<int, std::string> folder_of;
    std::map<std::string, int> watch_of;
    IgnoreRules rules;
    std::deque<Pending> pending;
    bool listing = false;
    bool restart_wanted = false;

    std::set<std::string> batch;
    std::set<std::string> appeared; // folders made or moved in during the batch
    asio::steady_timer timer;
    bool timer_armed = false;

    WatchState state;
    bool told_complete = false, told_problem = false;

    void start() {
        ++generation;
        stream.close();
        folder_of.clear();
        watch_of.clear();
        pending.clear();
        rules = IgnoreRules{};
        rules.add_file(root / ".git/info/exclude", "");
        state = WatchState{};
        told_complete = told_problem = false;
        int fd = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
        if (fd < 0) {
            state.problem = std::string("rio cannot follow changes made outside it: ") +
                            std::strerror(errno) +
                            (errno == EMFILE ? " (fs.inotify.max_user_instances is reached)" : "");
            state.complete = true;
            tell_state_later();
            return;
        }
        stream.assign(fd);
        wait();
        pending.push_back(Pending{"", false});
        list_later();
    }

    void tell_state_later() {
        asio::post(io, [weak = weak_from_this()] {
            if (auto self = weak.lock()) self->tell_state();
        });
    }

    void tell_state() {
        bool news = (state.complete && !told_complete) || (!state.problem.empty() && !told_problem);
        told_complete = state.complete;
        told_problem = !state.problem.empty();
        if (news && state_changed) state_changed(state);
    }

    void wait() {
        stream.async_wait(asio::posix::stream_descriptor::wait_read,
                          [weak = weak_from_this(), gen = generation](std::error_code ec) {
                              auto self = weak.lock();
                              if (!self || ec || gen != self->generation) return;
                              self->read_events();
                          });
    }

    void list_later() {
        if (listing) return;
        listing = true;
        asio::post(io, [weak = weak_from_this(), gen = generation] {
            auto self = weak.lock();
            if (!self || gen != self->generation) return;
            self->listing = false;
            self->list_some();
        });
    }

    void list_some() {
        for (std::size_t n = 0; n < folders_per_pass && !pending.empty(); ++n) {
            Pending next = std::move(pending.front());
            pending.pop_front();
            list(next);
        }
        if (!pending.empty()) {
            list_later();
            return;
        }
        if (!state.complete) {
            state.complete = true;
            tell_state();
        }
    }

    void limit_reached() {
        if (!state.problem.empty()) return;
        std::string limit = kernel_watch_limit();
        state.problem =
            "rio follows " + std::to_string(state.folders) +
            " folders for changes made outside it and may watch no more" +
            (limit.empty() ? std::string() : " (fs.inotify.max_user_watches is " + limit + ")") +
            ": changes in the others show only when rio reads them again. Raise "
            "the limit with `sysctl fs.inotify.max_user_watches=524288`.";
        tell_state();
    }

    // A folder the ignore rules exclude is not followed, except the project's .rio/: what it
    // holds (the allow-list) changes what the project grants, ignored or not.
    bool followed(const std::string& rel) const {
        return rel == ".rio" || !rules.ignored_entry(rel, true);
    }

    // Watches the folder, then lists it: an entry made in between is seen both ways, never
    // neither.
    void list(const Pending& at) {
        if (watch_of.count(at.folder)) return;
        if (state.folders >= options.max_folders) {
            limit_reached();
            return;
        }
        fs::path path = at.folder.empty() ? root : root / at.folder;
        int wd = ::inotify_add_watch(stream.native_handle(), path.c_str(), watch_mask);
        if (wd < 0) {
            if (errno == ENOSPC) limit_reached();
            return; // gone again, or not a folder any more, or unreadable: nothing to follow
        }
        if (auto old = folder_of.find(wd); old != folder_of.end()) watch_of.erase(old->second);
        folder_of[wd] = at.folder;
        watch_of[at.folder] = wd;
        state.folders = watch_of.size();
        rules.add_file(path / ".gitignore", at.folder);

        UniqueFd fd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (fd.fd < 0) return;
        DIR* dir = ::fdopendir(fd.fd);
        if (!dir) return;
        fd.release();
        while (const dirent* entry = ::readdir(dir)) {
            std::string_view name = entry->d_name;
            // A name that is not UTF-8 is left out of every listing, and what is in it too.
            if (name == "." || name == ".." || is_rio_temp_name(name) || !is_listable_name(name))
                continue;
            std::string rel = join(at.folder, name);
            if (at.report) note(rel);
            if (is_folder(::dirfd(dir), *entry) && followed(rel)) {
                if (at.report) appeared.insert(rel);
                pending.push_back(Pending{std::move(rel), at.report});
            }
        }
        ::closedir(dir);
    }

    void read_events() {
        alignas(inotify_event) char buffer[64 * 1024];
        for (int reads = 0; reads < reads_per_pass;) {
            ssize_t n = ::read(stream.native_handle(), buffer, sizeof buffer);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            ++reads;
            for (ssize_t at = 0; at < n;) {
                const auto* event = reinterpret_cast<const inotify_event*>(buffer + at);
                handle(*event);
                at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
            }
        }
        if (restart_wanted) {
            restart_wanted = false;
            start(); // new rules: folders they now exclude or include
            return;
        }
        if (!pending.empty()) list_later();
        wait();
    }

    void handle(const inotify_event& event) {
        if (event.mask & IN_Q_OVERFLOW) {
            note("."); // what was lost is unknown, new folders among it
            restart_wanted = true;
            return;
        }
        auto known = folder_of.find(event.wd);
        if (known == folder_of.end()) return;
        const std::string folder = known->second;
        if (event.mask & IN_IGNORED) {
            watch_of.erase(folder);
            folder_of.erase(known);
            state.folders = watch_of.size();
            return;
        }
        if (event.mask & (IN_DELETE_SELF | IN_MOVE_SELF)) {
            if (folder.empty()) note("."); // the project folder itself; its parent is not watched
            return;                        // a subfolder: its parent reports the entry
        }
        if (event.len == 0) return;
        std::string_view name(event.name);
        if (is_rio_temp_name(name) || !is_listable_name(name)) return;
        std::string rel = join(folder, name);
        bool is_dir = event.mask & IN_ISDIR;
        if (is_dir && (event.mask & (IN_MOVED_FROM | IN_DELETE))) unwatch(rel);
        if (is_dir && (event.mask & (IN_CREATE | IN_MOVED_TO))) {
            appeared.insert(rel);
            if (followed(rel)) pending.push_back(Pending{rel, true});
        }
        if (name == ".gitignore") restart_wanted = true;
        note(std::move(rel));
    }

    // A folder moved away keeps its watches, on paths that are no longer its own.
    void unwatch(const std::string& folder) {
        for (auto it = watch_of.lower_bound(folder); it != watch_of.end();) {
            const std::string& path = it->first;
            if (path != folder && !(path.starts_with(folder) && path[folder.size()] == '/')) break;
            ::inotify_rm_watch(stream.native_handle(), it->second);
            folder_of.erase(it->second);
            it = watch_of.erase(it);
        }
        state.folders = watch_of.size();
    }

    void note(std::string path) {
        batch.insert(std::move(path));
        if (timer_armed) return;
        timer_armed = true;
        timer.expires_after(options.settle);
        timer.async_wait([weak = weak_from_this()](std::error_code ec) {
            auto self = weak.lock();
            if (!self || ec) return;
            self->timer_armed = false;
            std::vector<std::string> paths =
                thinned_paths(std::move(self->batch), self->appeared, self->options.most_paths,
                              self->options.most_in_folder);
            self->batch.clear();
            self->appeared.clear();
            if (self->changed) self->changed(std::move(paths));
        });
    }
};

ProjectWatcher::ProjectWatcher(asio::io_context& io, fs::path root, Changed changed,
                               StateChanged state_changed, Options options)
    : impl_(std::make_shared<Impl>(io, std::move(root), std::move(changed),
                                   std::move(state_changed), options)) {
    impl_->start();
}

ProjectWatcher::~ProjectWatcher() {
    impl_->timer.cancel();
    impl_->stream.close();
}

const WatchState& ProjectWatcher::state() const {
    return impl_->state;
}

} // namespace rio
