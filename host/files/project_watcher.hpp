// Follows a project's folders with inotify, for the changes other programs make: every folder
// but `.git` and those .gitignore (or .git/info/exclude) excludes (`.rio` always: what it
// holds changes what the project grants), and new folders as they appear. Changed paths go
// out together a short while after the first of a burst, named by folders where they can be:
// a folder that appeared during the burst, or had many entries change, stands for them
// (`npm install` writing 50,000 files is a few thousand names), and at most `most_paths` go
// out at once. All of it runs
// on the io_context's thread without blocking it: the folders are listed a few dozen per
// handler, and events are read a few buffers per handler when the descriptor is readable.
#pragma once

#include "core/workspace.hpp"

#include <asio/io_context.hpp>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <limits>
#include <memory>
#include <set>
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
        // Paths one report names at most, and entries of one folder; see thinned_paths.
        std::size_t most_paths = 1000;
        std::size_t most_in_folder = 20;
    };
    // Project-relative paths, sorted, each an entry of a watched folder that was created,
    // written, removed, renamed or had its permissions changed; "." when events were lost
    // (the kernel's queue overflowed, the project folder itself went away). A folder's path
    // may stand for everything in it (core/changed_paths.hpp).
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

// A burst's paths, at most `most` of them: what is in a folder that appeared during the burst
// goes with the folder's name, as do a folder's entries when more than `most_in_folder` of
// them changed (not the top level's); then, while still too many, the deepest paths give way
// to their folders, down to "." (anything may have changed).
std::vector<std::string> thinned_paths(std::set<std::string> paths,
                                       const std::set<std::string>& appeared, std::size_t most,
                                       std::size_t most_in_folder);

} // namespace rio
