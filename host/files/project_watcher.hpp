// Follows a project's folders with inotify, for the changes other programs make: every folder
// but `.git` and those .gitignore (or .git/info/exclude) excludes (`.rio` always: what it
// holds changes what the project grants), and new folders as they appear. Changed paths go out together a short while after the first of a burst. All of it
// runs on the io_context's thread without blocking it: the folders are listed a few dozen
// per handler, and events are read only when the descriptor is readable.
#pragma once

#include "core/workspace.hpp"

#include <asio/io_context.hpp>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace rio {

class ProjectWatcher {
public:
    struct Options {
        // How long after the first change of a burst its paths are reported.
        std::chrono::milliseconds settle{50};
        // Folders watched at most, as if the kernel allowed no more (the tests' limit); the
        // kernel's own limit (fs.inotify.max_user_watches) applies anyway.
        std::size_t max_folders = std::numeric_limits<std::size_t>::max();
    };
    // Project-relative paths, sorted, each an entry of a watched folder that was created,
    // written, removed, renamed or had its permissions changed; "." when events were lost
    // (the kernel's queue overflowed, the project folder itself went away).
    using Changed = std::function<void(std::vector<std::string> paths)>;
    // The first pass over the project finished, or watching ran into a problem.
    using StateChanged = std::function<void(const WatchState& state)>;

    // `root` is canonical. Callbacks run from the io_context, never from the constructor.
    ProjectWatcher(asio::io_context& io, std::filesystem::path root, Changed changed,
                   StateChanged state_changed, Options options);
    ~ProjectWatcher();
    ProjectWatcher(const ProjectWatcher&) = delete;
    ProjectWatcher& operator=(const ProjectWatcher&) = delete;

    const WatchState& state() const;

private:
    struct Impl;
    // Shared with the pending handlers, which hold it weakly: a handler that runs after the
    // watcher is gone does nothing.
    std::shared_ptr<Impl> impl_;
};

} // namespace rio
