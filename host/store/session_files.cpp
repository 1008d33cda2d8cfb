#include "host/store/session_files.hpp"

#include "host/files/files.hpp"
#include "protocol/json_parse.hpp"

#include <condition_variable>
#include <ctime>
#include <fcntl.h>
#include <mutex>
#include <random>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace rio {

std::filesystem::path sessions_folder(const UserDirs& dirs) {
    return dirs.state / "sessions";
}

std::filesystem::path session_path(const UserDirs& dirs, const std::string& id) {
    return sessions_folder(dirs) / (id + ".jsonl");
}

std::string new_session_id(std::chrono::system_clock::time_point now) {
    std::time_t t = std::chrono::system_clock::to_time_t(now);
    std::tm utc{};
    gmtime_r(&t, &utc);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &utc);
    std::random_device random;
    char tail[8];
    std::snprintf(tail, sizeof tail, "-%04x", static_cast<unsigned>(random() & 0xffff));
    return std::string(stamp) + tail;
}

bool valid_session_id(const std::string& id) {
    if (id.empty() || id.size() > 64) return false;
    for (char c : id)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-') return false;
    return true;
}

// A torn line is named by its kind when its start survived: a compaction record holds the
// whole conversation, so losing one says more than losing a message.
static std::string torn_kind(std::string_view line) {
    // Keys are written sorted, so a compaction line begins with its approved_plan.
    bool compaction = line.rfind("{\"approved_plan\":", 0) == 0 ||
                      line.substr(0, 40).find("\"type\":\"compacted\"") != std::string_view::npos;
    return compaction ? " (a compaction record; the conversation is resumed as it was before it)"
                      : "";
}

namespace {

// The sessions folder, open: every file in it is opened beneath it with O_NOFOLLOW, so a
// symlink planted there (`<id>.jsonl.dropped` pointing elsewhere) is refused, never followed.
Result<UniqueFd> open_sessions_folder(const std::filesystem::path& folder) {
    int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return errno_error(errno, "open", folder.string());
    return UniqueFd(fd);
}

Result<UniqueFd> open_session_file(const std::filesystem::path& path, int flags, mode_t mode = 0) {
    auto folder = open_sessions_folder(path.parent_path());
    if (!folder) return folder.error();
    int fd = ::openat(folder->fd, path.filename().c_str(), flags | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd < 0) {
        int err = errno;
        if (err == ELOOP)
            return make_error(ErrorCode::refused,
                              path.string() + " is a symbolic link; rio writes its sessions "
                                              "only into files of its own");
        return errno_error(err, "open", path.string());
    }
    return UniqueFd(fd);
}

} // namespace

Result<SessionLines> read_session_lines(const std::filesystem::path& path) {
    auto file = open_session_file(path, O_RDONLY | O_NONBLOCK);
    if (!file) return file.error();
    auto bytes = read_all(file->fd, path.string());
    if (!bytes) return bytes.error();
    SessionLines out;
    std::size_t start = 0;
    while (start < bytes->size()) {
        std::size_t end = bytes->find('\n', start);
        if (end == std::string::npos) {
            out.problem = "the last line is incomplete (the writer was stopped mid-line)" +
                          torn_kind(std::string_view(*bytes).substr(start));
            break;
        }
        auto line = parse_json(std::string_view(*bytes).substr(start, end - start));
        if (!line || !line->is_object()) {
            out.problem = "line " + std::to_string(out.lines.size() + 1) + " is not a JSON object" +
                          torn_kind(std::string_view(*bytes).substr(start, end - start));
            break;
        }
        out.lines.push_back(std::move(*line));
        start = end + 1;
        out.ends.push_back(start);
    }
    out.bytes = std::move(*bytes);
    return out;
}

std::optional<nlohmann::json> read_session_header(const std::filesystem::path& path) {
    auto file = open_session_file(path, O_RDONLY | O_NONBLOCK);
    if (!file) return std::nullopt;
    constexpr std::size_t most = 64 * 1024;
    std::string bytes;
    char chunk[4096];
    while (bytes.size() < most && bytes.find('\n') == std::string::npos) {
        const ssize_t n = ::read(file->fd, chunk, sizeof chunk);
        if (n <= 0) break;
        bytes.append(chunk, static_cast<std::size_t>(n));
    }
    const std::size_t end = bytes.find('\n');
    if (end == std::string::npos) return std::nullopt;
    auto line = parse_json(std::string_view(bytes).substr(0, end));
    if (!line || !line->is_object()) return std::nullopt;
    return std::move(*line);
}

