#include "host/proxy/host_rules.hpp"

#include "host/proxy/ascii.hpp"

#include <algorithm>

namespace rio {
namespace {

constexpr std::size_t max_label = 63;
constexpr std::size_t max_name = 253;

Error refusal(std::string reason) {
    return make_error(ErrorCode::bad_request, std::move(reason));
}

bool is_letter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_digits(std::string_view text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), is_ascii_digit);
}

std::string_view trimmed(std::string_view text) {
    auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    while (!text.empty() && blank(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && blank(text.back()))
        text.remove_suffix(1);
    return text;
}

std::string_view without_trailing_dot(std::string_view name) {
    if (name.ends_with('.')) name.remove_suffix(1);
    return name;
}

// inet_pton stops at a NUL that std::string keeps, so "127.0.0.1\0x" would read as an address:
// only the characters an address can have get that far.
std::optional<asio::ip::address> parse_address(std::string_view text) {
    auto address_char = [](char c) {
        return is_ascii_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == ':' ||
               c == '.';
    };
    if (text.empty() || !std::all_of(text.begin(), text.end(), address_char)) return std::nullopt;
    std::error_code ec;
    auto address = asio::ip::make_address(text, ec);
    if (ec) return std::nullopt;
    return address;
}

// ::ffff:10.0.0.1 and 10.0.0.1 are one destination, so they are one address to a rule.
asio::ip::address unmapped(const asio::ip::address& address) {
    if (address.is_v6() && address.to_v6().is_v4_mapped())
        return asio::ip::make_address_v4(asio::ip::v4_mapped, address.to_v6());
    return address;
}

std::string_view without_brackets(std::string_view host) {
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
        return host.substr(1, host.size() - 2);
    return host;
}

// "example.com:443" → "example.com"; "[::1]:443" → "::1"; an unbracketed IPv6 stays whole.
std::string_view without_port(std::string_view authority) {
    if (authority.starts_with('[')) {
        auto close = authority.find(']');
        return close == std::string_view::npos ? authority : authority.substr(1, close - 1);
    }
    auto colon = authority.find(':');
    if (colon != std::string_view::npos && authority.rfind(':') == colon)
        return authority.substr(0, colon);
    return authority;
}

// What to write instead of a URL or host/path: the host alone.
std::string host_alone(std::string_view text) {
    if (auto scheme = text.find("://"); scheme != std::string_view::npos)
        text.remove_prefix(scheme + 3);
    text = text.substr(0, text.find_first_of("/?#"));
    if (auto at = text.rfind('@'); at != std::string_view::npos) text.remove_prefix(at + 1);
    return ascii_lower(without_port(text));
}

std::string shown(char c) {
    if (c >= 0x21 && c <= 0x7e) return std::string("'") + c + "'";
    if (c == ' ') return "a space";
    return "a control character";
}

// Letters, digits, '-' and dots, in labels of at most 63 bytes that neither start nor end
// with '-'. `entry` is what the person wrote, for the message.
Result<std::string> read_host_name(std::string_view entry, std::string_view text) {
    std::string name = ascii_lower(without_trailing_dot(text));
    std::string quoted(entry);
    if (name.empty()) return refusal(quoted + " names no host");
    if (name.size() > max_name)
        return refusal(quoted + " is longer than the 253 bytes a host name can have");
    for (char c : name) {
        if (static_cast<unsigned char>(c) >= 0x80)
            return refusal(quoted +
                           " has a character outside ASCII: give the name in its xn-- form");
        if (!is_letter(c) && !is_ascii_digit(c) && c != '-' && c != '.')
            return refusal(quoted + " has " + shown(c) +
                           ", which a host name cannot have (letters, digits, '-' and dots only)");
    }
    std::string_view rest = name;
    std::string_view last;
    while (true) {
        auto dot = rest.find('.');
        last = rest.substr(0, dot);
        if (last.empty()) return refusal(quoted + " has an empty label (two dots in a row?)");
        if (last.size() > max_label)
            return refusal(quoted + " has a label longer than the 63 bytes a label can have");
        if (last.front() == '-' || last.back() == '-')
            return refusal(quoted + " has a label that starts or ends with '-'");
        if (dot == std::string_view::npos) break;
        rest.remove_prefix(dot + 1);
    }
    // A resolver reads "127.1" or "10.0.0.256"-like names as addresses, or not at all; either
    // way the entry would not mean what it seems to.
    if (is_digits(last))
        return refusal(quoted + " ends in a label of digits alone, which no host name does, and "
                                "is not a single IPv4 address either");
    return name;
}

HostRule address_rule(const asio::ip::address& address) {
    return {address.to_string(), false};
}

Result<HostRule> read_bracketed(std::string_view entry) {
    auto close = entry.find(']');
    if (close == std::string_view::npos)
        return refusal(std::string(entry) + " has a '[' without its ']'");
    auto address = parse_address(entry.substr(1, close - 1));
    if (!address || !address->is_v6())
        return refusal(std::string(entry) + " has brackets, which hold only an IPv6 address");
    auto after = entry.substr(close + 1);
    if (after.starts_with(':') && is_digits(after.substr(1)))
        return refusal(std::string(entry) +
                       " has a port: every port of an allowed host is allowed: give " +
                       address->to_string() + " without " + std::string(after));
    if (!after.empty())
        return refusal(std::string(entry) + " has " + std::string(after) +
                       " after its address: give the address alone");
    return address_rule(*address);
}

Result<HostRule> refused_slash(std::string_view entry, std::size_t slash) {
    if (parse_address(without_brackets(entry.substr(0, slash))) &&
        is_digits(entry.substr(slash + 1)))
        return refusal(std::string(entry) +
                       " is an address range: give single addresses, or approve the whole network");
    return refusal(std::string(entry) +
                   " has a path: every path of an allowed host is allowed: give the host alone: " +
                   host_alone(entry));
}

Result<HostRule> refused_colon(std::string_view entry, std::size_t colon) {
    if (entry.find('%') != std::string_view::npos)
        return refusal(std::string(entry) + " has a zone index: give the address without it");
    if (entry.find(':') != colon) return refusal(std::string(entry) + " is not an IPv6 address");
    auto port = entry.substr(colon + 1);
    if (is_digits(port))
        return refusal(std::string(entry) +
                       " has a port: every port of an allowed host is allowed: give " +
                       std::string(entry.substr(0, colon)) + " without :" + std::string(port));
    return refusal(std::string(entry) +
                   " has ':', which a host name cannot have (letters, digits, '-' and dots only)");
}

Result<HostRule> read_pattern(std::string_view entry) {
    auto below = entry.substr(2);
    if (below.find('*') != std::string_view::npos)
        return refusal(std::string(entry) +
                       " has a wildcard inside: a * may stand only at the front, as in "
                       "*.example.com");
    if (parse_address(without_trailing_dot(below)))
        return refusal(std::string(entry) +
                       " puts an address in a pattern: a pattern covers names; give single "
                       "addresses");
    auto name = read_host_name(entry, below);
    if (!name) return name.error();
    if (name->find('.') == std::string::npos)
        return refusal(std::string(entry) + " would take in every name under " + *name +
                       ": a pattern must keep at least two labels, as in *.example.com");
    return HostRule{*name, true};
}

// Below `suffix` by at least one whole, non-empty label.
bool is_below(std::string_view name, std::string_view suffix) {
    if (name.size() < suffix.size() + 2 || !name.ends_with(suffix)) return false;
    return name[name.size() - suffix.size() - 1] == '.';
}

bool has_empty_label(std::string_view name) {
    return name.empty() || name.front() == '.' || name.back() == '.' ||
           name.find("..") != std::string_view::npos;
}

bool names_address(const std::vector<HostRule>& rules, const asio::ip::address& address) {
    return std::any_of(rules.begin(), rules.end(), [&](const HostRule& rule) {
        if (rule.pattern) return false;
        auto ruled = parse_address(rule.name);
        return ruled && unmapped(*ruled) == unmapped(address);
    });
}

} // namespace

