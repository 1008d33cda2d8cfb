// Loads rio's HTTP transport module (host/http/http_curl.cpp, built as rio-http-curl.so), which
// brings libcurl and TLS with it: on the first request, so that start-up never pays for them
// (decision 0019).
#pragma once

#include "host/http/http_transport.hpp"
#include "protocol/error.hpp"

#include <memory>

namespace rio {

// ErrorCode::internal, saying why, when the module cannot be loaded or is from another build.
// The transport's idle timers read `idle_clock` (HttpIdleClock).
Result<std::unique_ptr<HttpTransport>> load_http_transport(const HttpIdleClock& idle_clock = {});

} // namespace rio
