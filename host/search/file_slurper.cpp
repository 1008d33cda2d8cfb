#include "host/search/file_slurper.hpp"

#include "host/files/files.hpp"
#include "io/unique_fd.hpp"

#include <cerrno>
#include <fcntl.h>
#include <new>
#include <sys/stat.h>
#include <unistd.h>

namespace rio {
namespace {

// Most source files fit; a larger one costs one fstat and a bigger buffer.
constexpr std::size_t initial_capacity = std::size_t{256} * 1024;

ssize_t read_once(int fd, char* into, std::size_t size) {
    for (;;) {
        ssize_t n = ::read(fd, into, size);
        if (n >= 0 || errno != EINTR) return n;
    }
}

} // namespace

bool FileSlurper::reserve(std::size_t capacity, std::size_t keep) {
    if (capacity <= capacity_) return true;
    std::unique_ptr<char[]> bigger(new (std::nothrow) char[capacity]);
    if (!bigger) return false;
    std::copy(buffer_.get(), buffer_.get() + keep, bigger.get());
    buffer_ = std::move(bigger);
    capacity_ = capacity;
    return true;
}

std::optional<std::string_view> FileSlurper::read(int dir_fd, const char* path) {
    if (!reserve(initial_capacity, 0)) return std::nullopt;
    // O_NONBLOCK: a file swapped for a FIFO since the walk saw it must not hang the search.
    UniqueFd fd(::openat(dir_fd, path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
    if (fd.fd < 0) return std::nullopt;
    // A regular file fills a read but at its end, so a short first read is the whole
    // file: no fstat, and no second read to see the end.
    ssize_t first = read_once(fd.fd, buffer_.get(), capacity_);
    if (first < 0) return std::nullopt;
    auto size = static_cast<std::size_t>(first);
    if (size < capacity_) return std::string_view(buffer_.get(), size);

    struct stat st {};
    if (::fstat(fd.fd, &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
    auto expected = static_cast<std::uint64_t>(st.st_size);
    if (expected > max_file_bytes) return std::nullopt;
    for (;;) {
        // Room for one byte more than expected, to see the end (or that the file grew).
        std::size_t want = std::max(static_cast<std::size_t>(expected), size) + 1;
        if (!reserve(std::max(want, std::min(2 * capacity_, max_file_bytes + 1)), size))
            return std::nullopt;
        ssize_t more = read_once(fd.fd, buffer_.get() + size, capacity_ - size);
        if (more < 0) return std::nullopt;
        if (more == 0) return std::string_view(buffer_.get(), size);
        size += static_cast<std::size_t>(more);
        if (size > max_file_bytes) return std::nullopt;
    }
}

} // namespace rio
