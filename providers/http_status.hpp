// What an HTTP status from a model API means: the closed error code and a sentence for the
// user, shared by both wire formats.
#pragma once

#include "protocol/error.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace rio {

// 401/403 auth, 429 rate_limit, 5xx (Anthropic's 529 "overloaded" too) server, other
// statuses bad_response.
ErrorCode code_for_status(std::int64_t status);

// `who` names the other side: "Anthropic", "the server".
std::string status_summary(int status, std::string_view who);

// The error for a response whose status is not 200: the summary, then the API's own message
// (`api_message`, from the body's JSON; "" when it had none) or else an excerpt of the body.
Error status_error(int status, std::string_view who, std::string_view api_message,
                   std::string_view body);

} // namespace rio
