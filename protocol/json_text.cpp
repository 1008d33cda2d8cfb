#include "protocol/json_text.hpp"

#include <bit>
#include <charconv>
#include <cstring>

namespace rio {
namespace {

// What JSON must escape: '"', '\\' and the control characters.
constexpr bool needs_escape(unsigned char c) {
    return c < 0x20 || c == '"' || c == '\\';
}

// The first byte from `p` that needs escaping, eight at a time (most text needs none): a
// byte below 0x20, or equal to '"' or '\\', sets the high bit of its lane in `hit`.
// A lane's borrow can only set bits above a true hit, so the lowest bit is exact.
const char* next_escape(const char* p, const char* end) {
    constexpr std::uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    while (std::endian::native == std::endian::little && end - p >= 8) {
        std::uint64_t w;
        std::memcpy(&w, p, 8);
        auto zero = [](std::uint64_t x) { return (x - ones) & ~x & highs; };
        std::uint64_t hit = ((w - ones * 0x20) & ~w & highs) | zero(w ^ (ones * '"')) |
                            zero(w ^ (ones * '\\'));
        if (hit) return p + __builtin_ctzll(hit) / 8;
        p += 8;
    }
    while (p < end && !needs_escape(static_cast<unsigned char>(*p)))
        ++p;
    return p;
}

} // namespace

void append_json_string(std::string& out, std::string_view utf8) {
    out += '"';
    const char* p = utf8.data();
    const char* end = p + utf8.size();
    while (p < end) {
        const char* run = p;
        p = next_escape(p, end);
        out.append(run, static_cast<std::size_t>(p - run));
        if (p == end) break;
        const auto c = static_cast<unsigned char>(*p++);
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default: {
            static constexpr char hex[] = "0123456789abcdef";
            out += "\\u00";
            out += hex[c >> 4];
            out += hex[c & 15];
        }
        }
    }
    out += '"';
}

void append_json_number(std::string& out, std::uint64_t value) {
    char digits[24];
    auto [end, ec] = std::to_chars(digits, digits + sizeof digits, value);
    out.append(digits, static_cast<std::size_t>(end - digits));
}

void append_json_key(std::string& out, std::string_view key) {
    out += '"';
    out += key;
    out += "\":";
}

std::string begin_result_text(const nlohmann::json& id) {
    std::string line = "{\"id\":";
    line += id.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    line += ",\"ok\":true,\"result\":";
    return line;
}

void end_result_text(std::string& line) {
    line += "}\n";
}

} // namespace rio
