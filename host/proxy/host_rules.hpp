// The hosts a sandboxed command may reach through the proxy (DESIGN §19, issue 45), as a
// person approved them: names, single addresses and "*.example.com" patterns. Whatever
// could widen an entry beyond what the person read (a lone "*", "*.com", a range, a URL
// whose path or port looks like a limit the proxy does not enforce) is refused with words
// the person can act on, never quietly reinterpreted.
#pragma once

#include "protocol/error.hpp"

#include <asio/ip/address.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rio {

// One host a command may reach: a name ("registry.npmjs.org"), an address ("127.0.0.1",
// "::1"), or a pattern "*.example.com" (any name below example.com, not example.com itself).
struct HostRule {
    std::string name; // lower case, no trailing dot; for a pattern, the part after "*."
    bool pattern = false;
};

// Reads one entry as a person or the user's config.json wrote it. A refusal
// (ErrorCode::bad_request) names the entry and says what to write instead. Accepted: host
// names (letters, digits, '-', dots; case folded; one trailing dot dropped), single IPv4
// addresses, single IPv6 addresses (with or without [brackets]; stored without, in their
// canonical form), and "*." before a name of at least two labels.
Result<HostRule> read_host_rule(std::string_view text);
// All of them, or the first refusal.
Result<std::vector<HostRule>> read_host_rules(const std::vector<std::string>& texts);
// As a person would write it back: "registry.npmjs.org", "*.example.com", "::1".
std::string to_string(const HostRule& rule);

enum class HostMatch {
    none,
    named,   // the host is an entry itself
    pattern, // the host is below a pattern's name
};

// How `host` (as a client asked for it: any case, maybe a trailing dot, IPv6 maybe in
// brackets) is allowed by `rules`. An address matches only the same address, compared as
// addresses ("::1" is "0:0::1", "::ffff:10.0.0.1" is "10.0.0.1"), never a name and never a
// pattern: "127.0.0.1" is not "localhost".
HostMatch match_host(const std::vector<HostRule>& rules, std::string_view host);

// The address `host` (as a client asked for it) spells, when it is one: such a host needs
// no resolving.
std::optional<asio::ip::address> literal_address(std::string_view host);

// 127.0.0.0/8, ::1, 0.0.0.0/8, ::, and their IPv4-mapped forms (::ffff:127.0.0.1): the
// places that reach the core's own machine rather than the network.
bool is_loopback(const asio::ip::address& address);

} // namespace rio
