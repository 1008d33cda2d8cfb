#include "io/listen_address.hpp"

#include <asio/ip/address.hpp>
#include <charconv>

namespace rio {

namespace {

// "unix:PATH", or HOST:PORT with the brackets of "[IPV6]:PORT" removed.
Result<ListenAddress> split_address(std::string_view spec) {
    ListenAddress out;
    if (spec.substr(0, 5) == "unix:") {
        out.unix_socket = true;
        out.path = std::string(spec.substr(5));
        if (out.path.empty())
            return make_error(ErrorCode::bad_request, "unix: needs a socket path");
        return out;
    }
    auto colon = spec.rfind(':');
    if (colon == std::string_view::npos)
        return make_error(ErrorCode::bad_request,
                          "expected unix:PATH or HOST:PORT, got '" + std::string(spec) + "'");
    std::string_view host = spec.substr(0, colon), port = spec.substr(colon + 1);
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
        host = host.substr(1, host.size() - 2);
    unsigned value = 0;
    auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (ec != std::errc() || end != port.data() + port.size() || value > 65535)
        return make_error(ErrorCode::bad_request, "bad port '" + std::string(port) + "'");
    if (host.empty())
        return make_error(ErrorCode::bad_request, "no host in '" + std::string(spec) + "'");
    out.port = static_cast<std::uint16_t>(value);
    out.host = std::string(host);
    return out;
}

} // namespace

Result<ListenAddress> parse_listen_address(std::string_view spec, bool allow_any) {
    auto out = split_address(spec);
    if (!out || out->unix_socket) return out;
    if (out->host == "localhost") out->host = "127.0.0.1";
    std::error_code bad;
    asio::ip::address address = asio::ip::make_address(out->host, bad);
    if (bad)
        return make_error(ErrorCode::bad_request,
                          "'" + out->host + "' is not a numeric IP address (or localhost)");
    if (!address.is_loopback() && !allow_any)
        return make_error(ErrorCode::refused,
                          "refusing to listen on non-loopback address " + out->host +
                              ": anyone on the network could drive the agent; pass --listen-any "
                              "to allow it");
    out->host = address.to_string();
    return out;
}

Result<ListenAddress> parse_connect_address(std::string_view spec) {
    auto out = split_address(spec);
    if (out && !out->unix_socket && out->host == "localhost") out->host = "127.0.0.1";
    return out;
}

std::string to_string(const ListenAddress& address) {
    if (address.unix_socket) return "unix:" + address.path;
    bool v6 = address.host.find(':') != std::string::npos;
    return (v6 ? "[" + address.host + "]" : address.host) + ":" + std::to_string(address.port);
}

} // namespace rio
