#include "host/proxy/proxy_request.hpp"

#include "host/proxy/ascii.hpp"
#include "host/proxy/host_rules.hpp"

#include <algorithm>
#include <array>
#include <optional>

namespace rio {
namespace {

constexpr std::size_t shown_length = 80;

Error bad(std::string reason) {
    return make_error(ErrorCode::bad_request, std::move(reason));
}

std::string excerpt(std::string_view text) {
    if (text.size() <= shown_length) return std::string(text);
    return std::string(text.substr(0, shown_length)) + "…";
}

bool is_alnum(char c) {
    return is_ascii_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool is_token(std::string_view text) {
    constexpr std::string_view extra = "!#$%&'*+-.^_`|~";
    return !text.empty() && std::all_of(text.begin(), text.end(), [&](char c) {
        return is_alnum(c) || extra.find(c) != std::string_view::npos;
    });
}

// A bare LF or CR inside a line could read as a line break to the server behind, smuggling
// a header (another Host) past what this parser saw.
bool has_control(std::string_view text) {
    return std::any_of(text.begin(), text.end(), [](char c) {
        auto byte = static_cast<unsigned char>(c);
        return (byte < 0x20 && c != '\t') || byte == 0x7f;
    });
}

// Names as a resolver takes them; '_' too, as some hosts have one. Anything else would be
// handed to getaddrinfo for no good.
bool is_host_name(std::string_view host) {
    return !host.empty() && std::all_of(host.begin(), host.end(), [](char c) {
        return is_alnum(c) || c == '-' || c == '.' || c == '_';
    });
}

struct RequestLine {
    std::string_view method;
    std::string_view target;
    std::string_view version;
};

Result<RequestLine> read_request_line(std::string_view line) {
    auto first = line.find(' ');
    auto last = line.rfind(' ');
    if (first == std::string_view::npos || first == last || has_control(line))
        return bad("the request line is not METHOD TARGET HTTP/1.x: " + excerpt(line));
    RequestLine request{line.substr(0, first), line.substr(first + 1, last - first - 1),
                        line.substr(last + 1)};
    if (!is_token(request.method) || request.target.empty() ||
        request.target.find(' ') != std::string_view::npos)
        return bad("the request line is not METHOD TARGET HTTP/1.x: " + excerpt(line));
    if (request.version.size() != 8 || !request.version.starts_with("HTTP/1.") ||
        !is_ascii_digit(request.version.back()))
        return bad("only HTTP/1.x requests are understood, not " + excerpt(request.version));
    return request;
}

std::optional<std::uint16_t> read_port(std::string_view text) {
    if (text.empty() || text.size() > 5 || !std::all_of(text.begin(), text.end(), is_ascii_digit))
        return std::nullopt;
    unsigned value = 0;
    for (char c : text)
        value = value * 10 + static_cast<unsigned>(c - '0');
    if (value == 0 || value > 65535) return std::nullopt;
    return static_cast<std::uint16_t>(value);
}

struct Authority {
    std::string host;
    std::optional<std::uint16_t> port;
};

// "host", "host:port", "[v6]" or "[v6]:port".
Result<Authority> read_authority(std::string_view text) {
    std::string_view host = text;
    std::optional<std::string_view> port;
    if (text.starts_with('[')) {
        auto close = text.find(']');
        if (close == std::string_view::npos)
            return bad("a '[' without its ']' in " + excerpt(text));
        host = text.substr(1, close - 1);
        auto literal = literal_address(host);
        if (!literal || !literal->is_v6() || host.ends_with('.'))
            return bad("no IPv6 address between the brackets of " + excerpt(text));
        auto after = text.substr(close + 1);
        if (!after.empty() && !after.starts_with(':'))
            return bad("something after the brackets of " + excerpt(text));
        if (!after.empty()) port = after.substr(1);
    } else if (auto colon = text.rfind(':'); colon != std::string_view::npos) {
        host = text.substr(0, colon);
        port = text.substr(colon + 1);
        if (!is_host_name(host))
            return bad("not a host name: " + excerpt(host) +
                       " (an IPv6 address goes in [brackets])");
    } else if (!is_host_name(host)) {
        return bad("not a host name: " + excerpt(host));
    }
    Authority authority{std::string(host), std::nullopt};
    if (port) {
        authority.port = read_port(*port);
        if (!authority.port) return bad("not a port (1 to 65535): " + excerpt(*port));
    }
    return authority;
}

Result<ProxyRequest> read_connect(std::string_view target) {
    auto authority = read_authority(target);
    if (!authority) return authority.error();
    if (!authority->port)
        return bad("CONNECT needs host:port, as in example.com:443, not " + excerpt(target));
    return ProxyRequest{ProxyMethod::connect, std::move(authority->host), *authority->port, {}};
}

bool is_dropped(std::string_view name) {
    // Host is replaced by the URI's authority; the rest speak of the hop to this proxy.
    constexpr std::array<std::string_view, 5> dropped = {
        "host", "proxy-connection", "proxy-authorization", "connection", "keep-alive"};
    auto folded = ascii_lower(name);
    return std::find(dropped.begin(), dropped.end(), folded) != dropped.end();
}

// The header lines to pass on, each ending "\r\n".
Result<std::string> read_headers(std::string_view text) {
    std::string kept;
    while (!text.empty()) {
        auto end = text.find("\r\n");
        auto line = text.substr(0, end);
        if (line.empty()) break;
        if (line.front() == ' ' || line.front() == '\t')
            return bad("a folded header line (one that starts with a space) is not accepted");
        auto colon = line.find(':');
        if (colon == std::string_view::npos || !is_token(line.substr(0, colon)) ||
            has_control(line))
            return bad("a header line is not Name: value: " + excerpt(line));
        if (!is_dropped(line.substr(0, colon))) kept.append(line).append("\r\n");
        if (end == std::string_view::npos) break;
        text.remove_prefix(end + 2);
    }
    return kept;
}

// "http://host[:port]/path?query" split into its authority and its path in origin form.
Result<std::pair<std::string_view, std::string>> read_absolute_uri(std::string_view target) {
    auto scheme = ascii_lower(target.substr(0, 8));
    if (target.starts_with('/') || target == "*")
        return bad("this is a proxy: ask for an absolute URI (http://host/path), not " +
                   excerpt(target));
    if (scheme.starts_with("https://"))
        return bad("use CONNECT for https: a plain request cannot carry " + excerpt(target));
    if (!scheme.starts_with("http://"))
        return bad("only http:// URIs are forwarded, not " + excerpt(target));
    auto rest = target.substr(7);
    auto end = rest.find_first_of("/?#");
    auto authority = rest.substr(0, end);
    if (authority.find('@') != std::string_view::npos)
        return bad("a URI with a user in it (user@host) is not forwarded: " + excerpt(target));
    std::string path(end == std::string_view::npos ? std::string_view() : rest.substr(end));
    if (auto fragment = path.find('#'); fragment != std::string::npos) path.resize(fragment);
    if (!path.starts_with('/')) path.insert(0, "/");
    return std::pair{authority, std::move(path)};
}

Result<ProxyRequest> read_forward(const RequestLine& line, std::string_view header_text) {
    auto uri = read_absolute_uri(line.target);
    if (!uri) return uri.error();
    auto& [authority_text, path] = *uri;
    auto authority = read_authority(authority_text);
    if (!authority) return authority.error();
    auto headers = read_headers(header_text);
    if (!headers) return headers.error();
    std::string head;
    head.append(line.method).append(" ").append(path).append(" ").append(line.version);
    head.append("\r\nHost: ").append(authority_text).append("\r\n");
    head.append(*headers).append("Connection: close\r\n\r\n");
    return ProxyRequest{ProxyMethod::forward, std::move(authority->host),
                        authority->port.value_or(80), std::move(head)};
}

} // namespace

Result<ProxyRequest> read_proxy_request(std::string_view head) {
    auto line_end = head.find("\r\n");
    if (line_end == std::string_view::npos || line_end == 0) return bad("no request line");
    auto line = read_request_line(head.substr(0, line_end));
    if (!line) return line.error();
    if (line->method == "CONNECT") return read_connect(line->target);
    return read_forward(*line, head.substr(line_end + 2));
}

} // namespace rio
