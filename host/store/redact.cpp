#include "host/store/redact.hpp"

#include <algorithm>
#include <cstring>
#include <string_view>
#include <unistd.h>

namespace rio {

std::size_t redact(std::string& text, const std::vector<std::string>& secrets) {
    std::size_t replaced = 0;
    for (const std::string& secret : secrets) {
        if (secret.size() < min_secret_length) continue;
        for (std::size_t at = 0;;) {
            const void* hit =
                ::memmem(text.data() + at, text.size() - at, secret.data(), secret.size());
            if (!hit) break;
            at = static_cast<std::size_t>(static_cast<const char*>(hit) - text.data());
            text.replace(at, secret.size(), redacted_marker);
            at += std::strlen(redacted_marker);
            ++replaced;
        }
    }
    return replaced;
}

std::vector<std::string> command_environment(const std::vector<std::string>& hidden) {
    std::vector<std::string> out;
    for (char** entry = ::environ; entry && *entry; ++entry) {
        std::string_view var = *entry;
        std::string_view name = var.substr(0, var.find('='));
        if (name.starts_with("RIO_")) continue;
        if (std::find(hidden.begin(), hidden.end(), name) != hidden.end()) continue;
        out.emplace_back(var);
    }
    return out;
}

} // namespace rio
