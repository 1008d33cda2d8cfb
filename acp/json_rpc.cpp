#include "acp/json_rpc.hpp"

#include "protocol/json_parse.hpp"

namespace rio::acp {
namespace {

std::string line_of(Json message) {
    message["jsonrpc"] = "2.0";
    return message.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

bool valid_id(const Json& id) {
    return id.is_number_integer() || id.is_string();
}

RpcInvalid invalid(Json id, int code, std::string message) {
    return {std::move(id), RpcError{code, std::move(message), nullptr}};
}

} // namespace

RpcMessage parse_rpc(std::string_view line) {
    auto parsed = parse_json(line);
    if (!parsed)
        return invalid(nullptr, rpc_error::parse_error, "Parse error: " + parsed.error().message);
    Json& message = *parsed;
    if (message.is_array())
        return invalid(nullptr, rpc_error::invalid_request, "Invalid request: ACP has no batches");
    if (!message.is_object())
        return invalid(nullptr, rpc_error::invalid_request, "Invalid request: not a JSON object");
    const bool has_id = message.contains("id");
    Json id = has_id ? message["id"] : Json();
    if (!id.is_null() && !valid_id(id))
        return invalid(nullptr, rpc_error::invalid_request,
                       "Invalid request: id must be an integer or a string");
    if (message.value("jsonrpc", Json()) != "2.0")
        return invalid(id, rpc_error::invalid_request, "Invalid request: jsonrpc must be \"2.0\"");
    if (auto method = message.find("method"); method != message.end()) {
        if (!method->is_string() || method->get_ref<const std::string&>().empty())
            return invalid(id, rpc_error::invalid_request,
                           "Invalid request: method must be a non-empty string");
        Json params = message.value("params", Json::object());
        if (params.is_null()) params = Json::object();
        if (!params.is_object())
            return invalid(id, rpc_error::invalid_params,
                           "Invalid params: params must be an object");
        return RpcRequest{has_id ? ReplyTo(std::move(id)) : std::nullopt,
                          method->get<std::string>(), std::move(params)};
    }
    // A response with a null id answers a request its sender could not read: nothing here
    // waits for it, and a response is never answered.
    if (!has_id)
        return invalid(nullptr, rpc_error::invalid_request,
                       "Invalid request: neither a method nor a response id");
    RpcResponse response{std::move(id), message.value("result", Json()), std::nullopt};
    if (auto error = message.find("error"); error != message.end() && error->is_object())
        response.error =
            RpcError{error->value("code", rpc_error::internal_error),
                     error->value("message", std::string("error")), error->value("data", Json())};
    return response;
}

std::string rpc_result(const Json& id, const Json& result) {
    return line_of({{"id", id}, {"result", result}});
}

std::string rpc_error_line(const Json& id, const RpcError& error) {
    Json e{{"code", error.code}, {"message", error.message}};
    if (!error.data.is_null()) e["data"] = error.data;
    return line_of({{"id", id}, {"error", std::move(e)}});
}

std::string rpc_notification(std::string_view method, const Json& params) {
    return line_of({{"method", method}, {"params", params}});
}

std::string rpc_request(const Json& id, std::string_view method, const Json& params) {
    return line_of({{"id", id}, {"method", method}, {"params", params}});
}

} // namespace rio::acp
