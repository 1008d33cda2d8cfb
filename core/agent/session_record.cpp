#include "core/agent/session_record.hpp"

#include "text/utf8.hpp"

namespace rio {
namespace {

using Json = nlohmann::json;

constexpr int format_version = 1;

Json outcome_json(const ToolOutcome& r) {
    Json j{{"id", r.call_id}, {"ok", !r.is_error}, {"content", r.content}};
    if (r.exit) j["exit"] = *r.exit;
    if (r.output) j["output"] = *r.output;
    return j;
}

ToolOutcome outcome_from(const Json& j) {
    ToolOutcome r{j.at("id").get<std::string>(), j.at("content").get<std::string>(),
                  !j.at("ok").get<bool>(), std::nullopt, std::nullopt};
    if (auto it = j.find("exit"); it != j.end()) r.exit = it->get<CommandExit>();
    if (auto it = j.find("output"); it != j.end() && it->is_string())
        r.output = it->get<std::string>();
    return r;
}

Json message_json(const Message& m) {
    Json j{{"role", m.role == Role::user ? "user" : "assistant"}, {"text", m.text}};
    if (!m.calls.empty()) {
        Json calls = Json::array();
        for (const ToolCall& c : m.calls)
            calls.push_back({{"id", c.id}, {"name", c.name}, {"input", c.input}});
        j["calls"] = std::move(calls);
    }
    if (!m.results.empty()) {
        Json results = Json::array();
        for (const ToolOutcome& r : m.results)
            results.push_back(outcome_json(r));
        j["results"] = std::move(results);
    }
    if (!m.kept.empty()) j["kept"] = m.kept;
    // The note names the mode the entry switched to, as the wire names modes.
    if (m.note != ModeNote::none)
        j["note"] = to_wire(m.note == ModeNote::plan ? Mode::plan : Mode::build);
    if (!m.model.empty()) j["model"] = m.model;
    return j;
}

// Throws nlohmann's exceptions on a wrong shape; replay_session turns them into `problem`.
Message message_from(const Json& j) {
    Message m;
    std::string role = j.at("role").get<std::string>();
    if (role != "user" && role != "assistant") throw std::invalid_argument("unknown role " + role);
    m.role = role == "user" ? Role::user : Role::assistant;
    m.text = j.at("text").get<std::string>();
    for (const Json& c : j.value("calls", Json::array()))
        m.calls.push_back(ToolCall{c.at("id").get<std::string>(), c.at("name").get<std::string>(),
                                   c.at("input")});
    for (const Json& r : j.value("results", Json::array()))
        m.results.push_back(outcome_from(r));
    for (const Json& k : j.value("kept", Json::array()))
        m.kept.push_back(k);
    if (std::optional<Mode> note = from_wire<Mode>(j.value("note", "")))
        m.note = *note == Mode::plan ? ModeNote::plan : ModeNote::build;
    if (auto it = j.find("model"); it != j.end() && it->is_string())
        m.model = it->get<std::string>();
    return m;
}

Mode mode_from(const Json& j) {
    auto mode = from_wire<Mode>(j.at("mode").get<std::string>());
    if (!mode) throw std::invalid_argument("unknown mode");
    return *mode;
}

// One entry after the header. Everything is read before anything changes, so a line that
// does not fit leaves `s` as it was.
void apply_line(const Json& line, RestoredSession& s) {
    std::string type = line.at("type").get<std::string>();
    std::string time = line.at("time").get<std::string>();
    if (type == "message") {
        auto m = std::make_shared<const Message>(message_from(line.at("message")));
        auto turn = line.at("turn").get<std::uint64_t>();
        bool replaces = line.value("replaces_last", false);
        if (replaces && s.conversation.empty()) throw std::invalid_argument("nothing to replace");
        // A turn's message: the first user text recorded in that turn (a later one is rio's
        // note within it), which agent.rewind can return to.
        if (m->role == Role::user && !m->text.empty() && turn > s.rewritten_at &&
            (s.turn_starts.empty() || s.turn_starts.back().turn != turn)) {
            TurnStart start{turn, s.conversation.size(), std::nullopt, m->text};
            if (replaces) {
                start.index = s.conversation.size() - 1;
                start.joined = *s.conversation.back();
                const std::string& before = s.conversation.back()->text;
                start.text = before.empty()
                                 ? m->text
                                 : m->text.substr(std::min(m->text.size(), before.size() + 2));
            }
            s.turn_starts.push_back(std::move(start));
        }
        if (replaces)
            s.conversation.back() = std::move(m);
        else
            s.conversation.push_back(std::move(m));
        s.turn = turn;
        s.pending.reset(); // the step went on
    } else if (type == "mode") {
        Mode mode = mode_from(line);
        s.auto_accept = line.at("auto_accept").get<bool>();
        s.mode = mode;
    } else if (type == "pending") {
        auto turn = line.at("turn").get<std::uint64_t>();
        const Json& proposal = line.at("proposal");
        std::optional<PendingStep> step;
        if (!proposal.is_null()) {
            step = PendingStep{{}, proposal.get<Proposal>()};
            for (const Json& r : line.at("results"))
                step->results.push_back(outcome_from(r));
        }
        s.pending = std::move(step);
        s.turn = turn;
    } else if (type == "plan") {
        const Json& plan = line.at("plan");
        std::optional<PlanTrack> track;
        if (!plan.is_null()) {
            track = track_from_json(plan);
            if (!track) throw std::invalid_argument("not a plan's track");
        }
        s.plan = std::move(track);
    } else if (type == "compacted") {
        Conversation conversation;
        for (const Json& m : line.at("conversation"))
            conversation.push_back(std::make_shared<const Message>(message_from(m)));
        std::vector<std::string> changed;
        for (const Json& f : line.value("changed_files", Json::array()))
            changed.push_back(f.get<std::string>());
        s.approved_plan = line.value("approved_plan", "");
        s.changed_files = std::move(changed);
        s.conversation = std::move(conversation);
        s.turn = line.at("turn").get<std::uint64_t>();
        s.turn_starts.clear(); // what came before is a summary (or a rewind kept some: below)
        s.rewritten_at = s.turn;
        for (const Json& t : line.value("turn_starts", Json::array()))
            s.turn_starts.push_back(
                TurnStart{t.at("turn").get<std::uint64_t>(), t.at("index").get<std::size_t>(),
                          t.contains("joined") ? std::optional<Message>(message_from(t["joined"]))
                                               : std::nullopt,
                          t.at("text").get<std::string>()});
        if (!s.turn_starts.empty()) s.rewritten_at = line.value("floor", std::uint64_t{0});
    } else {
        throw std::invalid_argument("unknown entry type '" + type + "'");
    }
    s.updated = std::move(time);
}

} // namespace

Json header_line(const SessionHeader& h, Mode mode, bool auto_accept) {
    return {{"type", "session"},     {"version", format_version}, {"id", h.id},
            {"project", h.project},  {"title", h.title},          {"time", h.created},
            {"mode", to_wire(mode)}, {"auto_accept", auto_accept}};
}

Json message_line(const Message& message, std::uint64_t turn, bool replaces_last,
                  const std::string& time) {
    Json j{{"type", "message"}, {"turn", turn}, {"time", time}, {"message", message_json(message)}};
    if (replaces_last) j["replaces_last"] = true;
    return j;
}

Json mode_line(Mode mode, bool auto_accept, const std::string& time) {
    return {
        {"type", "mode"}, {"mode", to_wire(mode)}, {"auto_accept", auto_accept}, {"time", time}};
}

Json plan_line(const PlanTrack* track, const std::string& time) {
    return {{"type", "plan"}, {"time", time}, {"plan", track ? track_json(*track) : Json()}};
}

Json compacted_line(const Conversation& conversation, std::uint64_t turn,
                    const std::string& approved_plan, const std::vector<std::string>& changed_files,
                    const std::string& time, const std::vector<TurnStart>& starts,
                    std::uint64_t floor) {
    Json messages = Json::array();
    for (const auto& m : conversation)
        messages.push_back(message_json(*m));
    Json line{{"type", "compacted"},
              {"turn", turn},
              {"time", time},
              {"conversation", std::move(messages)},
              {"approved_plan", approved_plan},
              {"changed_files", changed_files}};
    if (!starts.empty()) { // a rewind: the messages it kept can be returned to still
        Json kept = Json::array();
        for (const TurnStart& t : starts) {
            Json j{{"turn", t.turn}, {"index", t.index}, {"text", t.text}};
            if (t.joined) j["joined"] = message_json(*t.joined);
            kept.push_back(std::move(j));
        }
        line["turn_starts"] = std::move(kept);
        line["floor"] = floor;
    }
    return line;
}

Json pending_line(const PendingStep* step, std::uint64_t turn, const std::string& time) {
    Json j{{"type", "pending"}, {"turn", turn}, {"time", time}, {"proposal", nullptr}};
    if (step) {
        j["proposal"] = step->proposal;
        Json results = Json::array();
        for (const ToolOutcome& r : step->results)
            results.push_back(outcome_json(r));
        j["results"] = std::move(results);
    }
    return j;
}

SessionReplay replay_session(const std::vector<Json>& lines) {
    SessionReplay replay;
    RestoredSession& s = replay.session;
    try {
        if (lines.empty()) throw std::invalid_argument("the file is empty");
        const Json& h = lines.front();
        if (h.value("type", "") != "session") throw std::invalid_argument("no session header");
        if (h.at("version").get<int>() > format_version)
            throw std::invalid_argument("written by a newer rio (format " +
                                        std::to_string(h.at("version").get<int>()) + ")");
        s.header = {h.at("id").get<std::string>(), h.at("project").get<std::string>(),
                    h.at("title").get<std::string>(), h.at("time").get<std::string>()};
        s.updated = s.header.created;
        s.mode = mode_from(h);
        s.auto_accept = h.at("auto_accept").get<bool>();
        replay.lines_used = 1;
    } catch (const std::exception& e) {
        replay.problem = std::string("line 1: ") + e.what();
        return replay;
    }
    for (std::size_t i = 1; i < lines.size(); ++i) {
        try {
            apply_line(lines[i], s);
        } catch (const std::exception& e) {
            replay.problem = "line " + std::to_string(i + 1) + ": " + e.what();
            return replay;
        }
        replay.lines_used = i + 1;
    }
    return replay;
}

std::string session_title(const std::string& request) {
    std::size_t start = 0;
    std::string line;
    while (start <= request.size()) {
        std::size_t end = request.find('\n', start);
        if (end == std::string::npos) end = request.size();
        line = request.substr(start, end - start);
        auto first = line.find_first_not_of(" \t\r");
        if (first != std::string::npos) {
            line = line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
            break;
        }
        line.clear();
        start = end + 1;
    }
    constexpr std::size_t max = 80; // characters
    std::size_t chars = 0;
    for (std::size_t at = 0; at < line.size(); ++at) {
        if (!is_char_boundary(line, at)) continue;
        if (chars++ == max) return line.substr(0, at) + "…";
    }
    return line;
}

} // namespace rio
