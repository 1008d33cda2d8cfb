#include "protocol/error.hpp"

namespace rio {

std::string_view to_string(ErrorCode code) {
    switch (code) {
    case ErrorCode::bad_request:
        return "bad_request";
    case ErrorCode::unknown_op:
        return "unknown_op";
    case ErrorCode::no_project:
        return "no_project";
    case ErrorCode::no_buffer:
        return "no_buffer";
    case ErrorCode::not_found:
        return "not_found";
    case ErrorCode::conflict:
        return "conflict";
    case ErrorCode::io_error:
        return "io_error";
    case ErrorCode::refused:
        return "refused";
    case ErrorCode::internal:
        return "internal";
    case ErrorCode::not_configured:
        return "not_configured";
    case ErrorCode::auth:
        return "auth";
    case ErrorCode::rate_limit:
        return "rate_limit";
    case ErrorCode::server:
        return "server";
    case ErrorCode::network:
        return "network";
    case ErrorCode::bad_response:
        return "bad_response";
    case ErrorCode::context_full:
        return "context_full";
    case ErrorCode::busy:
        return "busy";
    }
    return "internal";
}

std::optional<ErrorCode> error_code_from_string(std::string_view name) {
    for (ErrorCode code : all_error_codes)
        if (to_string(code) == name) return code;
    return std::nullopt;
}

} // namespace rio
