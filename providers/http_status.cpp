#include "providers/http_status.hpp"

#include "host/http/sse.hpp"
#include "providers/context_overflow.hpp"

namespace rio {

ErrorCode code_for_status(std::int64_t status) {
    if (status == 401 || status == 403) return ErrorCode::auth;
    if (status == 429) return ErrorCode::rate_limit;
    if (status >= 500 && status <= 599) return ErrorCode::server;
    return ErrorCode::bad_response;
}

std::string status_summary(int status, std::string_view who) {
    std::string http = "HTTP " + std::to_string(status);
    std::string name(who);
    switch (status) {
    case 400:
        return name + " rejected the request (" + http +
               "); this is usually a bug in how rio built it";
    case 401:
        return name + " did not accept the API key (" + http + ")";
    case 403:
        return name + " denied permission (" + http + ")";
    case 404:
        return name + " did not find it (" + http + "); are the URL and model name right?";
    case 413:
        return "the request is too large for " + name + " (" + http + ")";
    case 429:
        return name + "'s rate limit or quota was reached (" + http + ")";
    case 529:
        return name + " is overloaded (" + http + ")";
    }
    if (status >= 500 && status <= 599) return name + " had a server error (" + http + ")";
    return name + " answered " + http;
}

Error status_error(int status, std::string_view who, std::string_view api_message,
                   std::string_view body) {
    std::string detail = wire_excerpt(api_message, 500);
    if (detail.empty()) detail = body.empty() ? "(no body)" : wire_excerpt(body);
    if (is_context_overflow(status, body))
        return Error{ErrorCode::context_full, std::string(who) +
                                                  " said the conversation does not fit the model's "
                                                  "context window (HTTP " +
                                                  std::to_string(status) + "): " + detail};
    return Error{code_for_status(status), status_summary(status, who) + ": " + detail};
}

} // namespace rio
