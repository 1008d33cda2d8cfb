#include "ops/session_recorder.hpp"

#include "core/agent/plan_file.hpp"

namespace rio {
namespace {

std::string pending_key(const std::optional<PendingStep>& step, std::uint64_t turn) {
    if (!step) return "";
    return std::to_string(turn) + "/" + step->proposal.id;
}

// Nothing changed when the same entries end the conversation: entries are only appended or,
// for the last one, replaced.
bool same_entries(const Conversation& now, const Conversation& written) {
    return now.size() == written.size() && (now.empty() || now.back() == written.back());
}

bool same_conversation(const Conversation& now, const Conversation& written) {
    return written.empty() ||
           (!now.empty() && now.size() >= written.size() && now.front() == written.front());
}

} // namespace

SessionRecorder::SessionRecorder(UserDirs dirs, Clock now, std::function<void(std::string&)> filter)
    : dirs_(std::move(dirs)), now_(std::move(now)), filter_(std::move(filter)) {
    start_new();
}

void SessionRecorder::start_new() {
    id_ = new_session_id(now_());
    writer_.reset();
    written_.clear();
    pending_.clear();
    problem_.clear();
}

void SessionRecorder::adopt(const RestoredSession& session, SessionWriter writer) {
    id_ = session.header.id;
    writer_ = std::move(writer);
    written_ = session.conversation;
    mode_ = session.mode;
    plan_revision_ = 0; // what a restored loop starts from
    pending_ = pending_key(session.pending, session.turn);
    problem_.clear();
}

bool SessionRecorder::sync(const AgentLoop& loop, const std::string& project) {
    if (paused_) return false;
    bool renewed = false;
    bool compacted = loop.compactions() != compactions_;
    if (!compacted && !same_conversation(loop.history(), written_)) {
        start_new();
        renewed = true;
    }
    std::string pending = pending_key(loop.pending_step(), loop.turn());
    // A rewind to the first message empties the conversation: the file says so, when there
    // is one (a compaction line with nothing in it), so a resume does not bring it back.
    if ((loop.history().empty() && (!compacted || !writer_)) ||
        (!compacted && same_entries(loop.history(), written_) && loop.mode() == mode_ &&
         pending == pending_ && loop.plan_revision() == plan_revision_)) {
        compactions_ = loop.compactions();
        plan_revision_ = loop.plan_revision();
        return renewed;
    }
    std::string time = iso_time(now_(), true);
    write(changes(loop, project, time));
    written_ = loop.history();
    mode_ = loop.mode();
    pending_ = pending;
    compactions_ = loop.compactions();
    plan_revision_ = loop.plan_revision();
    return renewed;
}

std::vector<nlohmann::json> SessionRecorder::changes(const AgentLoop& loop,
                                                     const std::string& project,
                                                     const std::string& time) {
    const Conversation& now = loop.history();
    std::vector<nlohmann::json> lines;
    if (!writer_) {
        SessionHeader header{id_, project, session_title(now.front()->text), time};
        lines.push_back(header_line(header, loop.mode(), loop.auto_accept()));
    } else if (loop.mode() != mode_) {
        lines.push_back(mode_line(loop.mode(), loop.auto_accept(), time));
    }
    if (loop.compactions() != compactions_ && writer_) {
        lines.push_back(compacted_line(now, loop.turn(), loop.approved_plan(), loop.changed_files(),
                                       time, loop.turn_starts(), loop.rewind_floor()));
        written_ = now; // nothing below repeats an entry the line holds
    }
    std::size_t n = written_.size();
    if (n > 0 && now[n - 1] != written_[n - 1])
        lines.push_back(message_line(*now[n - 1], loop.turn(), true, time));
    for (std::size_t i = n; i < now.size(); ++i)
        lines.push_back(message_line(*now[i], loop.turn(), false, time));
    if (loop.plan_revision() != plan_revision_ || (!writer_ && loop.plan()))
        lines.push_back(plan_line(loop.plan() ? &*loop.plan() : nullptr, time));
    std::optional<PendingStep> step = loop.pending_step();
    if (pending_key(step, loop.turn()) != pending_)
        lines.push_back(pending_line(step ? &*step : nullptr, loop.turn(), time));
    return lines;
}

void SessionRecorder::write(const std::vector<nlohmann::json>& lines) {
    if (!writer_) {
        auto created = SessionWriter::create(session_path(dirs_, id_));
        if (!created) {
            problem_ = "the conversation is not being saved: " + created.error().message;
            return;
        }
        writer_ = std::move(*created);
    }
    std::string bytes;
    for (const nlohmann::json& line : lines)
        bytes += line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + '\n';
    if (filter_) filter_(bytes);
    if (Status s = writer_->append(bytes); !s)
        problem_ = "the conversation is not being saved: " + s.error().message;
    else
        problem_.clear();
}

} // namespace rio
