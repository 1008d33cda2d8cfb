// What a client of the command's proxy (DESIGN §19, issue 45) asked for: a tunnel (CONNECT,
// for https) or one plain HTTP request with an absolute URI, read from the request head.
#pragma once

#include "protocol/error.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace rio {

enum class ProxyMethod {
    connect, // a tunnel: "CONNECT host:port"
    forward, // plain HTTP with an absolute URI: "GET http://host/path"
};

struct ProxyRequest {
    ProxyMethod method = ProxyMethod::connect;
    std::string host;       // as asked, brackets of an IPv6 literal removed
    std::uint16_t port = 0; // CONNECT: required; forward: from the URI, default 80
    // forward only: the head to send upstream. The request line in origin form ("GET /path?q
    // HTTP/1.1"), a Host header that is the URI's authority (whatever Host the client sent:
    // the host that was allowed is the host the server hears of), the client's other headers
    // without Proxy-Connection, Proxy-Authorization, Connection and Keep-Alive, and
    // "Connection: close": one request per connection, as the next might be for another
    // host. Ends "\r\n\r\n".
    std::string upstream_head;
};

// `head` is everything up to and including the first "\r\n\r\n". A head that is not a proxy
// request is refused (bad_request) with the reason, for the client's 400 response.
Result<ProxyRequest> read_proxy_request(std::string_view head);

} // namespace rio
