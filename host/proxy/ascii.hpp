// The ASCII-only character tests host names and HTTP heads are read with: a locale never
// changes what a host or a header name is.
#pragma once

#include <string>
#include <string_view>

namespace rio {

inline bool is_ascii_digit(char c) {
    return c >= '0' && c <= '9';
}

inline std::string ascii_lower(std::string_view text) {
    std::string folded(text);
    for (char& c : folded)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return folded;
}

} // namespace rio
