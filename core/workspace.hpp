// The state the core owns for its clients: the open project and its open documents.
#pragma once

#include "core/document.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace rio {

class ProjectDir; // host/files/project_dir.hpp: the root as a descriptor, for I/O beneath it

// How the open project's folders are followed for changes other programs make
// (ops/project_watch): project.info's `watch`.
struct WatchState {
    std::uint64_t folders = 0;
    bool complete = false;
    std::string problem; // "" while every folder is watched
};

struct Workspace {
    std::optional<std::filesystem::path> root; // canonical; empty when no project is open
    std::shared_ptr<const ProjectDir> dir;     // set with root
    std::map<std::string, Document, std::less<>> buffers;
    WatchState watch;

    bool any_dirty() const {
        for (const auto& [path, doc] : buffers)
            if (doc.dirty()) return true;
        return false;
    }
};

} // namespace rio
