// How common each byte is in source text, so that a search scans for its rarest bytes first.
// Measured on the sources of git and redis (47 MB of text, translations left out), in parts
// per 100,000, with a floor of 10: a byte rare in that code (a control character, the bytes
// of other scripts) may still be common in some project's text.
#pragma once

#include <array>
#include <bitset>
#include <cstddef>
#include <cstdint>

namespace rio {

inline constexpr std::array<std::uint16_t, 256> byte_share_per_100k = {
    10,    10,   10,   10,   10,   10,   10,   10,   10,   2169, 3237, 10,  10,   10,   10,   10,
    10,    10,   10,   10,   10,   10,   10,   10,   10,   10,   10,   10,  10,   10,   10,   10,
    15369, 81,   950,  210,  325,  63,   663,  371,  878,  885,  690,  125, 898,  1494, 712,  512,
    476,   372,  247,  136,  147,  101,  118,  75,   83,   78,   262,  674, 189,  595,  437,  20,
    42,    396,  130,  317,  264,  589,  185,  169,  137,  381,  22,   72,  405,  208,  352,  348,
    194,   18,   404,  378,  459,  224,  49,   63,   50,   58,   24,   164, 151,  163,  26,   2071,
    101,   3751, 965,  2714, 2244, 7196, 1708, 1267, 1644, 4099, 131,  481, 2385, 1604, 3451, 3544,
    1681,  84,   3920, 4018, 5950, 1749, 562,  537,  520,  619,  147,  322, 94,   322,  26,   10,
    10,    10,   10,   10,   10,   10,   10,   10,   10,   10,   10,   10,  10,   10,   10,   10,
    10,    10,   10,   10,   10,   10,   10,   10,   10,   10,   10,   10,  10,   10,   10,   10,
    10,    10,   10,   10,   10,   10,   10,   10,   10,   10,   10,   10,  10,   10,   10,   10,
    10,    10,   10,   10,   10,   10,   10,   10,   10,   10,   10,   10,  10,   10,   10,   10,
    10,    10,   10,   10,   10,   10,   10,   10,   10,   10,   10,   10,  10,   10,   10,   10,
    10,    10,   10,   10,   10,   10,   10,   10,   10,   10,   10,   10,  10,   10,   10,   10,
    10,    10,   10,   10,   10,   10,   10,   10,   10,   10,   10,   10,  10,   10,   10,   10,
    10,    10,   10,   10,   10,   10,   10,   10,   10,   10,   10,   10,  10,   10,   10,   10,
};

// The share of text positions holding a byte of `set`, from 0 to about 1.
inline double byte_set_share(const std::bitset<256>& set) {
    std::uint32_t sum = 0;
    for (std::size_t b = 0; b < 256; ++b)
        if (set.test(b)) sum += byte_share_per_100k[b];
    return sum / 100'000.0;
}

} // namespace rio
