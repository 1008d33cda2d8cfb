// Reads whole files for the search, each into the same buffer. One read call takes a
// typical source file, no stat is needed until a file fills the buffer, and the buffer is
// reused, so nothing is allocated or zero-filled per file: the copy the kernel makes is
// left as the only cost that grows with the bytes searched.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string_view>

namespace rio {

class FileSlurper {
public:
    // The bytes of `path` (relative to the folder `dir_fd`, or absolute), valid until the
    // next call; nullopt if it cannot be read, is not a regular file, or is larger than
    // max_file_bytes.
    std::optional<std::string_view> read(int dir_fd, const char* path);

private:
    bool reserve(std::size_t capacity, std::size_t keep);

    std::unique_ptr<char[]> buffer_;
    std::size_t capacity_ = 0;
};

} // namespace rio
