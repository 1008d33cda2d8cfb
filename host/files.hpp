// Filesystem adapters: whole-file reads, atomic writes and directory listings, with errno
// turned into protocol errors that name the project-relative path.
#pragma once

#include "core/error.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace rio {

inline constexpr std::size_t max_file_bytes = 64u * 1024 * 1024;

// `name` is how messages refer to the file (the project-relative path).
Error errno_error(int err, std::string_view action, std::string_view name);

Result<std::string> read_file(const std::filesystem::path& path, std::string_view name);

// Writes through a temporary file in the same folder, fsyncs it, renames it over `path`
// and fsyncs the folder, so a reader sees the old bytes or the new ones, never a mix. An
// existing file keeps its permission bits (and owner, where allowed); on failure the
// original is untouched and the temporary file is removed.
Status write_file_atomic(const std::filesystem::path& path, std::string_view bytes,
                         std::string_view name);

struct DirEntry {
    std::string name;
    std::string type; // "dir", "file" or "other" (a symlink counts as what it points to)
    bool link = false;
    std::uint64_t size = 0; // files only
};

// Folders first, then files, each sorted by name.
Result<std::vector<DirEntry>> list_dir(const std::filesystem::path& path, std::string_view name);

} // namespace rio
