// The wire shapes of DESIGN §3: parsing a request line, formatting responses and events.
// Included only by code that speaks the protocol; the rest of the core stays JSON-free.
#pragma once

#include "protocol/error.hpp"

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <variant>

namespace rio {

using Json = nlohmann::json;

inline constexpr int protocol_version = 1;

struct Request {
    Json id; // integer or string, echoed in the response
    std::string op;
    Json params; // always an object
};

// A line that is not a usable request. `id` is null unless the line carried a valid one.
struct RequestError {
    Json id;
    Error error;
};

std::variant<Request, RequestError> parse_request(std::string_view line);

// Each returns one complete line, terminated by '\n'.
std::string format_result(const Json& id, const Json& result);
std::string format_error(const Json& id, const Error& error);
std::string format_event(std::string_view name, const Json& params);

} // namespace rio
