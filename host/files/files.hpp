// Filesystem adapters: whole-file reads, atomic writes and directory listings, with errno
// turned into protocol errors that name the project-relative path.
#pragma once

#include "protocol/closed_sets.hpp"
#include "protocol/error.hpp"

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

// Reads a whole regular file from a descriptor opened for reading. Anything else — a FIFO, a
// device, a socket — is refused before a byte is read, so nothing can block the core.
Result<std::string> read_all(int fd, std::string_view name);

// Opens with O_NONBLOCK (a FIFO's open would otherwise wait for a writer), then read_all.
Result<std::string> read_file(const std::filesystem::path& path, std::string_view name);

// Where an atomic write lands: a folder, open, and the file's name in it.
struct WriteTarget {
    int folder_fd = -1;
    std::filesystem::path folder; // the same folder by path, for the journal
    std::string leaf;
};

// Writes through a temporary file in the same folder, fsyncs it, renames it over the file
// and fsyncs the folder, so a reader sees the old bytes or the new ones, never a mix. An
// existing file keeps its permission bits (and owner, where allowed); on failure the
// original is untouched and the temporary file is removed. While the temporary file exists
// its path is noted in `journal` (when given), so that if the process is killed meanwhile
// the next start removes it (remove_stale_temp_files).
Status write_file_atomic(const WriteTarget& target, std::string_view bytes, std::string_view name,
                         const std::filesystem::path& journal = {});
Status write_file_atomic(const std::filesystem::path& path, std::string_view bytes,
                         std::string_view name);

// Whether a file name has the shape of rio's temporary files, ".<name>.rio-<digits>".
bool is_rio_temp_name(std::string_view leaf);

// Removes the temporary files that writers which no longer run left behind, as their
// journal entries name them; returns how many were removed.
std::size_t remove_stale_temp_files(const std::filesystem::path& journal);

struct DirEntry {
    std::string name;
    EntryType type = EntryType::other; // a symlink counts as what it points to
    bool link = false;
    std::uint64_t size = 0; // files only
};

// A folder's entries, folders first, then files, each sorted by name. A name that is not
// valid UTF-8 cannot travel in JSON nor be named again by anyone who read it with U+FFFD in
// it, so it is left out (docs/decisions/0051): `left_out` has such names as shown, with U+FFFD.
struct DirListing {
    std::vector<DirEntry> entries;
    std::vector<std::string> left_out;
};

// Whether a file name can be listed: valid UTF-8 (see DirListing).
bool is_listable_name(std::string_view name);

// `fd` is an open folder; it is consumed.
Result<DirListing> list_dir(int fd, std::string_view name);
Result<DirListing> list_dir(const std::filesystem::path& path, std::string_view name);

} // namespace rio
