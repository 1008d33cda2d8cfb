#include "host/files/file_uri.hpp"

#include <string>

namespace rio {
namespace {

bool unreserved(unsigned char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '.' || c == '_' || c == '~' || c == '/';
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

} // namespace

std::string path_to_uri(const std::filesystem::path& path) {
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out = "file://";
    for (unsigned char c : path.string()) {
        if (unreserved(c)) {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

std::optional<std::filesystem::path> uri_to_path(std::string_view uri) {
    constexpr std::string_view scheme = "file://";
    if (uri.substr(0, scheme.size()) != scheme) return std::nullopt;
    uri.remove_prefix(scheme.size());
    if (uri.substr(0, 9) == "localhost") uri.remove_prefix(9);
    if (uri.empty() || uri.front() != '/') return std::nullopt;
    std::string out;
    for (std::size_t i = 0; i < uri.size(); ++i) {
        if (uri[i] != '%') {
            out += uri[i];
            continue;
        }
        if (i + 2 >= uri.size()) return std::nullopt;
        int hi = hex_value(uri[i + 1]), lo = hex_value(uri[i + 2]);
        if (hi < 0 || lo < 0) return std::nullopt;
        char c = static_cast<char>(hi * 16 + lo);
        if (c == '\0') return std::nullopt;
        out += c;
        i += 2;
    }
    return std::filesystem::path(out).lexically_normal();
}

} // namespace rio
