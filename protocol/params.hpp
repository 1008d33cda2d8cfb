// Typed access to a request's params. A missing or mistyped param throws ParamError, which
// the dispatcher turns into a bad_request naming the param.
#pragma once

#include "protocol/wire.hpp"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace rio {

struct ParamError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// `where` names the object in messages: "params" for requests, "input" for tool calls.
std::string require_string(const Json& params, const char* key, const char* where = "params");
std::optional<std::string> optional_string(const Json& params, const char* key,
                                           const char* where = "params");
std::optional<std::uint64_t> optional_count(const Json& params, const char* key,
                                            const char* where = "params");
bool optional_bool(const Json& params, const char* key, bool fallback,
                   const char* where = "params");
// A string or an array of strings (a glob or several); empty when absent.
std::vector<std::string> optional_strings(const Json& params, const char* key,
                                          const char* where = "params");

} // namespace rio
