// JSON-RPC 2.0 as ACP uses it: one object per line, requests and notifications both ways,
// no batches. Parses a line into what it is, with the error code the spec gives for each
// way it can be wrong, and formats the four kinds of message.
#pragma once

#include "protocol/wire.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace rio::acp {

namespace rpc_error {
inline constexpr int parse_error = -32700;
inline constexpr int invalid_request = -32600;
inline constexpr int method_not_found = -32601;
inline constexpr int invalid_params = -32602;
inline constexpr int internal_error = -32603;
inline constexpr int resource_not_found = -32002;
} // namespace rpc_error

struct RpcError {
    int code = rpc_error::internal_error;
    std::string message;
    Json data; // null: none
};

// Who a request is answered to: its id, which may be null (JSON-RPC allows it, and so does
// ACP's RequestId), or nothing for a notification, which is never answered.
using ReplyTo = std::optional<Json>;

struct RpcRequest {
    ReplyTo id; // nullopt: a notification (no "id" member at all)
    std::string method;
    Json params; // an object (an absent params is {})
    bool notification() const { return !id.has_value(); }
};

struct RpcResponse { // to a request this side sent
    Json id;
    Json result;
    std::optional<RpcError> error;
};

// A line that is no usable message: the error to answer with (id null unless the line
// carried a valid one).
struct RpcInvalid {
    Json id;
    RpcError error;
};

using RpcMessage = std::variant<RpcRequest, RpcResponse, RpcInvalid>;

RpcMessage parse_rpc(std::string_view line);

std::string rpc_result(const Json& id, const Json& result);
std::string rpc_error_line(const Json& id, const RpcError& error);
std::string rpc_notification(std::string_view method, const Json& params);
std::string rpc_request(const Json& id, std::string_view method, const Json& params);

} // namespace rio::acp
