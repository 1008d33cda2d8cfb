// What an HTTP request and a response's head are, apart from who sends them: shared by
// HttpClient and the transport module (host/http/http_transport.hpp).
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rio {

struct HttpRequest {
    std::string method = "POST"; // "GET" sends no body; any other method sends `body`
    // http:// or https://. Proxies come from the environment as curl reads it at transfer
    // time: http_proxy (lower case only), https_proxy, all_proxy and no_proxy.
    std::string url;
    std::vector<std::pair<std::string, std::string>> headers; // sent as given, in order
    std::string body;
    // The PEM file of the certificate authorities TLS is verified against (a company's
    // proxy CA, a local server's own). Empty: the file SSL_CERT_FILE names, if it is set,
    // else the system's. A file that cannot be read fails the request, naming it.
    std::string ca_file;
    // Name lookup, TCP connect, proxy CONNECT and the TLS handshake together.
    std::chrono::milliseconds connect_timeout{10'000};
    // Once connected: nothing received (and nothing sent) for this long fails the request.
    // rio's own timer: curl's low-speed check looks once a second and so fires late.
    std::chrono::milliseconds idle_timeout{60'000};
};

// What the idle timeout measures time with, read on the transport's thread. Empty: the
// transport reads std::chrono::steady_clock itself. A test passes a clock it moves on by hand
// (HttpClient's constructor), so that no idle timeout waits on the wall clock.
using HttpIdleClock = std::function<std::chrono::steady_clock::time_point()>;

struct HttpHead {
    int status = 0;
    std::vector<std::pair<std::string, std::string>> headers; // names lower case, in order

    // The first header of that name, whatever its case.
    std::optional<std::string> header(std::string_view name) const;
};

} // namespace rio
