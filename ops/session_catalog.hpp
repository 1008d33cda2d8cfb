// The saved sessions as agent.sessions.list and agent.session.resume see them: each file
// read and replayed, a torn tail dropped (and kept aside), the project checked.
#pragma once

#include "core/agent/session_record.hpp"
#include "host/store/session_files.hpp"
#include "protocol/messages.hpp"

#include <optional>
#include <string>
#include <vector>

namespace rio {

SessionInfo session_info(const RestoredSession& session);

// Newest update first; only `project`'s sessions unless it is nullopt. Files that cannot be
// read are left out.
SessionsListResult list_sessions(const UserDirs& dirs, const std::optional<std::string>& project);

// The ids of `project`'s sessions, the file written last first, each known by its header
// alone: what opening a project resumes (issue 46) without reading every conversation through.
std::vector<std::string> project_sessions_newest_first(const UserDirs& dirs,
                                                       const std::string& project);

struct OpenedSession {
    SessionReplay replay;
    SessionWriter writer; // appends after the valid prefix
    std::string warning;  // what was dropped, "" when nothing was
};
// A session of `project` ("" for none), ready to continue.
Result<OpenedSession> open_session(const UserDirs& dirs, const std::string& id,
                                   const std::string& project);

} // namespace rio
