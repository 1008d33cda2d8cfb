#include "host/server/client_gate.hpp"

#include "protocol/json_parse.hpp"
#include "protocol/names.hpp"

#include <array>
#include <sys/random.h>

namespace rio {
namespace {

bool looks_like_http(std::string_view line) {
    for (std::string_view method :
         {"GET ", "POST ", "PUT ", "HEAD ", "OPTIONS ", "DELETE ", "PATCH ", "CONNECT ", "TRACE "})
        if (line.starts_with(method)) return true;
    return line.find("HTTP/") != std::string_view::npos ||
           line.find("Host:") != std::string_view::npos;
}

// Constant time in the token's length: the comparison tells an attacker nothing by its speed.
bool same(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    unsigned char diff = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        diff |= static_cast<unsigned char>(a[i] ^ b[i]);
    return diff == 0;
}

} // namespace

GateVerdict check_first_line(std::string_view line, std::string_view token) {
    if (looks_like_http(line)) return GateVerdict::drop;
    auto message = parse_json(line);
    if (!message || !message->is_object()) return GateVerdict::drop;
    const nlohmann::json& m = *message;
    bool hello = m.value("op", nlohmann::json()) == op::session_hello;
    const nlohmann::json* params =
        m.contains("params") && m["params"].is_object() ? &m["params"] : nullptr;
    bool right = hello && params && params->contains("token") && (*params)["token"].is_string() &&
                 same((*params)["token"].get_ref<const std::string&>(), token);
    return right ? GateVerdict::admit : GateVerdict::refuse;
}

std::string random_token() {
    std::array<unsigned char, 32> bytes{};
    std::size_t got = 0;
    while (got < bytes.size()) {
        ssize_t n = ::getrandom(bytes.data() + got, bytes.size() - got, 0);
        if (n > 0) got += static_cast<std::size_t>(n);
    }
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    for (unsigned char b : bytes) {
        out.push_back(hex[b >> 4]);
        out.push_back(hex[b & 15]);
    }
    return out;
}

} // namespace rio
