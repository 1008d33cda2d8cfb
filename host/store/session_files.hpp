// The files behind sessions (DESIGN §14): `$XDG_STATE_HOME/rio/sessions/<id>.jsonl`, one JSON
// object per line, appended and fsynced at entry boundaries; folder 0700, files 0600. A core
// killed mid-write leaves at most a torn last line, which reading reports and drops.
#pragma once

#include "io/unique_fd.hpp"
#include "io/user_dirs.hpp"
#include "protocol/error.hpp"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace rio {

std::filesystem::path sessions_folder(const UserDirs& dirs);
std::filesystem::path session_path(const UserDirs& dirs, const std::string& id);

// Sortable and short enough to type: 20261201-155800-3fa2.
std::string new_session_id(std::chrono::system_clock::time_point now);
// A session id is only ever letters, digits and '-': anything else would name another file.
bool valid_session_id(const std::string& id);

struct SessionLines {
    std::string bytes;                 // the whole file
    std::vector<nlohmann::json> lines; // the valid prefix
    std::vector<std::size_t> ends;     // where each of them ends in `bytes` (after its '\n')
    std::string problem;               // why reading stopped before the end, "" if it did not
};
Result<SessionLines> read_session_lines(const std::filesystem::path& path);
// The file's first line alone (its header), when it is a JSON object within 64 KiB: enough to
// tell whose session it is without reading the conversation.
std::optional<nlohmann::json> read_session_header(const std::filesystem::path& path);

class SessionWriter {
public:
    // Creates the folder (0700) and a new file (0600); an existing file is refused.
    static Result<SessionWriter> create(const std::filesystem::path& path);
    // Opens an existing file for appending after cutting it to `valid_bytes`, so what comes
    // next starts on a line of its own. What is cut is kept beside it in <file>.dropped.
    static Result<SessionWriter> reopen(const std::filesystem::path& path, const SessionLines& file,
                                        std::size_t valid_bytes);

    // Writes whole lines (each ending in '\n'): once it returns they survive the process
    // being killed. The fdatasync that makes them survive a power cut too runs on a thread of
    // the writer's own, so the core's loop never waits on the disk (3 ms a line here).
    Status append(std::string_view lines);
    const std::filesystem::path& path() const { return path_; }

    SessionWriter(SessionWriter&&) noexcept;
    SessionWriter& operator=(SessionWriter&&) noexcept;
    ~SessionWriter();

private:
    struct Syncer;
    SessionWriter(UniqueFd fd, std::filesystem::path path);
    UniqueFd fd_;
    std::filesystem::path path_;
    std::unique_ptr<Syncer> syncer_; // declared last: joined before fd_ closes
};

} // namespace rio
