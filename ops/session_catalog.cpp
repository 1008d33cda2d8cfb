#include "ops/session_catalog.hpp"

#include <algorithm>

namespace rio {

namespace {

// From the file's header line alone. Any file in the folder may be anything: only strings
// are compared.
bool belongs_to(const std::filesystem::path& file, const std::string& project) {
    auto header = read_session_header(file);
    if (!header) return false;
    const auto type = header->find("type"), owner = header->find("project");
    return type != header->end() && *type == "session" && owner != header->end() &&
           owner->is_string() && owner->get_ref<const std::string&>() == project;
}

} // namespace

SessionInfo session_info(const RestoredSession& s) {
    return SessionInfo{s.header.id, s.header.project, s.header.title,       s.header.created,
                       s.updated,   s.turn,           s.pending.has_value()};
}

SessionsListResult list_sessions(const UserDirs& dirs, const std::optional<std::string>& project) {
    SessionsListResult out;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(sessions_folder(dirs), ec)) {
        if (entry.path().extension() != ".jsonl") continue;
        // Another project's conversations are not read through.
        if (project && !belongs_to(entry.path(), *project)) continue;
        auto file = read_session_lines(entry.path());
        if (!file) continue;
        SessionReplay replay = replay_session(file->lines);
        if (replay.lines_used == 0) continue;
        out.sessions.push_back(session_info(replay.session));
    }
    std::sort(out.sessions.begin(), out.sessions.end(),
              [](const SessionInfo& a, const SessionInfo& b) {
                  return a.updated != b.updated ? a.updated > b.updated : a.id > b.id;
              });
    return out;
}

std::vector<std::string> project_sessions_newest_first(const UserDirs& dirs,
                                                       const std::string& project) {
    std::vector<std::pair<std::filesystem::file_time_type, std::string>> found;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(sessions_folder(dirs), ec)) {
        if (entry.path().extension() != ".jsonl") continue;
        const std::string id = entry.path().stem().string();
        if (!valid_session_id(id)) continue;
        if (!belongs_to(entry.path(), project)) continue;
        std::error_code stat_ec;
        found.emplace_back(entry.last_write_time(stat_ec), id);
    }
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a > b; });
    std::vector<std::string> ids;
    for (auto& [written, id] : found)
        ids.push_back(std::move(id));
    return ids;
}

Result<OpenedSession> open_session(const UserDirs& dirs, const std::string& id,
                                   const std::string& project) {
    if (!valid_session_id(id))
        return make_error(ErrorCode::bad_request,
                          "'" + id + "' is not a session id (letters, digits and '-')");
    auto path = session_path(dirs, id);
    auto file = read_session_lines(path);
    if (!file) {
        if (file.error().code == ErrorCode::not_found)
            return make_error(ErrorCode::not_found, "no session " + id + " (looked in " +
                                                        sessions_folder(dirs).string() + ")");
        return file.error();
    }
    SessionReplay replay = replay_session(file->lines);
    if (replay.lines_used == 0)
        return make_error(ErrorCode::bad_request,
                          "session " + id + " cannot be read: " + replay.problem);
    const std::string& owner = replay.session.header.project;
    if (owner != project)
        return make_error(
            ErrorCode::conflict,
            "session " + id + " belongs to " + (owner.empty() ? std::string("no project") : owner) +
                "; this core has " + (project.empty() ? "no project" : project) + " open");
    std::string problem = !replay.problem.empty() ? replay.problem : file->problem;
    std::size_t valid = file->ends[replay.lines_used - 1];
    std::string warning;
    if (valid < file->bytes.size())
        warning = "the session's last " + std::to_string(file->bytes.size() - valid) +
                  " bytes could not be read (" + problem + "); they were moved to " +
                  path.string() + ".dropped";
    auto writer = SessionWriter::reopen(path, *file, valid);
    if (!writer) return writer.error();
    return OpenedSession{std::move(replay), std::move(*writer), std::move(warning)};
}

} // namespace rio
