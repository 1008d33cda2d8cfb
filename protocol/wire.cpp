#include "protocol/wire.hpp"

#include "protocol/json_parse.hpp"

namespace rio {
namespace {

// Invalid UTF-8 must never make formatting throw: such bytes become U+FFFD on the wire.
std::string dump_line(const Json& value) {
    std::string out = value.dump(-1, ' ', false, Json::error_handler_t::replace);
    out.push_back('\n');
    return out;
}

bool valid_id(const Json& id) {
    return id.is_number_integer() || id.is_string();
}

} // namespace

std::variant<Request, RequestError> parse_request(std::string_view line) {
    auto parsed = parse_json(line);
    if (!parsed) return RequestError{nullptr, parsed.error()};
    Json& message = *parsed;
    if (!message.is_object())
        return RequestError{nullptr,
                            make_error(ErrorCode::bad_request, "a request must be a JSON object")};

    Json id = message.contains("id") ? std::move(message["id"]) : Json(nullptr);
    if (!valid_id(id))
        return RequestError{nullptr, make_error(ErrorCode::bad_request,
                                                "a request needs an \"id\" (integer or string)")};

    auto op = message.find("op");
    if (op == message.end() || !op->is_string() || op->get_ref<const std::string&>().empty())
        return RequestError{
            id, make_error(ErrorCode::bad_request, "a request needs an \"op\" (non-empty string)")};

    // Absent is {}; anything else that is not an object, null included, is refused.
    Json params = message.contains("params") ? std::move(message["params"]) : Json::object();
    if (!params.is_object())
        return RequestError{id, make_error(ErrorCode::bad_request,
                                           std::string("\"params\" must be a JSON object, not ") +
                                               params.type_name())};

    return Request{std::move(id), op->get<std::string>(), std::move(params)};
}

std::string format_result(const Json& id, const Json& result) {
    return dump_line(Json{{"id", id}, {"ok", true}, {"result", result}});
}

std::string format_error(const Json& id, const Error& error) {
    return dump_line(Json{
        {"id", id},
        {"ok", false},
        {"error", {{"code", std::string(to_string(error.code))}, {"message", error.message}}}});
}

std::string format_event(std::string_view name, const Json& params) {
    // Spelled out rather than dumped from {"event", "params"}: that object would copy the
    // params first, and agent.delta is the protocol's busiest line. The keys come out in the
    // order nlohmann's sorted objects give them.
    std::string out = "{\"event\":";
    out += Json(name).dump();
    out += ",\"params\":";
    out += params.dump(-1, ' ', false, Json::error_handler_t::replace);
    out += "}\n";
    return out;
}

} // namespace rio
