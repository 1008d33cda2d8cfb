// The closed set of protocol error codes (DESIGN §3) and the Result type every
// fallible core operation returns.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace rio {

enum class ErrorCode {
    bad_request,
    unknown_op,
    no_project,
    no_buffer,
    not_found,
    conflict,
    io_error,
    refused,
    internal,
    // Provider errors.
    not_configured,
    auth,
    rate_limit,
    server,
    network,
    bad_response,
    // The conversation does not fit the model's window, even compacted (DESIGN §18).
    context_full,
    // The agent is doing something that this request would disturb (a turn streams).
    busy,
};

inline constexpr ErrorCode all_error_codes[] = {
    ErrorCode::bad_request,    ErrorCode::unknown_op, ErrorCode::no_project,
    ErrorCode::no_buffer,      ErrorCode::not_found,  ErrorCode::conflict,
    ErrorCode::io_error,       ErrorCode::refused,    ErrorCode::internal,
    ErrorCode::not_configured, ErrorCode::auth,       ErrorCode::rate_limit,
    ErrorCode::server,         ErrorCode::network,    ErrorCode::bad_response,
    ErrorCode::context_full,   ErrorCode::busy,
};

std::string_view to_string(ErrorCode code);
std::optional<ErrorCode> error_code_from_string(std::string_view name);

struct Error {
    ErrorCode code;
    std::string message;
};

// A value or an Error. Deliberately tiny: std::expected is C++23.
template <typename T> class Result {
public:
    Result(T value) : v_(std::move(value)) {}
    Result(Error error) : v_(std::move(error)) {}

    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() { return std::get<0>(v_); }
    const T& value() const { return std::get<0>(v_); }
    T& operator*() { return value(); }
    const T& operator*() const { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }

    const Error& error() const { return std::get<1>(v_); }

private:
    std::variant<T, Error> v_;
};

struct Ok {};
using Status = Result<Ok>;

inline Error make_error(ErrorCode code, std::string message) {
    return Error{code, std::move(message)};
}

} // namespace rio
