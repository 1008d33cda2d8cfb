// What fs.changed's paths cover. A path names itself and, when it is a folder, everything in
// it; "." names the whole project. The watcher names a large burst by its folders
// (host/files/project_watcher.hpp), so whoever looks for one file in a change asks here rather
// than comparing paths.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rio {

// Whether `rel` (project-relative) is among `changed` or inside a folder among them.
bool changed_covers(const std::vector<std::string>& changed, std::string_view rel);

} // namespace rio
