// Parsing `--listen` and `--connect` specs, and the loopback rule (DESIGN §1: never a non-loopback
// address unless told to explicitly).
#pragma once

#include "protocol/error.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace rio {

struct ListenAddress {
    bool unix_socket = false;
    std::string path; // unix socket
    std::string host; // tcp: a numeric address; "localhost" becomes 127.0.0.1
    std::uint16_t port = 0;
};

// "unix:PATH", "HOST:PORT" or "[IPV6]:PORT". A non-loopback host is refused unless
// `allow_any` (from --listen-any).
Result<ListenAddress> parse_listen_address(std::string_view spec, bool allow_any);

// Where a frontend finds a running core (`--connect`): the same spellings, but the host may
// be a name (resolved when connecting) and no loopback rule applies (the token does).
Result<ListenAddress> parse_connect_address(std::string_view spec);

std::string to_string(const ListenAddress& address);

} // namespace rio
