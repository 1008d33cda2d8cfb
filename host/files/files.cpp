#include "host/files/files.hpp"

#include "io/unique_fd.hpp"
#include "text/utf8.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <random>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace rio {
namespace {

constexpr std::string_view temp_marker = ".rio-";

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

// The journal entry of one temporary file: "<pid>-<n>", holding the file's path. Written
// before the file is created and removed after it is gone, so there is no moment at which
// a kill leaves the file without its entry. No fsync: it must survive the process being
// killed, which the page cache does.
class JournalEntry {
public:
    JournalEntry() = default;
    JournalEntry(const std::filesystem::path& journal, unsigned long n,
                 const std::filesystem::path& temp) {
        if (journal.empty()) return;
        std::error_code ec;
        std::filesystem::create_directories(journal, ec);
        entry_ = journal / (std::to_string(::getpid()) + "-" + std::to_string(n));
        UniqueFd fd(::open(entry_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
        if (fd.fd < 0 || !write_all(fd.fd, temp.string())) entry_.clear();
    }
    JournalEntry(JournalEntry&& other) noexcept : entry_(std::exchange(other.entry_, {})) {}
    JournalEntry& operator=(JournalEntry&& other) noexcept {
        std::swap(entry_, other.entry_);
        return *this;
    }
    ~JournalEntry() {
        if (!entry_.empty()) ::unlink(entry_.c_str());
    }

private:
    std::filesystem::path entry_;
};

struct Temp {
    UniqueFd fd;
    std::string leaf;
    JournalEntry noted;
};

// Created with mode 0666 so the umask applies as for any new file.
Result<Temp> create_temp(const WriteTarget& target, const std::filesystem::path& journal) {
    std::random_device seed;
    std::mt19937_64 rng(seed());
    for (int attempt = 0; attempt < 100; ++attempt) {
        unsigned long n = rng() % 1000000;
        std::string leaf = "." + target.leaf + std::string(temp_marker) + std::to_string(n);
        JournalEntry noted(journal, n, target.folder / leaf);
        int fd = ::openat(target.folder_fd, leaf.c_str(),
                          O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
        if (fd >= 0) return Temp{UniqueFd(fd), std::move(leaf), std::move(noted)};
        if (errno != EEXIST) return make_error(ErrorCode::io_error, std::strerror(errno));
    }
    return make_error(ErrorCode::io_error, "could not find a free temporary file name");
}

bool process_alive(std::string_view pid_text) {
    int pid = 0;
    auto [end, ec] = std::from_chars(pid_text.data(), pid_text.data() + pid_text.size(), pid);
    if (ec != std::errc() || pid <= 0) return false;
    return ::kill(pid, 0) == 0 || errno == EPERM;
}

} // namespace

// ".<leaf>.rio-<n>": hidden, next to the file, and recognisable as rio's when stale.
bool is_rio_temp_name(std::string_view leaf) {
    std::size_t at = leaf.rfind(temp_marker);
    if (!leaf.starts_with('.') || at == std::string_view::npos || at < 2) return false;
    std::string_view digits = leaf.substr(at + temp_marker.size());
    return !digits.empty() && digits.find_first_not_of("0123456789") == std::string_view::npos;
}

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

Result<std::string> read_all(int fd, std::string_view name) {
    struct stat st {};
    if (::fstat(fd, &st) != 0) return errno_error(errno, "read", name);
    if (S_ISDIR(st.st_mode)) return errno_error(EISDIR, "read", name);
    if (!S_ISREG(st.st_mode))
        return make_error(ErrorCode::refused,
                          std::string(name) +
                              " is not a regular file (a pipe, socket or device); rio reads "
                              "only regular files");
    if (static_cast<std::uint64_t>(st.st_size) > max_file_bytes)
        return make_error(ErrorCode::refused,
                          std::string(name) + " is too large (" + std::to_string(st.st_size) +
                              " bytes; the limit is " + std::to_string(max_file_bytes) + ")");
    std::string bytes;
    bytes.resize(static_cast<std::size_t>(st.st_size));
    std::size_t got = 0;
    for (;;) {
        if (got == bytes.size()) bytes.resize(std::min(max_file_bytes + 1, got * 2 + 4096));
        ssize_t n = ::read(fd, bytes.data() + got, bytes.size() - got);
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

Result<std::string> read_file(const std::filesystem::path& path, std::string_view name) {
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
    if (fd.fd < 0) return errno_error(errno, "read", name);
    return read_all(fd.fd, name);
}

Status write_file_atomic(const WriteTarget& target, std::string_view bytes, std::string_view name,
                         const std::filesystem::path& journal) {
    auto failed = [&](const Error& e) {
        return make_error(ErrorCode::io_error,
                          "cannot save " + std::string(name) + ": " + e.message);
    };
    struct stat original {};
    bool existed =
        ::fstatat(target.folder_fd, target.leaf.c_str(), &original, AT_SYMLINK_NOFOLLOW) == 0;
    if (!existed && errno != ENOENT) return errno_error(errno, "save", name);
    if (existed && !S_ISREG(original.st_mode))
        return make_error(ErrorCode::refused, std::string(name) + " is not a regular file");

    auto temp = create_temp(target, journal);
    if (!temp) return failed(temp.error());
    auto discard = [&](const Error& e) {
        ::unlinkat(target.folder_fd, temp->leaf.c_str(), 0);
        return failed(e);
    };
    int fd = temp->fd.fd;
    if (existed) {
        if (::fchmod(fd, original.st_mode & 07777) != 0)
            return discard(make_error(ErrorCode::io_error, std::strerror(errno)));
        // Only root can give a file away; for everyone else the owner is already theirs.
        if (::geteuid() == 0) (void)!::fchown(fd, original.st_uid, original.st_gid);
    }
    if (Status s = write_all(fd, bytes); !s) return discard(s.error());
    if (::fsync(fd) != 0) return discard(make_error(ErrorCode::io_error, std::strerror(errno)));
    if (::close(temp->fd.release()) != 0)
        return discard(make_error(ErrorCode::io_error, std::strerror(errno)));
    if (::renameat(target.folder_fd, temp->leaf.c_str(), target.folder_fd, target.leaf.c_str()) !=
        0)
        return discard(make_error(ErrorCode::io_error, std::strerror(errno)));
    // Makes the rename durable. Best effort: once rename succeeded the new bytes are what
    // every reader sees, so reporting the save as failed would be the bigger lie.
    (void)::fsync(target.folder_fd);
    return Ok{};
}

Status write_file_atomic(const std::filesystem::path& path, std::string_view bytes,
                         std::string_view name) {
    std::filesystem::path folder = path.parent_path().empty() ? "." : path.parent_path();
    UniqueFd fd(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (fd.fd < 0)
        return make_error(ErrorCode::io_error,
                          "cannot save " + std::string(name) + ": " + std::strerror(errno));
    return write_file_atomic(WriteTarget{fd.fd, folder, path.filename().string()}, bytes, name);
}

std::size_t remove_stale_temp_files(const std::filesystem::path& journal) {
    std::size_t removed = 0;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(journal, ec), end; !ec && it != end;
         it.increment(ec)) {
        std::string entry = it->path().filename().string();
        if (process_alive(std::string_view(entry).substr(0, entry.find('-')))) continue;
        auto named = read_file(it->path(), entry);
        if (named) {
            std::filesystem::path temp(*named);
            struct stat st {};
            // Only ever a file rio named as its own temporary: the entry is not trusted
            // further than that.
            if (is_rio_temp_name(temp.filename().string()) && ::lstat(temp.c_str(), &st) == 0 &&
                S_ISREG(st.st_mode) && ::unlink(temp.c_str()) == 0)
                ++removed;
        }
        ::unlink(it->path().c_str());
    }
    return removed;
}

bool is_listable_name(std::string_view name) {
    return !find_invalid_utf8(name);
}

Result<DirListing> list_dir(int fd, std::string_view name) {
    DIR* dir = ::fdopendir(fd);
    if (!dir) {
        int err = errno;
        ::close(fd);
        return errno_error(err, "list", name);
    }
    DirListing listing;
    std::vector<DirEntry>& entries = listing.entries;
    errno = 0;
    while (const dirent* e = ::readdir(dir)) {
        std::string_view leaf = e->d_name;
        if (leaf == "." || leaf == "..") continue;
        if (!is_listable_name(leaf)) {
            listing.left_out.push_back(to_valid_utf8(leaf));
            continue;
        }
        DirEntry entry;
        entry.name = std::string(leaf);
        struct stat st {};
        entry.link = ::fstatat(::dirfd(dir), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
                     S_ISLNK(st.st_mode);
        // A link counts as what it points to; a dangling one is "other".
        bool known = !entry.link || ::fstatat(::dirfd(dir), e->d_name, &st, 0) == 0;
        if (known && S_ISDIR(st.st_mode)) {
            entry.type = EntryType::dir;
        } else if (known && S_ISREG(st.st_mode)) {
            entry.type = EntryType::file;
            entry.size = static_cast<std::uint64_t>(st.st_size);
        } else {
            entry.type = EntryType::other;
        }
        entries.push_back(std::move(entry));
    }
    ::closedir(dir);
    std::sort(entries.begin(), entries.end(), [](const DirEntry& a, const DirEntry& b) {
        bool a_dir = a.type == EntryType::dir, b_dir = b.type == EntryType::dir;
        return a_dir != b_dir ? a_dir : a.name < b.name;
    });
    std::sort(listing.left_out.begin(), listing.left_out.end());
    return listing;
}

Result<DirListing> list_dir(const std::filesystem::path& path, std::string_view name) {
    int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return errno_error(errno, "list", name);
    return list_dir(fd, name);
}

} // namespace rio
