// The state the core owns for its clients: the open project and its open documents.
#pragma once

#include "core/document.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace rio {

struct Workspace {
    std::optional<std::filesystem::path> root; // canonical; empty when no project is open
    std::map<std::string, Document, std::less<>> buffers;

    bool any_dirty() const {
        for (const auto& [path, doc] : buffers)
            if (doc.dirty()) return true;
        return false;
    }
};

} // namespace rio
