#include "ops/project_watch.hpp"

#include "core/changed_paths.hpp"
#include "ops/buffer_disk.hpp"
#include "ops/project_access.hpp"

#include <algorithm>
#include <asio/post.hpp>
#include <sys/stat.h>

namespace rio {
namespace {

// Notes of the core's own writes kept at most; past it they are forgotten, and a write may
// be reported twice, never missed.
constexpr std::size_t max_own_writes = 4096;

} // namespace

WatchInfo watch_info(const WatchState& state) {
    WatchInfo info{state.folders, state.complete, std::nullopt};
    if (!state.problem.empty()) info.problem = state.problem;
    return info;
}

ProjectWatch::ProjectWatch(asio::io_context& io, Workspace& workspace, Emit emit,
                           ProjectWatcher::Options options)
    : io_(io), workspace_(workspace), emit_(std::move(emit)), options_(options) {}

void ProjectWatch::follow() {
    if (stopped_) return;
    std::filesystem::path root = workspace_.root.value_or(std::filesystem::path());
    if (watcher_ && root == watching_) return;
    watcher_.reset();
    own_.clear();
    workspace_.watch = WatchState{};
    watching_ = root;
    if (root.empty()) return;
    watcher_ = std::make_unique<ProjectWatcher>(
        io_, root, [this](std::vector<std::string> paths) { changed(std::move(paths)); },
        [this](const WatchState& state) { state_changed(state); }, options_);
}

void ProjectWatch::stop() {
    stopped_ = true;
    watcher_.reset();
}

Emit ProjectWatch::emitter() {
    return [this](const CoreEvent& event) {
        if (const auto* changed = std::get_if<FsChangedEvent>(&event)) {
            note_own(*changed);
            tell_changed(changed->paths);
        }
        emit_(event);
    };
}

// Later, from a handler of its own: the code that wrote may be in the middle of its work.
void ProjectWatch::tell_changed(std::vector<std::string> paths) {
    if (!on_changed_ || paths.empty()) return;
    asio::post(io_, [this, paths = std::move(paths)] {
        if (on_changed_) on_changed_(paths);
    });
}

ProjectWatch::Stamp ProjectWatch::stamp_of(const std::string& rel) const {
    struct stat st {};
    if (::lstat((watching_ / rel).c_str(), &st) != 0) return Stamp{};
    return Stamp{true,
                 static_cast<std::uint64_t>(st.st_dev),
                 static_cast<std::uint64_t>(st.st_ino),
                 static_cast<std::uint64_t>(st.st_size),
                 st.st_mtim.tv_sec * 1'000'000'000LL + st.st_mtim.tv_nsec,
                 st.st_ctim.tv_sec * 1'000'000'000LL + st.st_ctim.tv_nsec};
}

void ProjectWatch::note_own(const FsChangedEvent& changed) {
    if (!watcher_) return;
    if (own_.size() > max_own_writes) own_.clear();
    for (const std::string& path : changed.paths)
        own_[path] = stamp_of(path);
}

void ProjectWatch::changed(std::vector<std::string> paths) {
    if (watcher_) workspace_.watch = watcher_->state();
    // The core's own write, still as it left the file: announced when it was made.
    std::erase_if(paths, [this](const std::string& rel) {
        auto own = own_.find(rel);
        if (own == own_.end()) return false;
        if (own->second == stamp_of(rel)) return true;
        own_.erase(own);
        return false;
    });
    if (paths.empty()) return;
    for (auto& [rel, doc] : workspace_.buffers) {
        if (!changed_covers(paths, rel)) continue;
        if (auto path = project_path(workspace_, rel)) follow_disk(doc, *path, emit_);
    }
    tell_changed(paths);
    emit_event(emit_, FsChangedEvent{std::move(paths)});
}

void ProjectWatch::state_changed(const WatchState& state) {
    workspace_.watch = state;
    // A watch that works needs no word; project.info says how far the first pass got.
    if (!state.problem.empty()) emit_event(emit_, watch_info(state));
}

} // namespace rio
