#include "jsonrpc/json_rpc.hpp"

#include "protocol/json_parse.hpp"

namespace rio::jsonrpc {
namespace {

bool valid_id(const Json& id) {
    return id.is_number_integer() || id.is_string() || id.is_null();
}

std::string text_of(const Json& object, const char* key) {
    auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

Message response_of(Json id, const Json& message) {
    if (auto result = message.find("result"); result != message.end())
        return Response{std::move(id), *result, std::nullopt};
    auto error = message.find("error");
    // A broken response is never answered to its id: the other side asked nothing.
    if (error == message.end() || !error->is_object())
        return Invalid{nullptr, code::invalid_request, "a response with neither result nor error"};
    auto error_code = error->find("code");
    Error e{error_code != error->end() && error_code->is_number_integer()
                ? error_code->get<std::int64_t>()
                : code::internal_error,
            text_of(*error, "message"), error->value("data", Json())};
    return Response{std::move(id), nullptr, std::move(e)};
}

} // namespace

std::optional<std::int64_t> Response::own_id() const {
    if (!id.is_number_integer()) return std::nullopt;
    return id.get<std::int64_t>();
}

Error Invalid::error() const {
    const char* prefix = code == code::parse_error      ? "Parse error: "
                         : code == code::invalid_params ? "Invalid params: "
                                                        : "Invalid request: ";
    return Error{code, prefix + why, nullptr};
}

Message parse(std::string_view text) {
    auto parsed = parse_json(text);
    if (!parsed) return Invalid{nullptr, code::parse_error, parsed.error().message};
    const Json& message = *parsed;
    if (message.is_array())
        return Invalid{nullptr, code::invalid_request, "a batch, which rio does not read"};
    if (!message.is_object()) return Invalid{nullptr, code::invalid_request, "not a JSON object"};
    auto id_at = message.find("id");
    Json id = id_at != message.end() ? *id_at : Json();
    if (!valid_id(id))
        return Invalid{nullptr, code::invalid_request, "id must be an integer or a string"};
    if (message.value("jsonrpc", Json()) != "2.0")
        return Invalid{id, code::invalid_request, "jsonrpc must be \"2.0\""};
    auto method = message.find("method");
    if (method == message.end()) {
        if (id_at == message.end())
            return Invalid{nullptr, code::invalid_request, "neither a method nor a response id"};
        return response_of(std::move(id), message);
    }
    if (!method->is_string() || method->get_ref<const std::string&>().empty())
        return Invalid{id, code::invalid_request, "method must be a non-empty string"};
    Json params = message.value("params", Json());
    if (!params.is_null() && !params.is_object() && !params.is_array())
        return Invalid{id, code::invalid_params, "params must be an object or an array"};
    return Request{id_at != message.end() ? std::optional<Json>(std::move(id)) : std::nullopt,
                   method->get<std::string>(), std::move(params)};
}

Json request(const Json& id, std::string_view method, Json params) {
    Json m{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
    if (!params.is_null()) m["params"] = std::move(params);
    return m;
}

Json notification(std::string_view method, Json params) {
    Json m{{"jsonrpc", "2.0"}, {"method", method}};
    if (!params.is_null()) m["params"] = std::move(params);
    return m;
}

Json result(const Json& id, Json result) {
    return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

Json error(const Json& id, const Error& error) {
    Json e{{"code", error.code}, {"message", error.message}};
    if (!error.data.is_null()) e["data"] = error.data;
    return {{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(e)}};
}

std::string dump(const Json& message) {
    return message.dump(-1, ' ', false, Json::error_handler_t::replace);
}

} // namespace rio::jsonrpc