Result<HostRule> read_host_rule(std::string_view text) {
    auto entry = trimmed(text);
    if (entry.empty()) return refusal("an empty entry names no host");
    if (entry == "*")
        return refusal("* would allow every host: name the hosts, or approve the whole network");
    if (entry.find("://") != std::string_view::npos)
        return refusal(std::string(entry) + " is a URL: give the host alone: " + host_alone(entry));
    if (auto slash = entry.find('/'); slash != std::string_view::npos)
        return refused_slash(entry, slash);
    if (entry.starts_with('[')) return read_bracketed(entry);
    if (auto address = parse_address(entry)) return address_rule(*address);
    if (auto colon = entry.rfind(':'); colon != std::string_view::npos)
        return refused_colon(entry, colon);
    if (entry.starts_with("*.")) return read_pattern(entry);
    if (entry.find('*') != std::string_view::npos)
        return refusal(std::string(entry) +
                       " has a wildcard inside: a * may stand only at the front, as in "
                       "*.example.com");
    auto name = read_host_name(entry, entry);
    if (!name) return name.error();
    return HostRule{*name, false};
}

Result<std::vector<HostRule>> read_host_rules(const std::vector<std::string>& texts) {
    std::vector<HostRule> rules;
    rules.reserve(texts.size());
    for (const auto& text : texts) {
        auto rule = read_host_rule(text);
        if (!rule) return rule.error();
        rules.push_back(std::move(*rule));
    }
    return rules;
}

std::string to_string(const HostRule& rule) {
    return rule.pattern ? "*." + rule.name : rule.name;
}

std::optional<asio::ip::address> literal_address(std::string_view host) {
    return parse_address(without_trailing_dot(without_brackets(host)));
}

HostMatch match_host(const std::vector<HostRule>& rules, std::string_view host) {
    if (auto address = literal_address(host))
        return names_address(rules, *address) ? HostMatch::named : HostMatch::none;
    std::string name = ascii_lower(without_trailing_dot(host));
    if (has_empty_label(name)) return HostMatch::none;
    auto named = [&](const HostRule& rule) { return !rule.pattern && rule.name == name; };
    if (std::any_of(rules.begin(), rules.end(), named)) return HostMatch::named;
    auto covered = [&](const HostRule& rule) { return rule.pattern && is_below(name, rule.name); };
    if (std::any_of(rules.begin(), rules.end(), covered)) return HostMatch::pattern;
    return HostMatch::none;
}

bool is_loopback(const asio::ip::address& address) {
    auto plain = unmapped(address);
    if (plain.is_v6()) return plain.to_v6().is_loopback() || plain.to_v6().is_unspecified();
    // 0.0.0.0/8 is "this host": connecting to 0.0.0.0 reaches the machine's own services.
    return plain.to_v4().is_loopback() || (plain.to_v4().to_uint() >> 24) == 0;
}

} // namespace rio
