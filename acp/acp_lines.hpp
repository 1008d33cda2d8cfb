// ACP's use of JSON-RPC 2.0 (jsonrpc/json_rpc): one message per line, each direction asking
// and answering, params always an object, and ACP's own error code.
#pragma once

#include "jsonrpc/json_rpc.hpp"
#include "protocol/wire.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace rio::acp {

inline constexpr int resource_not_found = -32002; // ACP's: no such session

// Who a request is answered to: its id (which may be null), or nothing for a notification,
// which is never answered.
using ReplyTo = std::optional<Json>;

// One line from the editor. ACP's params are objects: an absent or null params is {}, an
// array is invalid.
jsonrpc::Message parse_line(std::string_view line);

// A message as the line that carries it, newline included.
std::string line_of(const Json& message);

} // namespace rio::acp
