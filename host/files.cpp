#include "host/files.hpp"

#include "host/unique_fd.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <random>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace rio {
namespace {

Status write_all(int fd, std::string_view bytes) {
    while (!bytes.empty()) {
        ssize_t n = ::write(fd, bytes.data(), bytes.size());
        if (n < 0) {
            if (errno == EINTR) continue;
            return make_error(ErrorCode::io_error, std::strerror(errno));
        }
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return Ok{};
}

// Creates the temporary file with mode 0666 so the umask applies as for any new file.
Result<std::filesystem::path> create_temp_beside(const std::filesystem::path& path, int& fd_out) {
    std::random_device seed;
    std::mt19937_64 rng(seed());
    for (int attempt = 0; attempt < 100; ++attempt) {
        auto temp = path.parent_path() /
                    ("." + path.filename().string() + ".rio-" + std::to_string(rng() % 1000000));
        int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            fd_out = fd;
            return temp;
        }
        if (errno != EEXIST) return make_error(ErrorCode::io_error, std::strerror(errno));
    }
    return make_error(ErrorCode::io_error, "could not find a free temporary file name");
}

// Makes the rename durable. Best effort: once rename succeeded the new bytes are what every
// reader sees, so reporting the save as failed would be the bigger lie.
void fsync_dir(const std::filesystem::path& dir) {
    UniqueFd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (fd.fd >= 0) (void)::fsync(fd.fd);
}

} // namespace

Error errno_error(int err, std::string_view action, std::string_view name) {
    std::string subject(name);
    switch (err) {
    case ENOENT:
    case ENOTDIR:
        return make_error(ErrorCode::not_found, "no such file or folder: " + subject);
    case EISDIR:
        return make_error(ErrorCode::bad_request, subject + " is a folder, not a file");
    default:
        return make_error(ErrorCode::io_error, "cannot " + std::string(action) + " " + subject +
                                                   ": " + std::strerror(err));
    }
}

Result<std::string> read_file(const std::filesystem::path& path, std::string_view name) {
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (fd.fd < 0) return errno_error(errno, "read", name);
    struct stat st {};
    if (::fstat(fd.fd, &st) != 0) return errno_error(errno, "read", name);
    if (S_ISDIR(st.st_mode)) return errno_error(EISDIR, "read", name);
    if (!S_ISREG(st.st_mode))
        return make_error(ErrorCode::refused, std::string(name) + " is not a regular file");
    if (static_cast<std::uint64_t>(st.st_size) > max_file_bytes)
        return make_error(ErrorCode::refused,
                          std::string(name) + " is too large (" + std::to_string(st.st_size) +
                              " bytes; the limit is " + std::to_string(max_file_bytes) + ")");
    std::string bytes;
    bytes.resize(static_cast<std::size_t>(st.st_size));
    std::size_t got = 0;
    for (;;) {
        if (got == bytes.size()) bytes.resize(std::min(max_file_bytes + 1, got * 2 + 4096));
        ssize_t n = ::read(fd.fd, bytes.data() + got, bytes.size() - got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return errno_error(errno, "read", name);
        if (n == 0) break;
        got += static_cast<std::size_t>(n);
        if (got > max_file_bytes)
            return make_error(ErrorCode::refused, std::string(name) + " grew past the size limit");
    }
    bytes.resize(got);
    return bytes;
}

Status write_file_atomic(const std::filesystem::path& path, std::string_view bytes,
                         std::string_view name) {
    auto failed = [&](const Error& e) {
        return make_error(ErrorCode::io_error,
                          "cannot save " + std::string(name) + ": " + e.message);
    };
    struct stat original {};
    bool existed = ::stat(path.c_str(), &original) == 0;
    if (!existed && errno != ENOENT) return errno_error(errno, "save", name);
    if (existed && !S_ISREG(original.st_mode))
        return make_error(ErrorCode::refused, std::string(name) + " is not a regular file");

    int raw_fd = -1;
    auto temp = create_temp_beside(path, raw_fd);
    if (!temp) return failed(temp.error());
    UniqueFd fd(raw_fd);
    auto discard = [&](const Error& e) {
        ::unlink(temp->c_str());
        return failed(e);
    };

    if (existed) {
        if (::fchmod(fd.fd, original.st_mode & 07777) != 0)
            return discard(make_error(ErrorCode::io_error, std::strerror(errno)));
        // Only root can give a file away; for everyone else the owner is already theirs.
        if (::geteuid() == 0) (void)!::fchown(fd.fd, original.st_uid, original.st_gid);
    }
    if (Status s = write_all(fd.fd, bytes); !s) return discard(s.error());
    if (::fsync(fd.fd) != 0) return discard(make_error(ErrorCode::io_error, std::strerror(errno)));
    if (::close(fd.release()) != 0)
        return discard(make_error(ErrorCode::io_error, std::strerror(errno)));
    if (::rename(temp->c_str(), path.c_str()) != 0)
        return discard(make_error(ErrorCode::io_error, std::strerror(errno)));
    fsync_dir(path.parent_path());
    return Ok{};
}

Result<std::vector<DirEntry>> list_dir(const std::filesystem::path& path, std::string_view name) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::directory_iterator it(path, ec);
    if (ec) return errno_error(ec.value(), "list", name);
    std::vector<DirEntry> entries;
    for (; it != fs::directory_iterator(); it.increment(ec)) {
        if (ec) return errno_error(ec.value(), "list", name);
        DirEntry entry;
        entry.name = it->path().filename().string();
        entry.link = it->is_symlink(ec);
        fs::file_status target = it->status(ec); // follows links; a dangling one is "other"
        if (fs::is_directory(target)) {
            entry.type = "dir";
        } else if (fs::is_regular_file(target)) {
            entry.type = "file";
            entry.size = it->file_size(ec);
        } else {
            entry.type = "other";
        }
        ec.clear();
        entries.push_back(std::move(entry));
    }
    std::sort(entries.begin(), entries.end(), [](const DirEntry& a, const DirEntry& b) {
        bool a_dir = a.type == "dir", b_dir = b.type == "dir";
        return a_dir != b_dir ? a_dir : a.name < b.name;
    });
    return entries;
}

} // namespace rio
