#include "client/requests.hpp"

#include "protocol/json_parse.hpp"

namespace rio::client {

std::string Requests::encode(std::string_view op, const Json& params, ReplyHandler done) {
    std::uint64_t id = next_id_++;
    if (done) waiting_.emplace(id, std::move(done));
    // Absent params are {}; a null one the core refuses.
    Json message{{"id", id}, {"op", op}};
    if (!params.is_null()) message["params"] = params;
    return message.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::optional<CoreEvent> Requests::take(std::string_view line) {
    auto parsed = parse_json(line);
    if (!parsed || !parsed->is_object()) {
        ++malformed_;
        return std::nullopt;
    }
    Json& message = *parsed;
    if (auto name = message.find("event"); name != message.end()) {
        auto params = message.find("params");
        if (!name->is_string() || params == message.end()) {
            ++malformed_;
            return std::nullopt;
        }
        const std::string& event = name->get_ref<const std::string&>();
        auto decoded = decode_event(event, *params);
        if (!decoded && known_event(event)) ++malformed_; // a known event that does not fit
        return decoded;
    }
    auto id = message.find("id");
    if (id == message.end() || !id->is_number_unsigned()) {
        ++malformed_; // a reply to someone else's id (a string) is not ours either
        return std::nullopt;
    }
    auto it = waiting_.find(id->get<std::uint64_t>());
    if (it == waiting_.end()) return std::nullopt;
    ReplyHandler done = std::move(it->second);
    waiting_.erase(it);
    Reply reply;
    if (message.value("ok", false)) {
        reply.result = message.value("result", Json::object());
    } else {
        const Json error = message.value("error", Json::object());
        std::string code = error.is_object() ? error.value("code", "") : "";
        reply.error = Error{error_code_from_string(code).value_or(ErrorCode::internal),
                            error.is_object() ? error.value("message", code) : code};
    }
    done(reply);
    return std::nullopt;
}

void Requests::fail_all(const Error& why) {
    auto waiting = std::move(waiting_);
    waiting_.clear();
    for (auto& [id, done] : waiting)
        done(Reply{nullptr, why});
}

} // namespace rio::client
