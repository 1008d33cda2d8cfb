// A size as a person reads it: 2147483648 -> "2 GiB", 1536 MiB -> "1.5 GiB", 512 -> "512 bytes".
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

namespace rio {

inline std::string size_text(std::uint64_t bytes) {
    const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    double value = static_cast<double>(bytes);
    int unit = 0;
    while (value >= 1024 && unit < 4) {
        value /= 1024;
        ++unit;
    }
    char text[32];
    if (unit == 0 || value == std::floor(value))
        std::snprintf(text, sizeof text, "%.0f %s", value, units[unit]);
    else
        std::snprintf(text, sizeof text, "%.1f %s", value, units[unit]);
    return text;
}

} // namespace rio
