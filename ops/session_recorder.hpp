// Saves the loop's conversation as it goes (DESIGN §14): after every loop operation it
// appends what the loop recorded since the last one — entries, mode changes, the pending
// proposal — to the session's file. The loop knows nothing of files; this only reads it.
#pragma once

#include "core/agent/loop.hpp"
#include "host/store/session_files.hpp"

#include <functional>
#include <optional>
#include <string>

namespace rio {

class SessionRecorder {
public:
    using Clock = std::function<std::chrono::system_clock::time_point()>;
    // `filter` runs over every line before it is written (keys out).
    SessionRecorder(UserDirs dirs, Clock now, std::function<void(std::string&)> filter);

    // The session the loop's conversation goes to; its file appears with the first entry.
    const std::string& id() const { return id_; }
    // Why the conversation is not being saved, "" while it is.
    const std::string& problem() const { return problem_; }

    // Appends what changed. Returns true when the loop began a new conversation (reset, a
    // fresh context), which gets a new session: the caller tells the loop its id.
    bool sync(const AgentLoop& loop, const std::string& project);
    // Starts a new session (id only, no file yet).
    void start_new();
    // Goes on appending to a resumed session's file.
    void adopt(const RestoredSession& session, SessionWriter writer);
    // While paused nothing is written: a core shutting down stops its turn, but the session
    // keeps what was pending so a resume can ask again.
    void pause() { paused_ = true; }

private:
    std::vector<nlohmann::json> changes(const AgentLoop& loop, const std::string& project,
                                        const std::string& time);
    void write(const std::vector<nlohmann::json>& lines);

    UserDirs dirs_;
    Clock now_;
    std::function<void(std::string&)> filter_;
    std::string id_, problem_;
    std::optional<SessionWriter> writer_;
    Conversation written_; // the entries on file, as the loop holds them
    Mode mode_ = Mode::build;
    std::string pending_;             // "turn/id" of the proposal on file, "" for none
    std::uint64_t compactions_ = 0;   // the loop's count when the file last caught up
    std::uint64_t plan_revision_ = 0; // the loop's plan revision when the file last caught up
    bool paused_ = false;
};

} // namespace rio