// Syncs the file after each append, off the caller's thread; appends that come while a sync
// runs share the next one. The last one runs before the writer closes the file.
struct SessionWriter::Syncer {
    explicit Syncer(int fd) : fd(fd), thread([this] { run(); }) {}
    ~Syncer() {
        {
            std::lock_guard lock(mutex);
            done = true;
        }
        wake.notify_one();
        thread.join();
    }
    void poke() {
        {
            std::lock_guard lock(mutex);
            dirty = true;
        }
        wake.notify_one();
    }
    void run() {
        std::unique_lock lock(mutex);
        for (;;) {
            wake.wait(lock, [this] { return dirty || done; });
            if (!dirty) return;
            dirty = false;
            lock.unlock();
            ::fdatasync(fd);
            lock.lock();
        }
    }

    int fd;
    std::mutex mutex;
    std::condition_variable wake;
    bool dirty = false, done = false;
    std::thread thread; // last: started once the rest is ready
};

SessionWriter::SessionWriter(UniqueFd fd, std::filesystem::path path)
    : fd_(std::move(fd)), path_(std::move(path)), syncer_(std::make_unique<Syncer>(fd_.fd)) {}
SessionWriter::SessionWriter(SessionWriter&&) noexcept = default;
SessionWriter& SessionWriter::operator=(SessionWriter&& other) noexcept {
    syncer_.reset(); // this file's last sync, before its descriptor goes
    fd_ = std::move(other.fd_);
    path_ = std::move(other.path_);
    syncer_ = std::move(other.syncer_);
    return *this;
}
SessionWriter::~SessionWriter() = default;

namespace {

Status make_private_folder(const std::filesystem::path& folder) {
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    if (ec)
        return make_error(ErrorCode::io_error,
                          "cannot create " + folder.string() + ": " + ec.message());
    if (::chmod(folder.c_str(), 0700) != 0) return errno_error(errno, "protect", folder.string());
    return Ok{};
}

} // namespace

Result<SessionWriter> SessionWriter::create(const std::filesystem::path& path) {
    if (Status s = make_private_folder(path.parent_path()); !s) return s.error();
    auto fd = open_session_file(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND, 0600);
    if (!fd) return fd.error();
    return SessionWriter(std::move(*fd), path);
}

Result<SessionWriter> SessionWriter::reopen(const std::filesystem::path& path,
                                            const SessionLines& file, std::size_t valid_bytes) {
    auto owned = open_session_file(path, O_WRONLY | O_APPEND);
    if (!owned) return owned.error();
    struct stat st {};
    if (::fstat(owned->fd, &st) != 0 || !S_ISREG(st.st_mode))
        return make_error(ErrorCode::refused, path.string() + " is not a regular file");
    if (valid_bytes < file.bytes.size()) {
        std::filesystem::path aside = path.string() + ".dropped";
        auto kept = open_session_file(aside, O_WRONLY | O_CREAT | O_APPEND, 0600);
        if (!kept) return kept.error();
        std::string_view tail = std::string_view(file.bytes).substr(valid_bytes);
        if (Status s = SessionWriter(std::move(*kept), aside).append(tail); !s) return s.error();
        if (::ftruncate(owned->fd, static_cast<off_t>(valid_bytes)) != 0)
            return errno_error(errno, "truncate", path.string());
    }
    return SessionWriter(std::move(*owned), path);
}

Status SessionWriter::append(std::string_view lines) {
    std::string_view rest = lines;
    while (!rest.empty()) {
        ssize_t n = ::write(fd_.fd, rest.data(), rest.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return errno_error(errno, "write", path_.string());
        rest.remove_prefix(static_cast<std::size_t>(n));
    }
    syncer_->poke();
    return Ok{};
}

} // namespace rio
