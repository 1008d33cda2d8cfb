// Typed access to a request's params. A missing or mistyped param throws ParamError, which
// the dispatcher turns into a bad_request naming the param.
#pragma once

#include "core/protocol.hpp"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace rio {

struct ParamError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::string require_string(const Json& params, const char* key);
std::optional<std::string> optional_string(const Json& params, const char* key);
std::optional<std::uint64_t> optional_count(const Json& params, const char* key);
bool optional_bool(const Json& params, const char* key, bool fallback);

} // namespace rio
