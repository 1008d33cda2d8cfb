#include "host/store/redact.hpp"

#include <algorithm>
#include <cstring>
#include <string_view>

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

std::string StreamRedaction::feed(std::string_view piece, const std::vector<std::string>& secrets) {
    std::string text = std::exchange(held_, std::string());
    text += piece;
    redact(text, secrets);
    // The longest end of the text that begins some key (a whole one was replaced above).
    std::size_t hold = 0;
    for (const std::string& secret : secrets) {
        if (secret.size() < min_secret_length) continue;
        for (std::size_t n = std::min(secret.size() - 1, text.size()); n > hold; --n)
            if (std::string_view(text).substr(text.size() - n) ==
                std::string_view(secret).substr(0, n)) {
                hold = n;
                break;
            }
    }
    held_ = text.substr(text.size() - hold);
    text.resize(text.size() - hold);
    return text;
}

} // namespace rio
