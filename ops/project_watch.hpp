// The core's side of following the disk: watches the open project (host/project_watcher),
// tells every client what other programs changed (fs.changed), brings open buffers along
// (ops/buffer_disk), and leaves out the core's own writes, which it announced already.
#pragma once

#include "core/workspace.hpp"
#include "host/files/project_watcher.hpp"
#include "protocol/core_event.hpp"

#include <asio/io_context.hpp>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace rio {

// fs.watch's params and project.info's `watch`.
WatchInfo watch_info(const WatchState& state);

class ProjectWatch {
public:
    ProjectWatch(asio::io_context& io, Workspace& workspace, Emit emit,
                 ProjectWatcher::Options options = {});

    // After the project changed (opened, closed, another one): watches the new root, or none.
    void follow();
    // The core is exiting: the watcher's pending read and timer go, so they no longer hold
    // io.run() open, and no project is watched again.
    void stop();

    // What the core's own code emits through: each fs.changed it sends notes how the write
    // left the file, so the watcher's report of that same write is not sent again.
    Emit emitter();

    // Runs (from its own handler) with the paths of every fs.changed that goes out, the
    // core's own writes and everyone else's alike.
    void on_changed(std::function<void(const std::vector<std::string>&)> changed) {
        on_changed_ = std::move(changed);
    }

private:
    // Enough of a file's stat to tell the core's write from a later one by anyone else.
    struct Stamp {
        bool exists = false;
        std::uint64_t device = 0, inode = 0, size = 0;
        std::int64_t mtime_ns = 0, ctime_ns = 0;
        friend bool operator==(const Stamp&, const Stamp&) = default;
    };
    Stamp stamp_of(const std::string& rel) const;
    void note_own(const FsChangedEvent& changed);
    void changed(std::vector<std::string> paths);
    void state_changed(const WatchState& state);
    void tell_changed(std::vector<std::string> paths);

    asio::io_context& io_;
    Workspace& workspace_;
    Emit emit_;
    ProjectWatcher::Options options_;
    std::unique_ptr<ProjectWatcher> watcher_;
    std::filesystem::path watching_;
    std::unordered_map<std::string, Stamp> own_;
    std::function<void(const std::vector<std::string>&)> on_changed_;
    bool stopped_ = false;
};

} // namespace rio
