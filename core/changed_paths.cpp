#include "core/changed_paths.hpp"

#include <algorithm>

namespace rio {

bool changed_covers(const std::vector<std::string>& changed, std::string_view rel) {
    return std::any_of(changed.begin(), changed.end(), [rel](const std::string& path) {
        return path == "." || rel == path ||
               (rel.size() > path.size() && rel.starts_with(path) && rel[path.size()] == '/');
    });
}

} // namespace rio
